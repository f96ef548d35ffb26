import CareLanguage
import CareModel
import Foundation
import Testing
@testable import CareAssistant

/// The benchmark's manifest and its verdicts: the same parsers the dialog uses decide what a
/// transcript means.
@Suite struct RecognitionJudgeTests {
    let judge = RecognitionJudge(table: english, preferredUnit: .mmolPerL)
    let dir = URL(fileURLWithPath: "/corpus")

    @Test func aManifestIsReadByItsHeader() throws {
        let text = "kind\tfile\texpected\tspeaker\nreading\twav/a.wav\t6.5 mmol/L before-breakfast\tann\n\ndigit\t/data/b.wav\t0\tbob\n"
        let items = try CorpusManifest.parse(text, directory: dir)
        #expect(items == [
            CorpusItem(file: dir.appendingPathComponent("wav/a.wav"), kind: .reading, expected: "6.5 mmol/L before-breakfast",
                       line: 2, speaker: "ann"),
            CorpusItem(file: URL(fileURLWithPath: "/data/b.wav"), kind: .digit, expected: "0", line: 4, speaker: "bob"),
        ])
        // The Free Spoken Digit Dataset's names say who speaks.
        let fsdd = try CorpusManifest.parse("file\tkind\texpected\nwav/7_george_3.wav\tdigit\t7\nx.wav\tdigit\t1\n", directory: dir)
        #expect(fsdd.map(\.speaker) == ["george", nil])
    }

    @Test(arguments: [
        ("file\tkind\n", "line 1: no column named expected (columns: file, kind)"),
        ("file\tkind\texpected\na.wav\tsong\t-\n", "line 2: unknown kind song (one of digit, reading, command, reject, enroll)"),
        ("file\tkind\texpected\na.wav\treading\n", "line 2: expected 3 tab-separated columns, found 2"),
        ("file\tkind\texpected\na.wav\treading\t6.5 stones\n", "line 2: a reading expects VALUE UNIT [TAG] such as 6.5 mmol/L before-breakfast, not 6.5 stones"),
        ("file\tkind\texpected\na.wav\tdigit\t12\n", "line 2: a digit item expects 0-9, not 12"),
        ("file\tkind\texpected\na.wav\tcommand\tmaybe\n", "line 2: a command expects one of yes, no, help, emergency, cancel, repeat, back, not maybe"),
        ("", "the manifest is empty"),
    ])
    func aMalformedManifestSaysWhereAndWhy(_ text: String, _ message: String) {
        #expect(throws: ManifestError(description: message)) { try CorpusManifest.parse(text, directory: dir) }
    }

    /// A reading heard wrong only in its number is learned from as the person corrects it: the
    /// words heard, the number as expected. Wrong in more than that, or not one utterance, or
    /// not a reading: nothing.
    @Test func aReadingWrongOnlyInItsNumberIsLearnedFromAsCorrected() {
        func words(_ heard: [String], _ kind: CorpusItem.Kind = .reading, _ expected: String) -> String? {
            judge.correctedWords(heard: heard, kind: kind, expected: expected)?.joined(separator: " ")
        }
        #expect(words(["glucose eight point five before breakfast"], .reading, "6.5 mmol/L before-breakfast")
                == "glucose six point five before breakfast")
        #expect(words(["sugar one hundred forty"], .reading, "114 mg/dL") == "sugar one hundred fourteen")
        #expect(words(["glucose eight point five after breakfast"], .reading, "6.5 mmol/L before-breakfast") == nil)
        #expect(words(["glucose eight point five"], .reading, "6.5 mmol/L before-breakfast") == nil)
        #expect(words(["glucose eight point five", "before breakfast"], .reading, "6.5 mmol/L before-breakfast") == nil)
        #expect(words(["eight"], .digit, "6") == nil)
    }

    @Test func readingsMustMatchValueUnitAndTag() {
        #expect(judge.isRight(heard: ["glucose six point five before breakfast"], kind: .reading, expected: "6.5 mmol/L before-breakfast"))
        // No unit said: the setting's unit, or mg/dL where mmol/L is implausible.
        #expect(judge.isRight(heard: ["one hundred twenty"], kind: .reading, expected: "120 mg/dL"))
        #expect(!judge.isRight(heard: ["glucose six point five"], kind: .reading, expected: "6.5 mmol/L before-breakfast"))
        #expect(!judge.isRight(heard: ["glucose five point five before breakfast"], kind: .reading, expected: "6.5 mmol/L before-breakfast"))
        #expect(!judge.isRight(heard: ["glucose six point five milligrams per deciliter"], kind: .reading, expected: "6.5 mmol/L"))
        // Split in two, the assistant would act twice: wrong, even if one half is right.
        #expect(!judge.isRight(heard: ["glucose six point five", "yes"], kind: .reading, expected: "6.5 mmol/L"))
        #expect(judge.isRight(heard: ["", "glucose six point five", ""], kind: .reading, expected: "6.5 mmol/L"))
    }

    @Test func commandsDigitsAndRejections() {
        #expect(judge.isRight(heard: ["help me"], kind: .command, expected: "help"))
        #expect(judge.isRight(heard: ["call an ambulance"], kind: .command, expected: "emergency"))
        #expect(judge.isRight(heard: ["yes please"], kind: .command, expected: "yes"))
        #expect(!judge.isRight(heard: ["no"], kind: .command, expected: "yes"))
        #expect(judge.isRight(heard: ["go back"], kind: .command, expected: "back"))
        #expect(judge.context(for: .command, expected: "back") == .confirmation)
        #expect(judge.context(for: .command, expected: "yes") == .answer)
        #expect(judge.context(for: .digit, expected: "4") == .question(.contactPhone))
        #expect(judge.isRight(heard: ["oh"], kind: .digit, expected: "0"))
        #expect(!judge.isRight(heard: ["three oh"], kind: .digit, expected: "3"))
        // Rejected means nothing heard would be acted on.
        #expect(judge.isRight(heard: [], kind: .reject, expected: "-"))
        #expect(judge.isRight(heard: ["three cats"], kind: .reject, expected: "-"))
        #expect(!judge.isRight(heard: ["glucose three"], kind: .reject, expected: "-"))
        #expect(!judge.isRight(heard: ["", "yes"], kind: .reject, expected: "-"))
    }
}
