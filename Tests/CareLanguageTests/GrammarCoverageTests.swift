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

    @Test(arguments: ListeningContext.allCases)
    func everySentenceTheRecognizerCanHearIsUnderstood(_ context: ListeningContext) {
        let grammar = JSGFExpander(Self.builder.jsgf(for: context))
        var generator = SplitMix(seed: 2026)
        for _ in 0..<3000 {
            let sentence = grammar.sample("utterance", using: &generator)
            #expect(Self.parser.parse(sentence) != .unknown, "\"\(sentence)\" (\(context))")
        }
    }

    /// In the answer state a bare number is too easily made out of "yes"; a spoken
    /// correction must start its reading with a lead word ("glucose nine point four").
    @Test func aSpokenCorrectionNamesWhatItIs() {
        let grammar = JSGFExpander(Self.builder.jsgf(for: .answer))
        let leads = Fixtures.english.reading.lead
        var generator = SplitMix(seed: 7)
        for _ in 0..<2000 {
            let sentence = grammar.sample("utterance", using: &generator)
            guard case .glucose = Self.parser.parse(sentence) else { continue }
            #expect(leads.contains { (" " + sentence + " ").contains(" " + $0 + " ") }, "\"\(sentence)\"")
        }
    }

    /// The reading state never hears a bare yes or no: that would answer a question nobody asked.
    @Test func theReadingStateHasNoAnswers() {
        let grammar = JSGFExpander(Self.builder.jsgf(for: .reading))
        var generator = SplitMix(seed: 3)
        for _ in 0..<2000 {
            let sentence = grammar.sample("utterance", using: &generator)
            if case .answer = Self.parser.parse(sentence) { Issue.record("\"\(sentence)\" is an answer") }
        }
    }
}

/// Reproducible random choices for sampling grammars.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
