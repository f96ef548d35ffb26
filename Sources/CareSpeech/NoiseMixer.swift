import CareModel
import Foundation

/// Standard normal numbers, the same for the same seed (Box-Muller on `SeededGenerator`).
public struct GaussianNoise {
    private var rng: SeededGenerator
    private var spare: Double?

    public init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    public mutating func next() -> Double {
        if let s = spare {
            spare = nil
            return s
        }
        // Two uniforms in (0, 1] give two independent normals.
        let u1 = (Double(rng.next() >> 11) + 1) / 9_007_199_254_740_992
        let u2 = Double(rng.next() >> 11) / 9_007_199_254_740_992
        let r = (-2 * log(u1)).squareRoot()
        spare = r * sin(2 * .pi * u2)
        return r * cos(2 * .pi * u2)
    }
}

/// Background noise for benchmarks: how recognition holds up in a kitchen or a street.
public enum NoiseColor: String, Sendable, CaseIterable {
    /// Equal power at every frequency (a hiss).
    case white
    /// Power falling 3 dB an octave, like most rooms and crowds.
    case pink
}

public enum NoiseMixer {
    /// Frames within this many dB of the loudest frame count as speech.
    static let speechRangeDB = 30.0

    /// Mean square of the speech frames (pauses left out, so a long silence around a word does
    /// not make the same noise look quieter); nil when there is no sound at all.
    public static func speechPower(_ audio: PCMAudio) -> Double? {
        let powers = audio.framePowers
        guard let loudest = powers.max(), loudest > 0 else { return nil }
        let floor = loudest * pow(10, -speechRangeDB / 10)
        let speech = powers.filter { $0 >= floor }
        return speech.reduce(0, +) / Double(speech.count)
    }

    /// `count` samples of noise with a mean square of 1.
    public static func noise(_ color: NoiseColor, count: Int, seed: UInt64) -> [Double] {
        var gaussian = GaussianNoise(seed: seed)
        var samples = [Double](repeating: 0, count: count)
        switch color {
        case .white:
            for i in samples.indices { samples[i] = gaussian.next() }
        case .pink:
            // Paul Kellet's filter: white noise through a sum of first-order low-passes,
            // within 0.05 dB of -3 dB/octave above 9 Hz at 44.1 kHz (close enough at 16-22 kHz).
            var b = [Double](repeating: 0, count: 7)
            for i in samples.indices {
                let w = gaussian.next()
                b[0] = 0.99886 * b[0] + w * 0.0555179
                b[1] = 0.99332 * b[1] + w * 0.0750759
                b[2] = 0.96900 * b[2] + w * 0.1538520
                b[3] = 0.86650 * b[3] + w * 0.3104856
                b[4] = 0.55000 * b[4] + w * 0.5329522
                b[5] = -0.7616 * b[5] - w * 0.0168980
                samples[i] = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + w * 0.5362
                b[6] = w * 0.115926
            }
        }
        let meanSquare = samples.reduce(0) { $0 + $1 * $1 } / Double(max(1, count))
        let scale = meanSquare > 0 ? 1 / meanSquare.squareRoot() : 0
        return samples.map { $0 * scale }
    }

    /// The audio with noise added so that speech power over noise power is `snr` dB, speech power
    /// measured over speech frames only. Silent audio is returned as it is.
    /// - Parameter around: seconds of the noise alone added before and after the audio.
    public static func mix(_ audio: PCMAudio, noise color: NoiseColor, snr: Double, seed: UInt64 = 1,
                           around: Double = 0) -> PCMAudio {
        guard let speech = speechPower(audio) else { return audio }
        let gain = (speech / pow(10, snr / 10)).squareRoot()
        let pause = [Int16](repeating: 0, count: Int((around * Double(audio.sampleRate)).rounded()))
        let audio = PCMAudio(samples: pause + audio.samples + pause, sampleRate: audio.sampleRate)
        let noise = noise(color, count: audio.samples.count, seed: seed)
        var mixed = audio
        for i in mixed.samples.indices {
            mixed.samples[i] = clampToInt16(Double(audio.samples[i]) + gain * noise[i])
        }
        return mixed
    }
}
