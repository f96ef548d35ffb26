import Foundation
import Testing
@testable import CareLanguage

@Suite struct LocaleTableTests {
    @Test func everyMessageHasText() {
        for key in MessageKey.allCases {
            #expect(Fixtures.english.messages[key.rawValue]?.isEmpty == false, "messages.\(key.rawValue)")
        }
    }

    /// A spoken phrase the recognizer cannot pronounce would silently never be heard.
    @Test func everyGrammarWordIsInADictionary() throws {
        let table = Fixtures.english
        let cmudict = try String(contentsOfFile: table.speech.dictionary, encoding: .utf8)
        let known = Pronunciations.words(inDictionaryText: cmudict)
            .union(Fixtures.resources.extraPronunciations(for: table).keys)
        let missing = GrammarBuilder(table: table).words.subtracting(known)
        #expect(missing.isEmpty, "not in any dictionary: \(missing.sorted())")
        let enrollment = Set(table.enrollment.prompts.flatMap { $0.split(separator: " ").map(String.init) })
        #expect(enrollment.subtracting(known).isEmpty, "enrollment words in no dictionary: \(enrollment.subtracting(known).sorted())")
    }

    @Test func extraDictionaryIsLoaded() {
        #expect(Fixtures.resources.extraPronunciations(for: Fixtures.english)["millimoles"] == "M IH L AH M OW L Z")
        // A Chinese call for help listened for in English, spelled through its pinyin (jiu4 ming4).
        #expect(Fixtures.resources.extraPronunciations(for: Fixtures.english)["救命"] == "JH Y OW M IY NG")
    }

    @Test(arguments: ListeningContext.allCases)
    func grammarsAreWellFormed(_ context: ListeningContext) {
        let jsgf = GrammarBuilder(table: Fixtures.english).jsgf(for: context)
        #expect(jsgf.hasPrefix("#JSGF V1.0;"))
        #expect(jsgf.contains("public <utterance> ="))
        // Every rule referenced is defined.
        func names(_ pattern: String) -> Set<String> {
            let regex = try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
            let range = NSRange(jsgf.startIndex..., in: jsgf)
            return Set(regex.matches(in: jsgf, range: range).map { String(jsgf[Range($0.range(at: 1), in: jsgf)!]) })
        }
        let referenced = names("<([a-z_]+)>")
        let defined = names("^(?:public )?<([a-z_]+)> =")
        #expect(referenced.subtracting(defined).isEmpty)
        // Parentheses and brackets balance.
        #expect(jsgf.filter { $0 == "(" }.count == jsgf.filter { $0 == ")" }.count)
        #expect(jsgf.filter { $0 == "[" }.count == jsgf.filter { $0 == "]" }.count)
    }

    @Test func onlyTheAnswerGrammarHearsYesAndNo() {
        let builder = GrammarBuilder(table: Fixtures.english)
        #expect(builder.jsgf(for: .answer).contains("<answer> |"))
        #expect(!builder.jsgf(for: .reading).contains("public <utterance> = <answer>"))
    }

    @Test func anIncompleteTableIsRefusedWithItsGap() throws {
        let path = Fixtures.resources.localesDirectory.appendingPathComponent("en.yaml")
        let yaml = try String(contentsOf: path, encoding: .utf8).replacingOccurrences(of: "  bedtime:", with: "  bedtimes:")
        #expect(throws: LocaleTableError.incomplete(file: "test", missing: "tags.bedtime")) {
            try LocaleTable.parse(yaml: yaml, file: "test")
        }
    }

    @Test func malformedYAMLIsAnError() {
        #expect(throws: LocaleTableError.self) { try LocaleTable.parse(yaml: "id: [unclosed", file: "x") }
    }
}
