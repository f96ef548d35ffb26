import CareModel
import Foundation
import Testing
@testable import CareSpeech

@Suite struct NoiseMixerTests {
    /// One second of a 300 Hz tone between two seconds of silence, at 16 kHz.
    static let toneInSilence: PCMAudio = {
        let rate = 16000
        let tone = (0..<rate).map { Int16(8000 * sin(2 * Double.pi * 300 * Double($0) / Double(rate))) }
        return PCMAudio(samples: [Int16](repeating: 0, count: rate) + tone + [Int16](repeating: 0, count: rate), sampleRate: rate)
    }()

    @Test(arguments: NoiseColor.allCases, [0.0, 10.0, 20.0])
    func theSNRIsMeasuredOverSpeechFramesOnly(_ color: NoiseColor, _ snr: Double) throws {
        let clean = Self.toneInSilence
        let mixed = NoiseMixer.mix(clean, noise: color, snr: snr, seed: 3)
        let noisePower = zip(mixed.samples, clean.samples).map { Double($0) - Double($1) }.reduce(0) { $0 + $1 * $1 }
            / Double(clean.samples.count)
        let speechPower = 8000.0 * 8000.0 / 2   // the tone's mean square; the silence does not count
        #expect(abs(10 * log10(speechPower / noisePower) - snr) < 0.3)
        // The same seed gives the same noise.
        #expect(NoiseMixer.mix(clean, noise: color, snr: snr, seed: 3) == mixed)
    }

    /// Pink noise has its power in the low frequencies: neighbouring samples are alike.
    @Test func pinkNoiseIsLowHeavyAndWhiteIsNot() {
        func lagOneCorrelation(_ x: [Double]) -> Double {
            zip(x, x.dropFirst()).map { $0 * $1 }.reduce(0, +) / x.map { $0 * $0 }.reduce(0, +)
        }
        #expect(lagOneCorrelation(NoiseMixer.noise(.pink, count: 48000, seed: 1)) > 0.5)
        #expect(abs(lagOneCorrelation(NoiseMixer.noise(.white, count: 48000, seed: 1))) < 0.05)
    }

    /// A background that was there before the words: the noise alone before and after, at the
    /// level the words alone decide.
    @Test func theNoiseCanBeHeardAloneAroundTheAudio() throws {
        let clean = Self.toneInSilence
        let within = NoiseMixer.mix(clean, noise: .white, snr: 10, seed: 3)
        let around = NoiseMixer.mix(clean, noise: .white, snr: 10, seed: 3, around: 0.5)
        let pause = clean.sampleRate / 2
        #expect(around.samples.count == clean.samples.count + 2 * pause)
        func power(_ samples: ArraySlice<Int16>) -> Double { samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count) }
        let noiseAlone = power(around.samples[..<pause]), noiseWithin = power(within.samples[...]) - power(clean.samples[...])
        #expect(abs(10 * log10(noiseAlone / noiseWithin)) < 0.5, "the noise before: \(noiseAlone), within: \(noiseWithin)")
        #expect(power(around.samples[(around.samples.count - pause)...]) > noiseAlone / 2, "and after")
    }

    @Test func silenceStaysSilent() {
        let silence = PCMAudio.silence(seconds: 1, sampleRate: 16000)
        #expect(NoiseMixer.mix(silence, noise: .white, snr: 10) == silence)
    }
}
