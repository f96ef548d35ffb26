import CareTestSupport
import Foundation
import Testing
@testable import CareSpeech

/// Telling telephone-band audio (nothing above 4 kHz) from full-band audio, which decides the
/// acoustic means the recognizer hears it with.
@Suite struct AudioBandTests {
    /// White noise at 16 kHz, about -20 dBFS.
    static func whiteNoise(seconds: Double = 1) -> PCMAudio {
        let samples = NoiseMixer.noise(.white, count: Int(seconds * 16000), seed: 3).map { Int16(($0 * 3000).rounded()) }
        return PCMAudio(samples: samples, sampleRate: 16000)
    }

    /// Audio as it comes out of a telephone line resampled back up: through 8 kHz and back.
    static func telephone(_ audio: PCMAudio, to rate: Int = 16000) -> PCMAudio {
        Resampler.resample(Resampler.resample(audio, to: 8000), to: rate)
    }

    @Test func fullBandNoiseIsWideAndTheSameThroughATelephoneIsNarrow() throws {
        let noise = Self.whiteNoise()
        // White noise has 3.4 of its 8 kHz above 4.6 kHz: -3.7 dB.
        let share = try #require(AudioBand.highBandShare(noise))
        #expect(abs(share - 10 * log10(3.4 / 8)) < 0.5, "\(share)")
        #expect(AudioBand.of(noise) == .wide)
        let line = Self.telephone(noise)
        #expect(try #require(AudioBand.highBandShare(line)) < -60)
        #expect(AudioBand.of(line) == .narrow)
    }

    @Test func aRecordingMadeAt8kHzIsNarrowWhateverItHolds() {
        let noise = PCMAudio(samples: Self.whiteNoise().samples, sampleRate: 8000)
        #expect(AudioBand.of(noise) == .narrow)
    }

    /// Speech, not noise: espeak-ng at its own 22.05 kHz has its fricatives above 4.6 kHz; the same
    /// sentence through a telephone band has none, resampled up to 16 or 22.05 kHz alike.
    @Test func speechAtFullBandIsWideAndOverATelephoneNarrow() throws {
        let speech = try SpokenFixtures.say("glucose six point five before breakfast")
        #expect(speech.sampleRate == 22050)
        let full = try #require(AudioBand.highBandShare(speech))
        #expect(full > AudioBand.narrowBelowDB + 10, "\(full)")
        #expect(AudioBand.of(speech) == .wide)
        for rate in [16000, 22050] {
            let line = Self.telephone(speech, to: rate)
            let share = try #require(AudioBand.highBandShare(line))
            #expect(share < AudioBand.narrowBelowDB - 10, "\(rate) Hz: \(share)")
            #expect(AudioBand.of(line) == .narrow)
        }
    }

    /// Some recorders add a constant offset; its edges are no sound above 4 kHz.
    @Test func aConstantOffsetIsNotHighSound() throws {
        var line = Self.telephone(try SpokenFixtures.say("seven"))
        line.samples = line.samples.map { $0 &+ 2000 }
        #expect(AudioBand.of(line) == .narrow)
    }

    /// A real person over 8 kHz, resampled to 16 kHz as a program might hand it over.
    @Test func aRealTelephoneBandRecordingResampledUpIsStillNarrow() throws {
        let recording = try WAVFile.read(Corpora.fsdd(6, "jackson", take: 0))
        let up = Resampler.resample(recording, to: 16000)
        #expect(try #require(AudioBand.highBandShare(up)) < AudioBand.narrowBelowDB)
        #expect(AudioBand.of(up) == .narrow)
    }

    @Test func silenceIsWideForThereIsNothingToDecideOn() {
        let silence = PCMAudio.silence(seconds: 1, sampleRate: 16000)
        #expect(AudioBand.highBandShare(silence) == nil)
        #expect(AudioBand.of(silence) == .wide)
        #expect(AudioBand.highBandShare(PCMAudio(samples: [1, 2, 3], sampleRate: 16000)) == nil)
    }
}
