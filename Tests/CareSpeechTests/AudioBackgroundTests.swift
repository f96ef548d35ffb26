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
        let line = NoiseMixer.mix(AudioBandTests.telephone(speech), noise: .pink, snr: 10, seed: 5)
        #expect(AudioBackground.of(line) == .noisy)
        #expect(AudioConditions.of(Resampler.resample(line, to: 8000)) == AudioConditions(band: .narrow, background: .quiet))
    }
}
