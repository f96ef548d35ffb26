import CareSpeech
import Foundation
import Testing
@testable import CareAssistant

@Suite struct ConfirmedSpeechTests {
    private func record(_ utterances: Int, _ source: AdaptedVoice.Source?) -> AdaptedVoice.Record {
        AdaptedVoice.Record(method: .map, enrolled: Date(), utterances: utterances, seconds: 20, source: source)
    }

    /// The voice is first learned from 12 confirmed readings, then again each time 6 more were
    /// kept; a voice learned from the enrollment phrases (or in a record from before sources were
    /// kept) is never replaced by one learned from readings.
    @Test func theVoiceIsLearnedFromEnoughNewReadingsUnlessItWasEnrolled() {
        #expect(!ConfirmedSpeech.shouldLearn(kept: 11, stored: nil))
        #expect(ConfirmedSpeech.shouldLearn(kept: 12, stored: nil))
        #expect(!ConfirmedSpeech.shouldLearn(kept: 17, stored: record(12, .confirmedSpeech)))
        #expect(ConfirmedSpeech.shouldLearn(kept: 18, stored: record(12, .confirmedSpeech)))
        #expect(!ConfirmedSpeech.shouldLearn(kept: 40, stored: record(20, .enrollment)))
        #expect(!ConfirmedSpeech.shouldLearn(kept: 40, stored: record(20, nil)))
    }

    /// A reading heard as a guess (its fit below `SpeechAcceptance.confidentFit`), or with no fit
    /// measured, is not kept even when confirmed: a yes can follow a wrong read-back.
    @Test func aReadingHeardAsAGuessIsNotKept() {
        #expect(ConfirmedSpeech.keeps(fit: SpeechAcceptance.confidentFit))
        #expect(ConfirmedSpeech.keeps(fit: 3))
        #expect(!ConfirmedSpeech.keeps(fit: SpeechAcceptance.confidentFit - 0.1))
        #expect(!ConfirmedSpeech.keeps(fit: nil))
    }

    /// Each recording comes back with its words, oldest first; beyond `kept` the oldest go; forget
    /// takes them all and says whether there were any.
    @Test func recordingsAreKeptWithTheirWordsUpToTheLatestForty() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-confirmed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let speech = ConfirmedSpeech(directory: dir)
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
