import CareModel
import Foundation
import Testing
@testable import CareLanguage

/// The recognizer and the parser are both generated from the locale table; these tests hold
/// them together: whatever the recognizer can hear, the parser must understand.
@Suite struct GrammarCoverageTests {

    /// The spoken numbers are a finite set: every one parses, keeps at most the one decimal a
    /// meter shows, and stays below the hundreds a reading can reach.
    @Test(arguments: ["en", "zh-Hans"])
    func everySpokenNumberParsesAndIsBounded(_ locale: String) throws {
        let table = try #require(Self.tables[locale])
        let grammar = JSGFExpander(GrammarBuilder(table: table).jsgf(for: .reading))
        let numbers = NumberWords(table.numbers)
        let sentences = grammar.all("number")
        #expect(sentences.count > 500, "the grammar lost numbers: \(sentences.count)")
        var values = Set<String>()
        for sentence in sentences {
            let tokens = Tokenizer.tokens(sentence)
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

    /// A value said with its unit is one a meter can show in that unit (mg/dL up to its highest
    /// hundred): "fifty millimoles per litre" cannot be heard, so where "fifteen millimoles per litre" was said the recognizer
    /// cannot take it for fifty (as it did, on ec41 and in `bench loop`). Every plausible value can
    /// still be said with its unit, and a number said alone is as free as before.
    @Test(arguments: ["en", "zh-Hans"])
    func aValueSaidWithItsUnitIsOneTheUnitAllows(_ locale: String) throws {
        let table = try #require(Self.tables[locale])
        let grammar = JSGFExpander(GrammarBuilder(table: table).jsgf(for: .reading))
        let parser = UtteranceParser(table: table)
        let lead = table.reading.lead[0]
        var said: [GlucoseUnit: Set<String>] = [:]
        var alone = 0
        for sentence in grammar.all("measure") {
            guard case .glucose(let draft) = parser.parse(lead + " " + sentence) else {
                Issue.record("\"\(sentence)\" is not a reading")
                continue
            }
            guard let unit = draft.unit else { alone += 1; continue }
            // mg/dL values go to the end of the highest hundred (699), as numbers said alone do.
            let allowed = unit == .mgPerDL ? unit.plausibleRange.lowerBound...699 : unit.plausibleRange
            #expect(allowed.contains(draft.value), "\"\(sentence)\" -> \(draft.number) \(unit)")
            said[unit, default: []].insert(draft.number)
        }
        for tenths in 10...350 {
            let text = tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
            #expect(said[.mmolPerL]?.contains(text) == true, "cannot say \(text) with its unit")
        }
        for mg in 18...630 { #expect(said[.mgPerDL]?.contains(String(mg)) == true, "cannot say \(mg) with its unit") }
        #expect(alone == grammar.all("number").count, "numbers said alone: \(alone)")
    }

    /// A spoken reading's time comes before it ("yesterday at nine my sugar was six point five"),
    /// never after: trailing times were heard in place of tags and in noise. Every sampled
    /// sentence of the English reading rule that names a time names it before its number.
    @Test func aSpokenTimeComesBeforeTheReading() throws {
        let table = Fixtures.english
        let grammar = JSGFExpander(GrammarBuilder(table: table).jsgf(for: .reading))
        // Not "at": "at bedtime" is a tag.
        let timeWords = Set((table.time.today + table.time.yesterday + table.time.now
                             + table.time.partsOfDay.flatMap(\.say)).flatMap(Tokenizer.tokens))
        let numberWords = Set(table.numbers.digits.keys).union(table.numbers.teens.keys).union(table.numbers.tens.keys)
            .union([table.numbers.hundred])
        var generator = SeededGenerator(seed: 17)
        var timed = 0
        for _ in 0..<3000 {
            let words = Tokenizer.tokens(grammar.sample("reading", using: &generator))
            guard let firstTime = words.firstIndex(where: timeWords.contains) else { continue }
            timed += 1
            let firstNumber = try #require(words.firstIndex(where: numberWords.contains), "\(words)")
            #expect(firstTime < firstNumber, "a time after the reading: \(words.joined(separator: " "))")
        }
        #expect(timed > 100, "the reading rule lost its times: \(timed) of 3000")
    }

    static let countries = ["CA", "GB", "US", "CN", "FR", "DE", "IN", "JP"]
    static let tables = ["en": Fixtures.english, "zh-Hans": Fixtures.chinese]

    /// Understood in `context`: a reading, an answer or a command where the dialog listens for
    /// them; for a question, also its answer (or an answer it can say is implausible).
    static let readers = tables.mapValues { table in
        (book: Phrasebook(table: table, calendar: Fixtures.calendar), parser: UtteranceParser(table: table),
         answers: ProfileAnswerParser(table: table))
    }

    static func understood(_ sentence: String, in context: ListeningContext, table: LocaleTable) -> Bool {
        let (book, parser, answers) = readers[table.id]!
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
            return parser.tagAddition(sentence) != nil || parser.matches(sentence, table.diary.attachPicture)
        case .confirmation:
            return answers.navigation(sentence) == .back
        case .contactRelation:
            // Any navigation word, or a relation kept as said.
            return answers.navigation(sentence) != nil
                || answers.relation(sentence).map(table.contacts.relations.contains) == true
        case .question(let q):
            if answers.navigation(sentence) != nil { return true }
            let outcome = answers.answer(to: q, sentence, units: .metric, countries: countries, today: today, book: book)
            return outcome != .notUnderstood
        }
    }

    @Test(arguments: ["en", "zh-Hans"], ListeningContext.allCases)
    func everySentenceTheRecognizerCanHearIsUnderstood(_ locale: String, _ context: ListeningContext) throws {
        let table = try #require(Self.tables[locale])
        let grammar = JSGFExpander(GrammarBuilder(table: table, countries: Self.countries).jsgf(for: context))
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<3000 {
            let sentence = grammar.sample("utterance", using: &generator)
            #expect(Self.understood(sentence, in: context, table: table), "\"\(sentence)\" (\(locale), \(context.rawValue))")
        }
    }

    /// Every date the date grammar can produce is read as the day that was said.
    @Test(arguments: ["en", "zh-Hans"])
    func spokenDatesAreReadAsSaid(_ locale: String) throws {
        let table = try #require(Self.tables[locale])
        let grammar = JSGFExpander(GrammarBuilder(table: table).jsgf(for: .question(.dateOfBirth)))
        let answers = ProfileAnswerParser(table: table)
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2000 {
            let sentence = grammar.sample("q_dateOfBirth", using: &generator)
            guard case .day(let day) = answers.dateOfBirth(sentence) else {
                Issue.record("\"\(sentence)\" is not a date")
                continue
            }
            #expect((1...12).contains(day.month) && (1...31).contains(day.day) && (1900...2099).contains(day.year), "\"\(sentence)\" -> \(day)")
        }
    }

    /// In the answer state a bare number is too easily made out of "yes"; a spoken
    /// correction must start its reading with a lead word ("glucose nine point four").
    @Test(arguments: ["en", "zh-Hans"])
    func aSpokenCorrectionNamesWhatItIs(_ locale: String) throws {
        let table = try #require(Self.tables[locale])
        let grammar = JSGFExpander(GrammarBuilder(table: table).jsgf(for: .answer))
        let parser = UtteranceParser(table: table)
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let sentence = grammar.sample("utterance", using: &generator)
            guard case .glucose = parser.parse(sentence) else { continue }
            let spaced = " " + Tokenizer.tokens(sentence).joined(separator: " ") + " "
            #expect(table.reading.lead.contains { spaced.contains(" " + Tokenizer.tokens($0).joined(separator: " ") + " ") }, "\"\(sentence)\"")
        }
    }

    /// After a read-back, a unit, meal or the part of the day said alone completes the reading:
    /// the answer grammar hears them, understood as just that, in both languages; one that
    /// leaves them out (a noisy room's) hears none.
    @Test(arguments: ["en", "zh-Hans"])
    func aUnitMealOrTimeAloneIsHeardAfterTheReadBack(_ locale: String) throws {
        let table = try #require(Self.tables[locale])
        let parser = UtteranceParser(table: table)
        func details(hearingThem: Bool) -> [ReadingDetails] {
            let grammar = JSGFExpander(GrammarBuilder(table: table, hearsMealAfterReadBack: hearingThem).jsgf(for: .answer))
            var generator = SeededGenerator(seed: 5)
            return (0..<2000).compactMap { _ in
                if case .readingDetails(let details) = parser.parse(grammar.sample("utterance", using: &generator)) { return details }
                return nil
            }
        }
        let heard = details(hearingThem: true)
        #expect(heard.count > 100, "\(heard.count) of 2000")
        #expect(heard.allSatisfy { $0.unit != nil || $0.tag != nil || $0.time != nil })
        #expect(Set(heard.compactMap(\.tag)) == Set(MealTag.allCases))
        // Every part of the day and "yesterday"; never today or a clock time (GrammarBuilder).
        let times = heard.compactMap(\.time)
        #expect(Set(times.compactMap(\.defaultHour)) == Set(table.time.partsOfDay.map(\.hour)))
        #expect(times.contains { $0.day == .yesterday && $0.defaultHour == nil })
        #expect(times.allSatisfy { $0.hour == nil && ($0.day != .today || $0.defaultHour != nil) })
        #expect(details(hearingThem: false).isEmpty)
        let tag = try #require(table.phrases(for: MealTag.beforeBreakfast).say.first)
        #expect(parser.parse(tag) == .readingDetails(ReadingDetails(tag: .beforeBreakfast)))
        let morning = try #require(table.time.partsOfDay.first { $0.hour == 8 }?.say.first)
        #expect(parser.parse(morning) == .readingDetails(ReadingDetails(time: TimeExpression(day: .today, meridiem: .am, defaultHour: 8))))
    }

    /// The reading state hears answers as answers: a reading turned away is often answered with a
    /// yes, and without answers in its grammar a yes was forced onto a number ("eighty eight")
    /// and read back as a reading to save. Every kind of answer is among its sentences.
    @Test(arguments: ["en", "zh-Hans"])
    func theReadingStateHearsAnswers(_ locale: String) throws {
        let table = try #require(Self.tables[locale])
        let grammar = JSGFExpander(GrammarBuilder(table: table).jsgf(for: .reading))
        let parser = UtteranceParser(table: table)
        var generator = SeededGenerator(seed: 3)
        var heard = Set<Answer>()
        for _ in 0..<3000 {
            if case .answer(let answer) = parser.parse(grammar.sample("utterance", using: &generator)) { heard.insert(answer) }
        }
        #expect(heard == Set(Answer.allCases), "\(heard)")
    }
}

