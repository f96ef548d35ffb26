import CareTestSupport
import Foundation
import Testing
@testable import CareSpeech

/// Telling speech in noise from speech in a quiet room, which decides whether the recognizer
/// takes the noise out before it hears.
@Suite struct AudioBackgroundTests {
    static let sentence = "glucose six point five before breakfast"

    @Test func speechInPinkNoiseIsNoisyAtTenDecibelsAndQuietAtForty() throws {
        let speech = try SpokenFixtures.say(Self.sentence)
        let atTen = NoiseMixer.mix(speech, noise: .pink, snr: 10, seed: 5)
        let ten = try #require(AudioBackground.signalToNoise(atTen))
        // Speech frames hold speech and noise, the quietest ones mostly noise.
        #expect(ten > 7 && ten < 14, "\(ten)")
        #expect(AudioBackground.of(atTen) == .noisy)
        let atForty = NoiseMixer.mix(speech, noise: .pink, snr: 40, seed: 5)
        #expect(try #require(AudioBackground.signalToNoise(atForty)) > AudioBackground.noisyBelowDB + 3)
        #expect(AudioBackground.of(atForty) == .quiet)
    }

    /// A sentence said without a pause has no frame of background: its quietest frames are its
    /// own quiet sounds, some 26 dB under the rest, which is quiet still.
    @Test func aSentenceWithoutPausesIsQuiet() throws {
        let speech = try SpokenFixtures.say(Self.sentence)
        #expect(try #require(AudioBackground.signalToNoise(speech)) > AudioBackground.noisyBelowDB + 3)
        #expect(AudioBackground.of(speech) == .quiet)
    }

    /// A word alone has no frame around it to measure: its quietest frames are its own, and it
    /// would measure as noisy said in silence. It is not judged, in noise or not.
    @Test func aWordAloneIsNotJudged() throws {
        let word = try SpokenFixtures.say("seven")
        #expect(word.duration < AudioBackground.shortestMeasured)
        for audio in [word, NoiseMixer.mix(word, noise: .pink, snr: 10, seed: 5)] {
            #expect(AudioBackground.signalToNoise(audio) == nil)
            #expect(AudioBackground.of(audio) == .quiet)
        }
    }

    /// Digital silence (edited or synthesized audio) is no background at all.
    @Test func digitalSilenceAndNoSoundAreQuiet() throws {
        let speech = try SpokenFixtures.say(Self.sentence)
        let second = [Int16](repeating: 0, count: speech.sampleRate)
        let padded = PCMAudio(samples: second + speech.samples + second, sampleRate: speech.sampleRate)
        #expect(AudioBackground.signalToNoise(padded) == nil)
        #expect(AudioBackground.of(padded) == .quiet)
        #expect(AudioBackground.of(PCMAudio(samples: second, sampleRate: speech.sampleRate)) == .quiet)
        #expect(AudioBackground.of(PCMAudio(samples: [], sampleRate: 16000)) == .quiet)
    }

    @Test func onlyNoisyAudioHasTheNoiseTakenOut() {
        #expect(AudioBackground.noisy.decoderOptions["-remove_noise"] == "yes")
        #expect(AudioBackground.quiet.decoderOptions["-remove_noise"] == "no")
    }

    /// Telephone-band speech is heard with the narrowband means, where taking noise out did not
    /// help: it is heard as quiet whatever is under it.
    @Test func telephoneBandAudioIsHeardAsQuietInNoise() throws {
        let speech = try SpokenFixtures.say(Self.sentence)
        let wide = AudioConditions.of(NoiseMixer.mix(speech, noise: .pink, snr: 10, seed: 5))
        #expect(wide == AudioConditions(band: .wide, background: .noisy))
        let heardAsNarrow = AudioConditions.of(NoiseMixer.mix(speech, noise: .pink, snr: 10, seed: 5), heardAs: .narrow)
        #expect(heardAsNarrow == AudioConditions(band: .narrow, background: .quiet))
        let line = NoiseMixer.mix(AudioBandTests.telephone(speech), noise: .pink, snr: 10, seed: 5)
        #expect(AudioBackground.of(line) == .noisy)
        #expect(AudioConditions.of(Resampler.resample(line, to: 8000)) == AudioConditions(band: .narrow, background: .quiet))
    }

    /// A stream heard as getting noisy or quiet again: a recognizer for that room, except that
    /// telephone-band audio stays quiet (none is made for it in noise).
    @Test func aRoomThatChangesIsHeardSoExceptOnTheTelephone() {
        let microphone = AudioConditions()
        #expect(microphone.over(.noisy) == AudioConditions(band: .wide, background: .noisy))
        #expect(AudioConditions(band: .wide, background: .noisy).over(.quiet) == microphone)
        let telephone = AudioConditions(band: .narrow)
        #expect(telephone.over(.noisy) == nil)
        #expect(telephone.over(.quiet) == telephone)
    }

    /// A recording heard from its start is padded with its own room where it has it at its
    /// edges (`SpeechRecognizer.padding(count:at:of:)`): the stretch there mirrored, so that the
    /// noise does not step in from silence or drop into it. One that starts with its words, or
    /// with digital silence, is padded with silence (which the floor fills), as before.
    @Test func aRecordingInItsRoomIsPaddedWithTheRoom() throws {
        let speech = try SpokenFixtures.say(Self.sentence)
        let count = speech.sampleRate / 4
        let silence = [Int16](repeating: 0, count: count)
        let inNoise = NoiseMixer.mix(speech, noise: .pink, snr: 10, seed: 5, around: 1)
        let lead = SpeechRecognizer.padding(count: count, at: .start, of: inNoise)
        let tail = SpeechRecognizer.padding(count: count, at: .end, of: inNoise)
        #expect(lead == Array(inNoise.samples.prefix(count).reversed()))
        #expect(tail == Array(inNoise.samples.suffix(count).reversed()))
        // Continuous at the edges: the mirror meets the recording on its own sample.
        #expect(lead.last == inNoise.samples.first && tail.first == inNoise.samples.last)

        let words = try #require(speech.samples.firstIndex { abs($0) > 1000 })
        let cut = PCMAudio(samples: Array(speech.samples[words...]), sampleRate: speech.sampleRate)
        #expect(SpeechRecognizer.padding(count: count, at: .start, of: NoiseMixer.mix(cut, noise: .pink, snr: 30, seed: 5)) == silence)
        let digitalSilence = PCMAudio(samples: silence + speech.samples + silence, sampleRate: speech.sampleRate)
        #expect(SpeechRecognizer.padding(count: count, at: .start, of: digitalSilence) == silence)
        #expect(SpeechRecognizer.padding(count: count, at: .end, of: digitalSilence) == silence)
        // Words a moment after the recording starts are not mirrored into its lead-in either.
        let shortOpening = PCMAudio(samples: Array(inNoise.samples[(inNoise.sampleRate + words - count / 2)...]), sampleRate: speech.sampleRate)
        #expect(SpeechRecognizer.padding(count: count, at: .start, of: shortOpening) == silence)
    }
}

/// A microphone's background, measured between utterances as the stream goes on.
@Suite struct StreamBackgroundTests {
    @Test func aStreamTurnsNoisyBelowTheLineAndQuietOnlyWellAboveIt() {
        #expect(AudioBackground.quiet.following(AudioBackground.noisyBelowDB - 1) == .noisy)
        #expect(AudioBackground.quiet.following(AudioBackground.noisyBelowDB + 1) == .quiet)
        // Between the two lines each stays as it was.
        let between = (AudioBackground.noisyBelowDB + AudioBackground.quietFromDB) / 2
        #expect(AudioBackground.noisy.following(between) == .noisy)
        #expect(AudioBackground.quiet.following(between) == .quiet)
        #expect(AudioBackground.noisy.following(AudioBackground.quietFromDB) == .quiet)
    }

    /// The median of the blocks heard outside speech: a word's start heard before the detector
    /// (a few loud blocks) does not move it; the last 3 s count, not the whole stream.
    @Test func theBackgroundIsTheMedianOfTheLastBlocksOutsideSpeech() throws {
        var level = BackgroundLevel()
        #expect(level.power == nil)
        func hear(_ value: Int16, times: Int) {
            let block = [Int16](repeating: value, count: 320)
            for _ in 0..<times { block.withUnsafeBufferPointer { level.hear($0) } }
        }
        hear(100, times: 40)
        hear(3000, times: 5)
        #expect(level.power == 10_000.0)
        hear(10, times: BackgroundLevel.blocks)
        #expect(level.power == 100.0, "older blocks are forgotten")
        // Speech at an RMS of 1000 over a background of 10: 40 dB.
        let speech = [Int16](repeating: 1000, count: 16000)
        let snr = try #require(level.signalToNoise(of: speech, sampleRate: 16000))
        #expect(abs(snr - 40) < 0.01, "\(snr)")
    }
}
