import CareModel
import Foundation
import Testing
@testable import CareLanguage

/// The recognizer and the parser are both generated from the locale table; these tests hold
/// them together: whatever the recognizer can hear, the parser must understand.
@Suite struct GrammarCoverageTests {
    static let builder = GrammarBuilder(table: Fixtures.english)
    static let parser = UtteranceParser(table: Fixtures.english)

    /// The spoken numbers are a finite set: every one parses, keeps at most the one decimal a
    /// meter shows, and stays below the hundreds a reading can reach.
    @Test func everySpokenNumberParsesAndIsBounded() throws {
        let grammar = JSGFExpander(Self.builder.jsgf(for: .reading))
        let numbers = NumberWords(Fixtures.english.numbers)
        let sentences = grammar.all("number")
        #expect(sentences.count > 500, "the grammar lost numbers: \(sentences.count)")
        var values = Set<String>()
        for sentence in sentences {
            let tokens = sentence.split(separator: " ").map(String.init)
            guard let (number, used) = numbers.parse(tokens[...]), used == tokens.count else {
                Issue.record("\"\(sentence)\" does not parse as one number")
                continue
            }
            values.insert(number)
            let decimals = number.split(separator: ".").dropFirst().first?.count ?? 0
            #expect(decimals <= 1, "\"\(sentence)\" -> \(number)")
            let value = try #require(Double(number))
            #expect(value >= 1 && value < 700, "\"\(sentence)\" -> \(number)")
        }
        // Every plausible mmol/L value with one decimal and every plausible whole mg/dL value can be said.
        for tenths in 10...350 {
            let text = tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
            #expect(values.contains(text) || values.contains("\(tenths / 10)"), "cannot say \(text)")
        }
        for mg in 18...630 { #expect(values.contains(String(mg)), "cannot say \(mg)") }
    }

    static let answers = ProfileAnswerParser(table: Fixtures.english)
    static let countries = ["CA", "GB", "US", "CN", "FR", "DE", "IN", "JP"]
    static let withCountries = GrammarBuilder(table: Fixtures.english, countries: countries)

    /// Understood in `context`: a reading, an answer or a command where the dialog listens for
    /// them; for a question, also its answer (or an answer it can say is implausible).
    static func understood(_ sentence: String, in context: ListeningContext) -> Bool {
        let book = Phrasebook(table: Fixtures.english, calendar: Fixtures.calendar)
        let today = CalendarDay(year: 2026, month: 11, day: 22)
        if case .change(.set(let field, let value)) = parser.parse(sentence) {
            // "change my weight": the field's question comes next.
            if value.isEmpty { return field.question != nil }
            // A change is understood only if its value is (the grammar keeps values plausible).
            let context = ChangeContext(settings: Settings(), countries: countries, today: today)
            if case .change = answers.change(field, value, context: context, book: book) { return true }
            return false
        }
        if parser.parse(sentence) != .unknown { return true }
        switch context {
        case .reading, .answer, .dictation:
            return false
        case .noteAnswer:
            return parser.tagAddition(sentence) != nil || parser.matches(sentence, Fixtures.english.diary.attachPicture)
        case .confirmation:
            return answers.navigation(sentence) == .back
        case .contactRelation:
            // Any navigation word, or a relation kept as said.
            return answers.navigation(sentence) != nil
                || answers.relation(sentence).map(Fixtures.english.contacts.relations.contains) == true
        case .question(let q):
            if answers.navigation(sentence) != nil { return true }
            let outcome = answers.answer(to: q, sentence, units: .metric, countries: countries, today: today, book: book)
            return outcome != .notUnderstood
        }
    }

    @Test(arguments: ListeningContext.allCases)
    func everySentenceTheRecognizerCanHearIsUnderstood(_ context: ListeningContext) {
        let grammar = JSGFExpander(Self.withCountries.jsgf(for: context))
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<3000 {
            let sentence = grammar.sample("utterance", using: &generator)
            #expect(Self.understood(sentence, in: context), "\"\(sentence)\" (\(context.rawValue))")
        }
    }

    /// Every date the date grammar can produce is read as the day that was said.
    @Test func spokenDatesAreReadAsSaid() {
        let grammar = JSGFExpander(Self.builder.jsgf(for: .question(.dateOfBirth)))
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2000 {
            let sentence = grammar.sample("q_dateOfBirth", using: &generator)
            guard case .day(let day) = Self.answers.dateOfBirth(sentence) else {
                Issue.record("\"\(sentence)\" is not a date")
                continue
            }
            #expect((1...12).contains(day.month) && (1...31).contains(day.day) && (1900...2099).contains(day.year), "\"\(sentence)\" -> \(day)")
        }
    }

    /// In the answer state a bare number is too easily made out of "yes"; a spoken
    /// correction must start its reading with a lead word ("glucose nine point four").
    @Test func aSpokenCorrectionNamesWhatItIs() {
        let grammar = JSGFExpander(Self.builder.jsgf(for: .answer))
        let leads = Fixtures.english.reading.lead
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let sentence = grammar.sample("utterance", using: &generator)
            guard case .glucose = Self.parser.parse(sentence) else { continue }
            #expect(leads.contains { (" " + sentence + " ").contains(" " + $0 + " ") }, "\"\(sentence)\"")
        }
    }

    /// The reading state never hears a bare yes or no: that would answer a question nobody asked.
    @Test func theReadingStateHasNoAnswers() {
        let grammar = JSGFExpander(Self.builder.jsgf(for: .reading))
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<2000 {
            let sentence = grammar.sample("utterance", using: &generator)
            if case .answer = Self.parser.parse(sentence) { Issue.record("\"\(sentence)\" is an answer") }
        }
    }
}

