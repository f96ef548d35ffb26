import Testing
@testable import CareLanguage

@Suite struct ChineseNumeralTests {
    let numerals = ChineseNumerals.mandarin

    /// Written forms and the number each is, including 两, 零, 十 without 一, the colloquial
    /// "一百二" (120) and digit-by-digit strings.
    static let readings: [(String, String)] = [
        ("零", "0"), ("一", "1"), ("二", "2"), ("两", "2"), ("三", "3"), ("四", "4"), ("五", "5"), ("六", "6"), ("七", "7"),
        ("八", "8"), ("九", "9"), ("十", "10"), ("十一", "11"), ("十五", "15"), ("十九", "19"), ("一十五", "15"), ("二十", "20"),
        ("二十一", "21"), ("三十八", "38"), ("四十", "40"), ("五十五", "55"), ("九十九", "99"), ("一百", "100"),
        ("一百零一", "101"), ("一百零五", "105"), ("一百一十", "110"), ("一百十", "110"), ("一百一十五", "115"),
        ("一百二十", "120"), ("一百二", "120"), ("一百二十五", "125"), ("一百八十", "180"), ("两百", "200"), ("二百", "200"),
        ("两百零八", "208"), ("两百五", "250"), ("两百五十", "250"), ("三百", "300"), ("五百九十九", "599"), ("六百三十", "630"),
        ("一千", "1000"), ("一千零五", "1005"), ("一千零五十", "1050"), ("一千二", "1200"), ("两千", "2000"),
        ("两千零二十六", "2026"), ("九千九百九十九", "9999"),
        ("六点五", "6.5"), ("七点二", "7.2"), ("零点八", "0.8"), ("十点零", "10.0"), ("十二点三", "12.3"), ("三十三点三", "33.3"),
        ("四点八五", "4.85"), ("一点零五", "1.05"),
        ("一二零", "120"), ("六五", "65"), ("零", "0"), ("一零五", "105"), ("〇", "0"),
    ]

    @Test(arguments: readings)
    func writtenNumbersAreRead(_ written: String, _ number: String) {
        #expect(numerals.number(written) == number, "\(written)")
    }

    @Test(arguments: ["十十", "五五十", "百", "一百百", "十百", "零五", "零十", "一百零", "一百零零五", "两两", "点五", ""])
    func malformedNumbersAreNotNumbers(_ written: String) {
        #expect(numerals.number(written) == nil, "\(written)")
    }

    @Test func aNumberIsReadFromTheStartOfASentence() throws {
        let (number, used) = try #require(numerals.parse("六点五毫摩尔"))
        #expect(number == "6.5" && used == 3)
        // 点 with no digit after it is not part of the number ("三点" is three o'clock).
        let (hour, taken) = try #require(numerals.parse("三点钟"))
        #expect(hour == "3" && taken == 1)
        #expect(numerals.parse("血糖六点五") == nil)
    }

    @Test(arguments: [("6.5", "六点五"), ("0.8", "零点八"), ("7", "七"), ("10", "十"), ("15", "十五"), ("20", "二十"),
                      ("38", "三十八"), ("100", "一百"), ("105", "一百零五"), ("110", "一百一十"), ("120", "一百二十"),
                      ("200", "两百"), ("220", "两百二十"), ("1050", "一千零五十"), ("1005", "一千零五"), ("2026", "两千零二十六"),
                      ("12.0", "十二点零")])
    func numbersAreSaidAsAChineseSpeakerSaysThem(_ number: String, _ said: String) {
        #expect(numerals.spell(number) == said)
    }

    @Test func digitByDigit() {
        #expect(numerals.spellDigits("120") == "一二零")
        #expect(numerals.spellDigits("6.5") == "六点五")
        #expect(numerals.spellDigits("202") == "二零二")
        #expect(numerals.number(numerals.spellDigits("120")) == "120")
    }

    /// Every whole number below 10 000 and every glucose value with one decimal is said and
    /// read back to itself.
    @Test func everyNumberSaidIsReadBackToItself() {
        for n in 0..<10_000 {
            let said = numerals.spell(String(n))
            #expect(numerals.number(said) == String(n), "\(n) -> \(said)")
        }
        for tenths in 0...350 {
            let value = "\(tenths / 10).\(tenths % 10)"
            #expect(numerals.number(numerals.spell(value)) == value, "\(value)")
        }
    }
}
