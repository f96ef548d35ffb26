import CareLanguage
import CareSpeech
import Foundation
import Testing
@testable import CareAssistant

/// The Chinese recognizer as the benchmarks build it, on Debian's real English model: every
/// dialog state's grammar compiles, and every Chinese character is a word the decoder can say.
@Suite struct ChineseRecognizerTests {
    static let resources = ResourceLocator(root: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent())

    @Test func everyChineseCharacterIsAWordTheDecoderCanSay() throws {
        // Builds every grammar of every state (make throws on a grammar pocketsphinx rejects or
        // a word it cannot spell).
        let recognizer = try RecognizerFactory.make(table: chinese, resources: Self.resources, countries: ["CN", "HK", "TW", "CA"])
        let table = try String(contentsOf: Self.resources.modelsDirectory.appendingPathComponent("zh-Hans/pinyin.txt"), encoding: .utf8)
        let characters = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(characters.count == 6763)
        // ps_add_word refuses phones the acoustic model lacks, so this checks the phone table too.
        let unsayable = characters.filter { recognizer.pronunciation(of: $0) == nil }
        #expect(unsayable.isEmpty, "\(unsayable.count) characters, e.g. \(unsayable.prefix(5))")
        #expect(recognizer.pronunciation(of: "血糖") == "SH Y EH T AA NG")
    }
}
