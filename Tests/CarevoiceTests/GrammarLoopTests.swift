import CareLanguage
@testable import CareSpeech
import Testing

/// The recognizer hears a grammar in the finite-state form sphinxbase builds from its JSGF, and
/// that form can allow more than the JSGF says: a loop (`<a>+`, `<a>*`) that starts an
/// alternative returns to the state the alternative started from, which every other
/// alternative starts from too. `public <s> = <digit>+ | go back;` then hears "one two go back",
/// which the parser was never tested on. A loop after a word of its own (`[plus] <digit>+`)
/// returns there instead.
struct GrammarLoopTests {
    @Test func aLoopThatStartsAnAlternativeLeadsIntoTheOthers() throws {
        let leading = try #require(GrammarShape(jsgf: "#JSGF V1.0; grammar a; public <s> = <d>+ | go back; <d> = one | two;"))
        #expect(leading.standing(of: "one two go back") == .complete(goesOn: false))
        let starred = try #require(GrammarShape(jsgf: "#JSGF V1.0; grammar a; public <s> = <d>* three | go back; <d> = one | two;"))
        #expect(starred.standing(of: "one go back") == .complete(goesOn: false))
        let after = try #require(GrammarShape(jsgf: "#JSGF V1.0; grammar a; public <s> = [plus] <d>+ | go back; <d> = one | two;"))
        #expect(after.standing(of: "one two go back") == .outside)
        #expect(after.standing(of: "one two") == .complete(goesOn: true))
    }

    /// The phone-number question's digits are such a loop, in both languages: its navigation,
    /// goodbye and calls for help are heard only alone, never after digits.
    @Test(arguments: ["en", "zh-Hans"])
    func phoneDigitsDoNotLeadIntoTheOtherAnswers(locale: String) throws {
        let table = try Session.resources.loadLocale(locale)
        let builder = GrammarBuilder(table: table)
        let shape = try #require(GrammarShape(jsgf: builder.jsgf(for: .question(.contactPhone))))
        let digits = table.numbers.digits.sorted { $0.value < $1.value }.map(\.key)
        let twoDigits = "\(digits[1]) \(digits[2])"
        #expect(shape.standing(of: twoDigits) == .complete(goesOn: true))
        #expect(shape.standing(of: "\(table.phoneDigits.plus) \(twoDigits)") == .complete(goesOn: true))
        let candidates = table.profile.back + table.profile.skip + (table.answers[Answer.repeat.rawValue] ?? [])
            + (table.commands["quit"] ?? []) + table.emergency
        // Only the phrases this question hears alone (one-word commands are left out of it).
        let heardAlone = candidates.filter { shape.standing(of: $0) != .outside }
        #expect(heardAlone.count >= 5, "\(heardAlone)")
        for phrase in heardAlone {
            #expect(shape.standing(of: "\(twoDigits) \(phrase)") == .outside, "\(twoDigits) \(phrase)")
        }
    }
}
