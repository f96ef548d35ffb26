import CareModel
import Foundation

public enum Resampler {
    /// Band-limited resampling with a Kaiser-windowed sinc (polyphase when the rate ratio is a
    /// small fraction, as it is for all the usual rates). The pass band ends at 90 % of the
    /// lower Nyquist frequency, so downsampling does not fold high frequencies into the speech
    /// band. Output length is `round(count * rate / sampleRate)`. Identity when the rates match.
    public static func resample(_ audio: PCMAudio, to rate: Int) -> PCMAudio {
        precondition(rate > 0, "target sample rate must be positive")
        let inRate = audio.sampleRate
        guard inRate != rate else { return audio }
        guard inRate > 0, !audio.samples.isEmpty else { return PCMAudio(samples: [], sampleRate: rate) }

        let g = gcd(inRate, rate)
        let up = rate / g      // L: output steps per input step, in phase units
        let down = inRate / g  // M
        let n = audio.samples.count
        let outCount = Int((Int64(n) * Int64(rate) + Int64(inRate) / 2) / Int64(inRate))

        let kernel = Kernel(inRate: inRate, outRate: rate)
        var output = [Int16](repeating: 0, count: outCount)
        let input = audio.samples.map { Float($0) }

        // A table of every phase when there are few of them (all the usual rate pairs);
        // otherwise each output sample computes its own taps.
        let table: [Float]? = up <= 4096 ? (0..<up).flatMap { kernel.taps(fraction: Double($0) / Double(up)) } : nil
        let width = kernel.width

        input.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                var scratch = [Float](repeating: 0, count: width)
                for j in 0..<outCount {
                    let position = Int64(j) * Int64(down)
                    let base = Int(position / Int64(up))
                    let phase = Int(position % Int64(up))
                    let first = base - kernel.half + 1
                    var acc: Float = 0
                    if let table {
                        table.withUnsafeBufferPointer { t in
                            let row = phase * width
                            for k in 0..<width {
                                let i = first + k
                                if i >= 0 && i < n { acc += t[row + k] * x[i] }
                            }
                        }
                    } else {
                        scratch = kernel.taps(fraction: Double(phase) / Double(up))
                        for k in 0..<width {
                            let i = first + k
                            if i >= 0 && i < n { acc += scratch[k] * x[i] }
                        }
                    }
                    y[j] = clampToInt16(Double(acc))
                }
            }
        }
        return PCMAudio(samples: output, sampleRate: rate)
    }

    /// The same audio with every frequency multiplied by `factor` and its length divided by it,
    /// as if it had been recorded at `factor` times its rate: a voice made higher (above 1) or
    /// lower, its formants moved towards where an acoustic model expects them (a speaker
    /// normalisation that needs no new model; `bench recognition --frequency-scale`).
    public static func scaleFrequencies(of audio: PCMAudio, by factor: Double) -> PCMAudio {
        precondition(factor > 0 && factor.isFinite, "frequency scale must be a positive number")
        let pretended = Int((Double(audio.sampleRate) * factor).rounded())
        guard pretended != audio.sampleRate else { return audio }
        return resample(PCMAudio(samples: audio.samples, sampleRate: pretended), to: audio.sampleRate)
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// The low-pass interpolation filter, in units of input samples.
    private struct Kernel {
        /// Cut-off in cycles per input sample.
        let cutoff: Double
        /// Taps on each side of the output position.
        let half: Int
        var width: Int { 2 * half }
        let beta = 8.6 // Kaiser: about 90 dB of stop-band attenuation
        let i0Beta: Double

        init(inRate: Int, outRate: Int) {
            let lowerNyquistFraction = 0.5 * min(1, Double(outRate) / Double(inRate))
            cutoff = 0.9 * lowerNyquistFraction
            // 24 zero crossings each side: a transition band narrow enough to reach the
            // stop band by the lower Nyquist frequency.
            half = Int((24 / (2 * cutoff)).rounded(.up))
            i0Beta = Kernel.besselI0(beta)
        }

        /// Taps for an output that lies `fraction` (0..<1) of an input step after input `base`;
        /// tap k multiplies input `base - half + 1 + k`. Normalised to unity gain at DC.
        func taps(fraction: Double) -> [Float] {
            var taps = [Double](repeating: 0, count: 2 * half)
            var sum = 0.0
            for k in 0..<(2 * half) {
                let x = Double(k - half + 1) - fraction
                let r = x / Double(half)
                guard abs(r) < 1 else { continue }
                let arg = 2 * cutoff * x
                let sinc = arg == 0 ? 1 : sin(.pi * arg) / (.pi * arg)
                let window = Kernel.besselI0(beta * (1 - r * r).squareRoot()) / i0Beta
                taps[k] = 2 * cutoff * sinc * window
                sum += taps[k]
            }
            return taps.map { Float($0 / sum) }
        }

        static func besselI0(_ x: Double) -> Double {
            var sum = 1.0, term = 1.0, k = 1.0
            let q = x * x / 4
            while term > 1e-12 * sum {
                term *= q / (k * k)
                sum += term
                k += 1
            }
            return sum
        }
    }
}

public enum NoiseFloor {
    /// The faintest floor: -75 dBFS RMS (a standard deviation of ~5.8 LSB), far below any
    /// microphone's own noise. A microphone's chunks get this; it only fills digital silence.
    public static let levelDBFS = -75.0

    /// How far below the speech a recording's floor is, in dB. The acoustic model learned from
    /// recordings whose quiet parts were not far below the voice; filled 55-60 dB below it
    /// (-75 dBFS under espeak-ng's -16 dBFS), silence pulled each utterance's cepstral mean far
    /// from its speech. `carevoice bench recognition`, floor at -75 dBFS -> 40 dB under the
    /// speech (with `paddingBelowSpeech`, and the emergency odds recalibrated): synthetic
    /// readings (`bench corpus --readings 100 --seed 41`) 73 -> 81 of 100 right; lone digits said
    /// by 8 espeak-ng voices 87 -> 105 of 160; FSDD real digits 241 -> 262 of 400. 35 and 45 dB
    /// were within 3 of 40 on the digits.
    public static let belowSpeech = 40.0

    /// How far below the speech the noise put around an utterance is (`SpeechRecognizer`'s
    /// lead-in and tail), in dB. Further below than `belowSpeech`: at 40 dB calls for help were
    /// missed (a lone "help" heard as "nope": 96 -> 90 of 96 clean); at 50 they were heard about
    /// as before, and FSDD digits were 254 of 400 where -75 dBFS padding gave 243 and 60 dB 241
    /// (those three with the padding level taken from the whole recording, not each utterance
    /// as now, and the emergency words' old odds).
    public static let paddingBelowSpeech = 50.0

    /// Adds faint Gaussian noise of RMS `level` dBFS, always the same for the same seed and
    /// length. pocketsphinx's voice-activity detector and its noise tracking misbehave on exact
    /// digital silence, which synthesized speech and edited recordings are full of.
    public static func apply(to samples: inout [Int16], seed: UInt64 = 0x5EED, level: Double = levelDBFS) {
        var floor = Stream(seed: seed, level: level)
        floor.apply(to: &samples)
    }

    /// The floor of audio that arrives in chunks (a microphone): one noise sequence across them.
    /// Started afresh for each chunk, the floor repeated every chunk: a faint buzz at the chunk
    /// rate (50 Hz for 20 ms chunks), which moved fits by a few points (`ListeningContext.minimumFit(for:)`).
    public struct Stream {
        private var gaussian: GaussianNoise
        private let sigma: Double

        public init(seed: UInt64 = 0x5EED, level: Double = levelDBFS) {
            gaussian = GaussianNoise(seed: seed)
            sigma = 32768 * pow(10, level / 20)
        }

        public mutating func apply(to samples: inout [Int16]) {
            for i in samples.indices {
                samples[i] = clampToInt16(Double(samples[i]) + sigma * gaussian.next())
            }
        }
    }

    /// A whole recording with its floor `belowSpeech` under its own speech (never below
    /// `levelDBFS`).
    public static func applied(to audio: PCMAudio, seed: UInt64 = 0x5EED) -> PCMAudio {
        var copy = audio
        apply(to: &copy.samples, seed: seed, level: level(under: audio, by: belowSpeech))
        return copy
    }

    /// `dB` below the speech of `audio`, never below `levelDBFS`.
    public static func level(under audio: PCMAudio, by dB: Double) -> Double {
        max(levelDBFS, speechLevel(of: audio) - dB)
    }

    /// How loud the speech in `audio` is, in dBFS: the RMS of its loud 20 ms frames (the 95th
    /// percentile, so that a click does not count), or -infinity for silence.
    public static func speechLevel(of audio: PCMAudio) -> Double {
        let levels = audio.framePowers.sorted()
        guard !levels.isEmpty else { return -.infinity }
        let loud = levels[min(levels.count - 1, Int(Double(levels.count) * 0.95))]
        return loud > 0 ? 10 * log10(loud / (32768 * 32768)) : -.infinity
    }
}
