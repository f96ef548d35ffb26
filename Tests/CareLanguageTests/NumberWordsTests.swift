import Testing
@testable import CareLanguage

@Suite struct NumberWordsTests {
    let words = NumberWords(Fixtures.english.numbers)

    @Test(arguments: [
        ("6.5", "six point five"), ("120", "one hundred twenty"), ("0.299", "zero point two nine nine"),
        ("105", "one hundred five"), ("7", "seven"), ("13", "thirteen"), ("40", "forty"), ("10.0", "ten point zero"),
        ("600", "six hundred"),
    ])
    func spells(_ number: String, _ expected: String) {
        #expect(words.spell(number) == expected)
    }

    @Test func spellsDigitByDigit() {
        #expect(words.spellDigits("120") == "one two zero")
        #expect(words.spellDigits("6.5") == "six point five")
    }

    /// A number of one digit is one word, not its letters (a guessed "7" was read back as
    /// "s, e, v, e, n").
    @Test func namesEachDigitOnce() {
        #expect(words.digitWords("7") == ["seven"])
        #expect(words.digitWords("12.5") == ["one", "two", "point", "five"])
    }

    /// Every number a reading can have survives being spoken and parsed back.
    @Test func spellingRoundTrips() {
        var failures: [String] = []
        for tenths in stride(from: 10, through: 350, by: 1) {
            let number = tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
            let spoken = words.spell(number).split(separator: " ").map(String.init)
            guard let (parsed, used) = words.parse(spoken[...]), used == spoken.count, parsed == number else {
                failures.append(number); continue
            }
        }
        for whole in 18...630 {
            let spoken = words.spell(String(whole)).split(separator: " ").map(String.init)
            guard let (parsed, used) = words.parse(spoken[...]), used == spoken.count, parsed == String(whole) else {
                failures.append(String(whole)); continue
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }
}
