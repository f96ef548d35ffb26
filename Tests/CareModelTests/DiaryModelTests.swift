import Foundation
import Testing
@testable import CareModel

@Suite struct DiaryModelTests {
    /// FIPS 180-4's own examples.
    @Test func sha256MatchesTheStandardsExamples() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test(arguments: [
        ([0xFF, 0xD8, 0xFF, 0xDB], PictureFormat?.some(.jpeg)),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .png),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
        ([0, 0, 0, 24] + Array("ftypheic".utf8), .heic),
        ([0, 0, 0, 24] + Array("ftypmp42".utf8), nil),
        (Array("GIF89a".utf8), nil), (Array("hello".utf8), nil), ([], nil),
    ] as [([UInt8], PictureFormat?)])
    func picturesAreKnownByTheirFirstBytes(_ bytes: [UInt8], _ format: PictureFormat?) {
        #expect(PictureFormat.detect(bytes) == format)
    }

    /// 23:30 on 31 December in Vancouver is the next year in UTC; a day before 1 March 2028 is 29 February.
    @Test func daysAreWhereThingsHappened() {
        let newYearUTC = Date(timeIntervalSince1970: 1_798_761_600 + 7 * 3600 - 1800)   // 2027-01-01 06:30 UTC
        #expect(CalendarDay(newYearUTC, utcOffsetSeconds: -8 * 3600) == CalendarDay(year: 2026, month: 12, day: 31))
        #expect(CalendarDay(newYearUTC, utcOffsetSeconds: 0) == CalendarDay(year: 2027, month: 1, day: 1))
        #expect(CalendarDay(year: 2028, month: 3, day: 1).adding(days: -1) == CalendarDay(year: 2028, month: 2, day: 29))
        #expect(CalendarDay(year: 2026, month: 12, day: 31).adding(days: 1) == CalendarDay(year: 2027, month: 1, day: 1))
    }

    @Test func tagsAreLowerCaseAndEachOnce() {
        #expect(DiaryEntry.normalizedTags([" Breakfast", "stress", "breakfast", "", "Travel "]) == ["breakfast", "stress", "travel"])
    }
}
