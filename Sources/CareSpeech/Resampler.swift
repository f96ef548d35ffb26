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
    /// normalisation that needs no new model; `SpeechRecognizer.Configuration.frequencyScale`).
    /// A stream is scaled chunk by chunk, to the same samples, by `FrequencyScaler`.
    public static func scaleFrequencies(of audio: PCMAudio, by factor: Double) -> PCMAudio {
        let pretended = FrequencyScaler.pretendedRate(audio.sampleRate, factor)
        guard pretended != audio.sampleRate else { return audio }
        return resample(PCMAudio(samples: audio.samples, sampleRate: pretended), to: audio.sampleRate)
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// The low-pass interpolation filter, in units of input samples.
    fileprivate struct Kernel {
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

/// `Resampler.scaleFrequencies` for a stream: chunks in, and out the samples that scaling the
/// whole stream at once gives, each as soon as the input its filter reaches has come (about
/// 1.7 ms later at 16 kHz).
public struct FrequencyScaler {
    public let factor: Double
    /// The rate conversion: input position of output j is j * down / up input samples.
    private let up: Int, down: Int
    private let kernel: Resampler.Kernel?
    /// Every phase's taps when there are few (as `Resampler.resample` has them).
    private let table: [Float]?
    /// Input kept, starting at absolute input index `kept`; inputs before the stream are 0.
    private var input: [Float] = []
    private var kept = 0
    private var next = 0

    /// - Parameter factor: 1 passes the stream through unchanged.
    public init(factor: Double, sampleRate: Int) {
        self.factor = factor
        let pretended = Self.pretendedRate(sampleRate, factor)
        var g = pretended, b = sampleRate
        while b != 0 { (g, b) = (b, g % b) }
        up = sampleRate / g
        down = pretended / g
        guard pretended != sampleRate else {
            kernel = nil
            table = nil
            return
        }
        let kernel = Resampler.Kernel(inRate: pretended, outRate: sampleRate)
        let phases = up
        self.kernel = kernel
        table = phases <= 4096 ? (0..<phases).flatMap { kernel.taps(fraction: Double($0) / Double(phases)) } : nil
    }

    /// The rate a recording is taken to have been made at, to be heard `factor` times higher.
    static func pretendedRate(_ sampleRate: Int, _ factor: Double) -> Int {
        precondition(factor > 0 && factor.isFinite, "frequency scale must be a positive number")
        return Int((Double(sampleRate) * factor).rounded())
    }

    /// The scaled samples that this chunk completes.
    public mutating func process(_ chunk: [Int16]) -> [Int16] {
        guard let kernel else { return chunk }
        input += chunk.map(Float.init)
        let received = kept + input.count
        let width = kernel.width
        var output: [Int16] = []
        while true {
            let position = Int64(next) * Int64(down)
            let base = Int(position / Int64(up))
            guard base + kernel.half < received else { break }
            let phase = Int(position % Int64(up))
            let first = base - kernel.half + 1
            var acc: Float = 0
            if let table {
                let row = phase * width
                for k in 0..<width where first + k >= 0 { acc += table[row + k] * input[first + k - kept] }
            } else {
                let taps = kernel.taps(fraction: Double(phase) / Double(up))
                for k in 0..<width where first + k >= 0 { acc += taps[k] * input[first + k - kept] }
            }
            output.append(clampToInt16(Double(acc)))
            next += 1
        }
        // Keep what the next output's filter reaches back to.
        let needed = Int(Int64(next) * Int64(down) / Int64(up)) - kernel.half + 1
        if needed > kept {
            input.removeFirst(min(input.count, needed - kept))
            kept = needed
        }
        return output
    }

    /// Starts a new stream: what was kept of the last one is forgotten.
    public mutating func reset() {
        input = []
        kept = 0
        next = 0
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
