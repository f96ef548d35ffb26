import Foundation
import Testing
@testable import CareSpeech

@Suite struct SynthesizerTests {
    @Test(arguments: ["en-us", "en-gb", "en-us+f3", "en-gb-x-rp"])
    func producesAudibleSpeechAt22050(voice: String) throws {
        let synthesizer = try SpeechSynthesizer.shared()
        #expect(synthesizer.sampleRate == 22050)
        let audio = try synthesizer.synthesize("glucose six point five", voice: voice)
        #expect(audio.sampleRate == 22050)
        #expect(audio.duration > 0.8 && audio.duration < 4, "duration \(audio.duration)")
        #expect(audio.rmsDBFS > -35, "level \(audio.rmsDBFS) dBFS")
        #expect(audio.samples.map { abs(Int($0)) }.max()! > 3000)
    }

    @Test func voicesSoundDifferent() throws {
        let s = try SpeechSynthesizer.shared()
        let us = try s.synthesize("glucose six point five", voice: "en-us")
        let female = try s.synthesize("glucose six point five", voice: "en-us+f3")
        let pitchUS = TestAudio.medianPitch(us), pitchF3 = TestAudio.medianPitch(female)
        #expect(pitchUS > 70 && pitchUS < 160, "en-us pitch \(pitchUS) Hz")
        #expect(pitchF3 > pitchUS * 1.3, "en-us+f3 pitch \(pitchF3) Hz vs en-us \(pitchUS) Hz")
        // The same request again, after other voices: nearly the same (espeak-ng output is not
        // bit-identical from call to call; under parallel tests durations have varied by ~55 ms).
        let again = try s.synthesize("glucose six point five", voice: "en-us")
        #expect(abs(again.duration - us.duration) < 0.1 * us.duration, "\(again.duration) vs \(us.duration)")
        #expect(abs(TestAudio.medianPitch(again) - pitchUS) < 5)
    }

    @Test func rateAndVolumeAreApplied() throws {
        let s = try SpeechSynthesizer.shared()
        let slow = try s.synthesize("glucose six point five before breakfast", rate: 110)
        let fast = try s.synthesize("glucose six point five before breakfast", rate: 300)
        #expect(fast.duration < slow.duration * 0.6, "fast \(fast.duration) s, slow \(slow.duration) s")
        let quiet = try s.synthesize("glucose", volume: 30)
        let loud = try s.synthesize("glucose", volume: 180)
        #expect(loud.rmsDBFS > quiet.rmsDBFS + 8, "quiet \(quiet.rmsDBFS), loud \(loud.rmsDBFS)")
    }

    @Test func unknownVoiceThrows() throws {
        let s = try SpeechSynthesizer.shared()
        #expect(throws: SpeechError.self) { try s.synthesize("hello", voice: "xx-no-such-voice") }
        // and the synthesizer still works afterwards
        #expect(try s.synthesize("hello").samples.count > 1000)
    }

    @Test func listsEnglishVoicesThatWork() throws {
        let voices = SpeechSynthesizer.availableVoices(language: "en")
        #expect(voices.contains("en-us") && voices.contains("en-gb") && voices.contains("en-gb-x-rp"))
        #expect(!voices.contains { !$0.hasPrefix("en") })
        for voice in voices {
            #expect(try SpeechSynthesizer.shared().synthesize("one", voice: voice).rmsDBFS > -40, "\(voice)")
        }
    }

    @Test func concurrentCallersTakeTurns() async throws {
        let expected = try SpeechSynthesizer.shared().synthesize("six point five", voice: "en-gb", rate: 120)
        let results = try await withThrowingTaskGroup(of: PCMAudio.self) { group in
            for i in 0..<6 {
                group.addTask {
                    // Interleave other settings so that a missing lock would mix them up.
                    _ = try SpeechSynthesizer.shared().synthesize("seven", voice: i % 2 == 0 ? "en-us+f3" : "en-us", rate: 400)
                    return try SpeechSynthesizer.shared().synthesize("six point five", voice: "en-gb", rate: 120)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 6)
        for audio in results {
            // Rate 400 leaking in would make it less than half as long.
            #expect(abs(audio.duration - expected.duration) < 0.1 * expected.duration, "\(audio.duration) s vs \(expected.duration) s")
        }
    }

    /// A reply can start playing before the rest of it is made: the sound comes in pieces of
    /// espeak-ng's 60 ms buffer, not as one.
    @Test func soundIsHandedOverPieceByPiece() throws {
        let s = try SpeechSynthesizer.shared()
        var pieces: [Int] = []
        try s.synthesize("six point five millimoles per litre, before breakfast. Shall I save it?") { pieces.append($0.count) }
        let seconds = Double(pieces.reduce(0, +)) / Double(s.sampleRate)
        #expect(seconds > 2, "\(seconds) s")
        #expect(pieces.count >= 30, "\(pieces.count) pieces")
        #expect(pieces.allSatisfy { $0 <= s.sampleRate * 6 / 100 }, "\(pieces.max() ?? 0) samples in a piece")
    }

    /// A piece that cannot be taken (a speaker gone) stops the synthesis, and says why.
    @Test func aPieceThatFailsStopsTheSynthesis() throws {
        struct Unplugged: Error {}
        let s = try SpeechSynthesizer.shared()
        var taken = 0
        #expect(throws: Unplugged.self) {
            try s.synthesize("six point five millimoles per litre, before breakfast") { piece in
                if !piece.isEmpty { taken += 1 }
                throw Unplugged()
            }
        }
        #expect(taken == 1)
        #expect(try s.synthesize("yes").samples.count > 1000)   // and it goes on working
    }

    @Test func synthesisIsFasterThanRealTime() throws {
        let s = try SpeechSynthesizer.shared()
        let text = "Your glucose reading of six point five millimoles per litre before breakfast has been saved."
        let start = Date()
        let audio = try s.synthesize(text)
        let elapsed = Date().timeIntervalSince(start)
        print("espeak-ng: \(String(format: "%.2f", audio.duration)) s of speech in \(String(format: "%.3f", elapsed)) s (\(Int(audio.duration / elapsed))x real time)")
        #expect(elapsed < audio.duration)
    }
}
