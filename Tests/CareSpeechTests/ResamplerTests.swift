import Foundation
import Testing
@testable import CareSpeech

@Suite struct ResamplerTests {
    static let toSixteen = [8000, 11025, 22050, 32000, 44100, 48000]

    @Test(arguments: toSixteen)
    func aSineKeepsItsFrequencyAmplitudeAndTheLengthRatio(rate: Int) {
        let input = TestAudio.sine(frequency: 1000, sampleRate: rate, seconds: 0.5, amplitude: 10000)
        let output = Resampler.resample(input, to: 16000)
        #expect(output.sampleRate == 16000)
        #expect(output.samples.count == Int((Double(input.samples.count) * 16000 / Double(rate)).rounded()))
        let middle = TestAudio.middle(output.samples)
        let f = TestAudio.frequency(middle, sampleRate: 16000)
        #expect(abs(f - 1000) < 1, "frequency \(f) Hz from \(rate) Hz")
        let rms = TestAudio.rms(middle)
        #expect(abs(rms - 10000 / 2.0.squareRoot()) < 0.01 * 10000, "rms \(rms) from \(rate) Hz")
    }

    @Test(arguments: [(16000, 8000), (16000, 22050), (22050, 44100), (44100, 48000)])
    func otherRatePairs(from: Int, to: Int) {
        let input = TestAudio.sine(frequency: 1000, sampleRate: from, seconds: 0.3, amplitude: 8000)
        let output = Resampler.resample(input, to: to)
        #expect(output.samples.count == Int((Double(input.samples.count) * Double(to) / Double(from)).rounded()))
        let middle = TestAudio.middle(output.samples)
        #expect(abs(TestAudio.frequency(middle, sampleRate: to) - 1000) < 1)
        #expect(abs(TestAudio.rms(middle) - 8000 / 2.0.squareRoot()) < 80)
    }

    /// Tones above the new Nyquist frequency must be filtered out, not folded into the speech band
    /// (12 kHz would alias to 4 kHz, 10 kHz to 6 kHz).
    @Test(arguments: [(48000, 12000.0), (44100, 10000.0), (22050, 9000.0)])
    func frequenciesAboveTheNewNyquistAreRemoved(rate: Int, frequency: Double) {
        let input = TestAudio.sine(frequency: frequency, sampleRate: rate, seconds: 0.5, amplitude: 20000)
        let output = Resampler.resample(input, to: 16000)
        let rms = TestAudio.rms(TestAudio.middle(output.samples))
        #expect(rms < 20000 / 2.0.squareRoot() * 0.001, "\(frequency) Hz leaks at rms \(rms)") // below -60 dB
    }

    @Test func identityAndEmpty() {
        let audio = TestAudio.sine(frequency: 440, sampleRate: 16000, seconds: 0.1, amplitude: 1000)
        #expect(Resampler.resample(audio, to: 16000) == audio)
        #expect(Resampler.resample(PCMAudio(samples: [], sampleRate: 8000), to: 16000) == PCMAudio(samples: [], sampleRate: 16000))
    }

    /// A voice made higher: every frequency times the factor, the length divided by it; 1 changes
    /// nothing.
    @Test(arguments: [0.92, 1.08, 1.25])
    func scalingFrequenciesMovesATone(factor: Double) {
        let input = TestAudio.sine(frequency: 1000, sampleRate: 16000, seconds: 0.5, amplitude: 10000)
        let output = Resampler.scaleFrequencies(of: input, by: factor)
        #expect(output.sampleRate == 16000)
        #expect(abs(Double(output.samples.count) - Double(input.samples.count) / factor) <= 1)
        let f = TestAudio.frequency(TestAudio.middle(output.samples), sampleRate: 16000)
        #expect(abs(f - 1000 * factor) < 1, "\(f) Hz at \(factor)")
        #expect(Resampler.scaleFrequencies(of: input, by: 1) == input)
    }

    /// A stream scaled chunk by chunk, in chunks of any size, gives the samples that scaling it
    /// whole gives, all but the last few (which wait for input that never comes); 1 passes it.
    @Test(arguments: [0.88, 1.08, 1.013])
    func aStreamIsScaledAsTheWholeIs(factor: Double) {
        var generator = SystemRandomNumberGenerator()
        let audio = TestAudio.sine(frequency: 700, sampleRate: 16000, seconds: 0.4, amplitude: 9000)
        let whole = Resampler.scaleFrequencies(of: audio, by: factor).samples
        var scaler = FrequencyScaler(factor: factor, sampleRate: 16000)
        var streamed: [Int16] = [], offset = 0
        while offset < audio.samples.count {
            let end = min(audio.samples.count, offset + Int.random(in: 1...400, using: &generator))
            streamed += scaler.process(Array(audio.samples[offset..<end]))
            offset = end
        }
        #expect(streamed.count <= whole.count && streamed.count >= whole.count - 40, "\(streamed.count) of \(whole.count)")
        #expect(Array(whole.prefix(streamed.count)) == streamed)
        scaler.reset()
        // After a reset the stream starts again from silence, not from where the last one ended.
        let again = scaler.process(Array(audio.samples.prefix(3200)))
        #expect(!again.isEmpty && again == Array(streamed.prefix(again.count)))
        var same = FrequencyScaler(factor: 1, sampleRate: 16000)
        #expect(same.process([1, 2, 3]) == [1, 2, 3])
    }

    @Test func anOddRatePairStillWorks() {
        // 44101 / 16000 has no small common divisor: exercises the per-sample kernel path.
        let input = TestAudio.sine(frequency: 1000, sampleRate: 44101, seconds: 0.2, amplitude: 10000)
        let output = Resampler.resample(input, to: 16000)
        #expect(abs(TestAudio.frequency(TestAudio.middle(output.samples), sampleRate: 16000) - 1000) < 1)
    }
}

@Suite struct NoiseFloorTests {
    @Test func isFaintDeterministicAndSeeded() {
        var a = [Int16](repeating: 0, count: 48000)
        var b = a
        var c = a
        NoiseFloor.apply(to: &a)
        NoiseFloor.apply(to: &b)
        NoiseFloor.apply(to: &c, seed: 7)
        #expect(a == b)
        #expect(a != c)
        let level = PCMAudio(samples: a, sampleRate: 16000).rmsDBFS
        #expect(abs(level - -75) < 1, "level \(level) dBFS")
        // No long runs of exact zeros are left for the decoder.
        var run = 0, longest = 0
        for s in a { run = s == 0 ? run + 1 : 0; longest = max(longest, run) }
        #expect(longest < 10)
    }

    /// A microphone's chunks get one floor, not the same noise again in every chunk.
    @Test func aStreamsFloorGoesOnAcrossChunks() {
        var whole = [Int16](repeating: 0, count: 960)
        NoiseFloor.apply(to: &whole)
        var floor = NoiseFloor.Stream()
        var chunked: [Int16] = []
        for _ in 0..<3 {
            var chunk = [Int16](repeating: 0, count: 320)
            floor.apply(to: &chunk)
            chunked += chunk
        }
        #expect(chunked == whole)
        #expect(chunked[0..<320] != chunked[320..<640])
    }

    /// A recording's floor sits `belowSpeech` under its loud frames, never under -75 dBFS.
    @Test func aRecordingsFloorSitsUnderItsSpeech() {
        let rate = 16000
        let amplitude = 32768 * pow(10, -20.0 / 20) * 2.0.squareRoot()   // a sine of -20 dBFS RMS
        let tone = (0..<rate / 2).map { Int16(amplitude * sin(2 * Double.pi * 1000 * Double($0) / Double(rate))) }
        let silence = [Int16](repeating: 0, count: rate / 2)
        let audio = PCMAudio(samples: silence + tone + silence, sampleRate: rate)
        #expect(abs(NoiseFloor.speechLevel(of: audio) - -20) < 0.5)
        let floored = NoiseFloor.applied(to: audio)
        let quiet = PCMAudio(samples: Array(floored.samples[0..<(rate / 2)]), sampleRate: rate).rmsDBFS
        #expect(abs(quiet - (-20 - NoiseFloor.belowSpeech)) < 1, "floor at \(quiet) dBFS")
        let faint = PCMAudio(samples: silence + tone.map { $0 / 1000 } + silence, sampleRate: rate)   // -80 dBFS
        #expect(NoiseFloor.level(under: faint, by: NoiseFloor.belowSpeech) == NoiseFloor.levelDBFS)
        #expect(NoiseFloor.speechLevel(of: PCMAudio(samples: silence, sampleRate: rate)) == -.infinity)
    }

    @Test func leavesSpeechAlmostUntouchedAndNeverWraps() {
        var loud: [Int16] = [Int16.max, Int16.min, 1000, -1000]
        NoiseFloor.apply(to: &loud)
        #expect(loud[0] > 32700 && loud[1] < -32700)
        #expect(abs(Int(loud[2]) - 1000) < 40 && abs(Int(loud[3]) + 1000) < 40)
    }
}
