import Foundation
import Testing
@testable import CareReport

@Suite struct MailMessageTests {
    @Test(arguments: [("dr.wong@clinic.example.org", true), ("a@b.co", true), ("dr wong@example.org", false),
                      ("dr@example", false), ("@example.org", false), ("dr@@example.org", false), ("dr@example.org.", false),
                      ("<dr@example.org>", false), ("医生@example.org", false)])
    func anAddressIsOneMailbox(_ address: String, _ valid: Bool) {
        #expect(MailMessage.isAddress(address) == valid)
    }

    /// Long non-ASCII text becomes several encoded words on folded lines, none over 78
    /// characters, and no character split between words.
    @Test func nonASCIIHeadersAreEncodedWordsThatDecodeBack() {
        let subject = "血糖报告，2026年8月22日至2026年11月22日，共一百二十次测量"
        let encoded = MailMessage.header(subject)
        let lines = ("Subject: " + encoded).components(separatedBy: "\r\n")
        #expect(lines.count > 1 && lines.allSatisfy { $0.count <= 78 })
        let decoded = encoded.components(separatedBy: "\r\n ").map { word -> String in
            let base64 = word.dropFirst("=?UTF-8?B?".count).dropLast(2)
            return String(decoding: Data(base64Encoded: String(base64))!, as: UTF8.self)
        }.joined()
        #expect(decoded == subject)
        #expect(MailMessage.header("Blood glucose report") == "Blood glucose report")
    }
}
