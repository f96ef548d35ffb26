import CareTestSupport
import Testing

/// `carevoice grammar` prints what the recognizer is given for a state. The text is the same in
/// every run: the country question's names once came in the order of a dictionary's keys, which
/// Swift changes from process to process.
struct GrammarTextTests {
    @Test(arguments: ["en", "zh-Hans"])
    func eachRunGivesTheRecognizerTheSameGrammar(locale: String) throws {
        let runs: [CLI.Result] = try (0..<3).map { _ in
            try CLI.run(["grammar", "--no-speech", "--locale", locale, "--state", "question-country"])
        }
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
        #expect(runs[0].stdout.contains("<q_country> = "), "\(runs[0].stdout)")
        #expect(Set(runs.map(\.stdout)).count == 1)
    }
}
