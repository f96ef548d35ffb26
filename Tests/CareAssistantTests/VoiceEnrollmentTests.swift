import CareModel
import Foundation
import Testing
@testable import CareAssistant
import CareLanguage

@Suite struct VoiceEnrollmentTests {
    static func item(_ expected: String, line: Int, kind: CorpusItem.Kind = .digit, text: String? = nil) -> CorpusItem {
        CorpusItem(file: URL(fileURLWithPath: "/x/\(line).wav"), kind: kind, expected: expected, line: line, text: text)
    }

    /// Learned from as in use: only what was heard right, as one utterance, never an unrelated
    /// sentence (right because nothing was taken), with the words heard rather than the words
    /// the corpus says were said; each expected value in turn.
    @Test func aVoiceIsLearnedInUseFromWhatWasHeardRightWithTheWordsHeard() {
        let decoded: [(item: CorpusItem, heard: [String], right: Bool)] = [
            (Self.item("6.5 mmol/L", line: 2, kind: .reading, text: "glucose six point five"), ["glucose eight point five"], false),
            (Self.item("-", line: 3, kind: .reject, text: "the kettle has boiled"), [""], true),
            (Self.item("7", line: 4, text: "seven"), ["seven", "seven"], true),
            (Self.item("7", line: 5, text: "seven"), ["seven"], true),
            (Self.item("7", line: 6, text: "seven"), ["seven"], true),
            (Self.item("120 mg/dL", line: 7, kind: .reading, text: "my sugar is one hundred twenty"), ["sugar one hundred twenty"], true),
        ]
        let learning = VoiceEnrollment.heardRight(decoded, count: 2)
        #expect(learning.map(\.line) == [5, 7])
        #expect(learning.map(\.text) == ["seven", "sugar one hundred twenty"])
        #expect(VoiceEnrollment.heardRight(decoded, count: 9).map(\.line) == [5, 7, 6])

        // A reading the person corrected comes with the words it is given, in its place.
        let corrected = VoiceEnrollment.heardRight(decoded, count: 9) { item, heard in
            item.line == 2 ? ["glucose", "six", "point", "five"] : nil
        }
        #expect(corrected.map(\.line) == [2, 5, 7, 6])
        #expect(corrected.first?.text == "glucose six point five")
    }

    /// FSDD lists a speaker's takes digit by digit: twenty must be two of each digit.
    /// A take is clear above the floor, and, once two takes are clear, not far below their
    /// median: a voice the general model fits badly is still taken, other words are not.
    @Test func aTakeFarBelowThePersonsOtherTakesIsUnclear() {
        let floor = VoiceEnrollment.minimumFit, drop = VoiceEnrollment.largestDropBelowTheVoice
        #expect(VoiceEnrollment.isClear(fit: floor, afterClearFits: []))
        #expect(!VoiceEnrollment.isClear(fit: floor - 1, afterClearFits: []))
        #expect(VoiceEnrollment.isClear(fit: -42, afterClearFits: [11]), "one take is no measure of a voice")
        #expect(!VoiceEnrollment.isClear(fit: -42, afterClearFits: [11, 22]))
        #expect(VoiceEnrollment.isClear(fit: 16.5 - drop, afterClearFits: [11, 22]))
        // A voice that fits badly throughout: judged against itself, and the floor still holds.
        #expect(VoiceEnrollment.isClear(fit: -55, afterClearFits: [-36, -44, -30]))
        #expect(!VoiceEnrollment.isClear(fit: -58, afterClearFits: [-20, -25, -24]))
        #expect(!VoiceEnrollment.isClear(fit: floor - 1, afterClearFits: [-50, -52]))
    }

    @Test func aSelectionTakesEachExpectedValueInTurn() {
        let items = (0...9).flatMap { digit in (0...9).map { take in Self.item(String(digit), line: digit * 10 + take) } }
        let chosen = VoiceEnrollment.balancedSelection(items, count: 20)
        #expect(chosen.count == 20)
        #expect(Dictionary(grouping: chosen, by: \.expected).mapValues(\.count) == Dictionary(uniqueKeysWithValues: (0...9).map { (String($0), 2) }))
        #expect(chosen.prefix(3).map(\.line) == [0, 10, 20], "the first take of each digit comes first")
        #expect(VoiceEnrollment.balancedSelection(Array(items.prefix(3)), count: 20).count == 3, "no more than there is")
    }

    /// A speaker's enrollment phrases are learned from when there are any, and never tested;
    /// without them, `count` of the other recordings are, and the rest tested.
    @Test func aSpeakerIsLearnedFromTheEnrollmentPhrasesElseAFewRecordings() {
        let digits = (0..<12).map { Self.item(String($0 % 6), line: $0) }
        let phrases = (20..<23).map { Self.item("-", line: $0, kind: .enroll, text: "one two") }
        let withPhrases = VoiceEnrollment.split(digits + phrases, count: 5)
        #expect(withPhrases.learning.map(\.line) == [20, 21, 22] && withPhrases.testing.map(\.line) == Array(0..<12))
        let without = VoiceEnrollment.split(digits, count: 5)
        #expect(without.learning.map(\.line) == [0, 1, 2, 3, 4])
        #expect(without.testing.map(\.line) == Array(5..<12))
    }

    @Test func theWordsOfARecordingComeFromItsTextOrItsDigit() {
        let table = english
        #expect(VoiceEnrollment.words(for: Self.item("7", line: 1), table: table) == ["seven"])
        #expect(VoiceEnrollment.words(for: Self.item("0", line: 1), table: table) == ["zero"])
        #expect(VoiceEnrollment.words(for: Self.item("yes", line: 1, kind: .command), table: table) == ["yes"])
        #expect(VoiceEnrollment.words(for: Self.item("6.5 mmol/L", line: 1, kind: .reading), table: table) == nil,
                "a reading's expected value is not what was said")
        #expect(VoiceEnrollment.words(for: Self.item("6.5 mmol/L", line: 1, kind: .reading, text: "Six point  five"), table: table)
                == ["six", "point", "five"])
    }

    @Test func theLocaleAsksForAboutTwoMinutesOfWhatMattersMost() {
        let prompts = VoiceEnrollment.prompts(english)
        #expect((15...30).contains(prompts.count))
        let words = Set(prompts.joined())
        for needed in ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "point",
                       "yes", "no", "help", "emergency", "before", "after", "breakfast", "dinner"] {
            #expect(words.contains(needed), "no prompt says \(needed)")
        }
    }
}
