import CareLanguage
import CareSpeech
import Foundation
import Testing
@testable import CareAssistant

@Suite struct ConfirmedSpeechTests {
    private func record(_ utterances: Int, _ source: AdaptedVoice.Source?, confirmed: Int? = nil) -> AdaptedVoice.Record {
        AdaptedVoice.Record(method: .map, enrolled: Date(), utterances: utterances, seconds: 20, source: source,
                            confirmedUtterances: confirmed)
    }

    /// The voice is first learned from 12 confirmed readings, then again each time 6 more were
    /// kept. A voice learned from enrollment phrases kept with it is learned again with them once
    /// 6 more readings were kept than it learned from; one enrolled before its phrases were kept
    /// (or in a record from before sources were kept) is never replaced by one learned from
    /// readings alone.
    @Test func theVoiceIsLearnedAgainFromEnoughNewReadings() {
        #expect(!ConfirmedSpeech.shouldLearn(kept: 11, stored: nil, phrases: 0))
        #expect(ConfirmedSpeech.shouldLearn(kept: 12, stored: nil, phrases: 0))
        #expect(!ConfirmedSpeech.shouldLearn(kept: 17, stored: record(12, .confirmedSpeech), phrases: 0))
        #expect(ConfirmedSpeech.shouldLearn(kept: 18, stored: record(12, .confirmedSpeech), phrases: 0))
        #expect(!ConfirmedSpeech.shouldLearn(kept: 5, stored: record(20, .enrollment), phrases: 20))
        #expect(ConfirmedSpeech.shouldLearn(kept: 6, stored: record(20, .enrollment), phrases: 20))
        #expect(!ConfirmedSpeech.shouldLearn(kept: 11, stored: record(26, .enrollment, confirmed: 6), phrases: 20))
        #expect(ConfirmedSpeech.shouldLearn(kept: 12, stored: record(26, .enrollment, confirmed: 6), phrases: 20))
        #expect(!ConfirmedSpeech.shouldLearn(kept: 40, stored: record(20, .enrollment), phrases: 0))
        #expect(!ConfirmedSpeech.shouldLearn(kept: 40, stored: record(20, nil), phrases: 0))
    }

    /// How many confirmed readings a stored voice learned from: all of a voice learned from
    /// them alone, those counted beside enrollment phrases, none of an enrolled voice.
    @Test func aRecordTellsHowManyConfirmedReadingsItLearnedFrom() {
        #expect(record(12, .confirmedSpeech).confirmedCount == 12)
        #expect(record(26, .enrollment, confirmed: 6).confirmedCount == 6)
        #expect(record(20, .enrollment).confirmedCount == 0)
        #expect(record(20, nil).confirmedCount == 0)
    }

    /// A reading heard as a guess (its fit below `SpeechAcceptance.confidentFit`), or with no fit
    /// measured, is not kept even when confirmed: a yes can follow a wrong read-back.
    @Test func aReadingHeardAsAGuessIsNotKept() {
        #expect(ConfirmedSpeech.keeps(fit: SpeechAcceptance.confidentFit))
        #expect(ConfirmedSpeech.keeps(fit: 3))
        #expect(!ConfirmedSpeech.keeps(fit: SpeechAcceptance.confidentFit - 0.1))
        #expect(!ConfirmedSpeech.keeps(fit: nil))
    }

    /// A reading saved as heard keeps the words heard; one whose number the person corrected keeps
    /// them with the number said as saved; one changed in more than its number, or whose words
    /// hold two numbers, or said in Chinese, keeps none.
    @Test func aCorrectedReadingIsKeptWithItsNumberAsSaved() {
        let numbers = NumberWords(english.numbers), chineseNumbers = NumberWords(chinese.numbers)
        func said(_ heard: String, _ heardAs: GlucoseDraft, savedAs saved: GlucoseDraft, _ numbers: NumberWords) -> String? {
            ConfirmedSpeech.wordsSaid(heard: heard, heardAs: heardAs, saved: saved, numbers: numbers)?.joined(separator: " ")
        }
        let eightFive = GlucoseDraft(number: "8.5", tag: .beforeBreakfast)
        let sixFive = GlucoseDraft(number: "6.5", tag: .beforeBreakfast)
        #expect(said("Glucose eight point five before breakfast", eightFive, savedAs: eightFive, numbers)
                == "glucose eight point five before breakfast")
        #expect(said("glucose eight point five before breakfast", eightFive, savedAs: sixFive, numbers)
                == "glucose six point five before breakfast")
        #expect(said("my sugar was one hundred twenty", GlucoseDraft(number: "120"), savedAs: GlucoseDraft(number: "7"), numbers)
                == "my sugar was seven")
        // The meal was corrected too: what was said of it is not known.
        #expect(said("glucose eight point five before breakfast", eightFive,
                     savedAs: GlucoseDraft(number: "6.5", tag: .afterBreakfast), numbers) == nil)
        let atEleven = GlucoseDraft(number: "18", time: TimeExpression(day: .today, hour: 23, minute: 40))
        var corrected = atEleven
        corrected.number = "8"
        #expect(said("tonight at eleven forty glucose was eighteen", atEleven, savedAs: atEleven, numbers)
                == "tonight at eleven forty glucose was eighteen")
        #expect(said("tonight at eleven forty glucose was eighteen", atEleven, savedAs: corrected, numbers) == nil)
        #expect(said("血糖 八 点 五", GlucoseDraft(number: "8.5"), savedAs: GlucoseDraft(number: "8.5"), chineseNumbers) == "血糖 八 点 五")
        #expect(said("血糖 八 点 五", GlucoseDraft(number: "8.5"), savedAs: GlucoseDraft(number: "6.5"), chineseNumbers) == nil)
    }

    /// Each recording comes back with its words, oldest first; beyond `kept` the oldest go; forget
    /// takes them all and says whether there were any.
    @Test func recordingsAreKeptWithTheirWordsUpToTheLatestForty() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-confirmed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let speech = KeptSpeech(directory: dir, limit: ConfirmedSpeech.kept)
        #expect(speech.count == 0 && speech.recordings().isEmpty)
        for n in 1...(ConfirmedSpeech.kept + 2) {
            try speech.keep(PCMAudio(samples: [Int16](repeating: Int16(n), count: 160), sampleRate: 16000),
                            words: ["glucose", "\(n)"])
        }
        let kept = speech.recordings()
        #expect(kept.count == ConfirmedSpeech.kept)
        #expect(kept.first?.words == ["glucose", "3"] && kept.last?.words == ["glucose", "42"])
        #expect(kept.first?.audio == PCMAudio(samples: [Int16](repeating: 3, count: 160), sampleRate: 16000))
        // Nothing to keep: no audio, or no words.
        try speech.keep(PCMAudio(samples: [], sampleRate: 16000), words: ["glucose"])
        try speech.keep(PCMAudio(samples: [1], sampleRate: 16000), words: [])
        #expect(speech.recordings().last?.words == ["glucose", "42"])
        #expect(try speech.forget())
        #expect(speech.count == 0)
        #expect(try !speech.forget())
    }
}
