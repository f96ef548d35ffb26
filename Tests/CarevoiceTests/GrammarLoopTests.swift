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

/// The other words heard beside the reading grammar (`OtherWordsCheck`) are a loop of their own,
/// `<other_word> <other_word>*`: a sentence is all other words or all the grammar's, never
/// both, so "children two hundred and eight after breakfast" cannot be heard as "children"
/// and a reading.
struct OtherWordsLoopTests {
    @Test func otherWordsAndTheGrammarsWordsDoNotMix() throws {
        let table = try Session.resources.loadLocale("en")
        let builder = GrammarBuilder(table: table)
        let loop = ["children", "my", "knee", "glucose"].map(OtherWordsCheck.loopWord)
        let shape = try #require(GrammarShape(jsgf: builder.jsgf(for: .reading, besideOtherWords: loop)))
        #expect(shape.standing(of: "other_children") == .complete(goesOn: true))
        #expect(shape.standing(of: "other_my other_knee other_glucose") == .complete(goesOn: true))
        #expect(shape.standing(of: "glucose six point five before breakfast") == .complete(goesOn: false))
        for mixed in ["other_children two hundred and eight after breakfast", "glucose six other_knee",
                      "other_glucose six point five", "help other_my", "other_my help"] {
            #expect(shape.standing(of: mixed) == .outside, "\(mixed)")
        }
        // With a loop that starts its alternative (`+`), they would mix: the test can tell.
        let leaking = builder.jsgf(for: .reading, besideOtherWords: loop)
            .replacingOccurrences(of: "<other_word> <other_word>*", with: "<other_word>+")
        let leaky = try #require(GrammarShape(jsgf: leaking))
        #expect(leaky.standing(of: "other_children two hundred and eight after breakfast") != .outside)
    }

    /// The loop says the grammar's own words too, spelled apart: the reading grammar's words are
    /// all of those its sentences can have, and no others.
    @Test func theReadingGrammarsWordsAreThoseItsSentencesHave() throws {
        let table = try Session.resources.loadLocale("en")
        let builder = GrammarBuilder(table: table)
        let words = builder.words(for: .reading)
        for word in ["glucose", "millimoles", "breakfast", "help", "goodbye", "note", "seventeen"] {
            #expect(words.contains(word), "\(word)")
        }
        // Relations are heard only where a contact's relation is asked; answers here too
        // (GrammarBuilder: a yes to a reading that was turned away).
        #expect(!words.contains("daughter") && words.contains("yes"))
        #expect(builder.words(for: .contactRelation).contains("daughter"))
        #expect(words.isSubset(of: builder.words))
    }
}

/// Where a spoken reading names its time: before it ("this morning my sugar was six point
/// five") or after its lead word ("my sugar this morning was six point five"). Never after the
/// reading, so a reading with its meal still has nothing that can follow it, and ends at a
/// short pause in a noisy room too; nor the times heard in place of numbers.
struct SpokenReadingTimeTests {
    @Test func aTimeComesBeforeTheReadingOrAfterItsLeadWord() throws {
        let table = try Session.resources.loadLocale("en")
        let shape = try #require(GrammarShape(jsgf: GrammarBuilder(table: table).jsgf(for: .reading)))
        #expect(shape.standing(of: "my sugar this morning was six point five") == .complete(goesOn: true))
        #expect(shape.standing(of: "my blood sugar last night at ten was seven point two after dinner") == .complete(goesOn: false))
        #expect(shape.standing(of: "glucose this afternoon at two was one hundred twenty before lunch") == .complete(goesOn: false))
        #expect(shape.standing(of: "yesterday at nine my glucose was eight point one") == .complete(goesOn: true))
        #expect(shape.standing(of: "glucose six point five before breakfast") == .complete(goesOn: false))
        // After the lead word "tonight" was heard in "seventeen", "at ten" in "seven", "at one"
        // in "seventy", "today" in "is sixteen".
        for said in ["my sugar tonight was six point five", "glucose at seven was six point five", "glucose now is six",
                     "my blood sugar today is sixteen", "glucose yesterday at nine was six",
                     "glucose six point five before breakfast this morning", "sugar was six point five last night"] {
            #expect(shape.standing(of: said) == .outside, "\(said)")
        }
    }
}
