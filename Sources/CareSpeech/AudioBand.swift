import Foundation

/// How much of the speech spectrum a recording carries, which decides the acoustic model's
/// means (`SpeechRecognizer.Configuration.meansFile`).
///
/// Debian's model learned from 16 kHz speech. A telephone, a Bluetooth headset on its hands-free
/// profile, or any recording made at 8 kHz carries nothing above 4 kHz, where the hiss of "s" and
/// "z" lives: where a phone number is awaited, the model heard none of the 40 real sixes of the
/// FSDD digits as "six" ("three", "two", "help", "eight"), and a Belgian speaker's ten zeros as
/// "two". Such audio is heard with means adapted to real narrowband speech.
public enum AudioBand: String, Sendable, CaseIterable {
    /// The whole speech band, as the acoustic model learned it.
    case wide
    /// Telephone band: nothing above 4 kHz.
    case narrow

    /// The band of a recording: narrow when it was sampled at 8 kHz or less, or when what the
    /// decoder would hear of it has almost nothing above 4.6 kHz (`highBandShare`), as in a
    /// telephone recording resampled to 16 kHz. Silence is wide: there is nothing to decide on.
    public static func of(_ audio: PCMAudio) -> AudioBand {
        if audio.sampleRate <= 8000 { return .narrow }
        guard let share = highBandShare(audio) else { return .wide }
        return share < narrowBelowDB ? .narrow : .wide
    }

    /// Below this share of energy above 4.6 kHz, in dB, a recording is narrowband. Measured with
    /// this code's reckoning (in numpy, the same filter and frames): the 400 FSDD digits (8 kHz,
    /// resampled to 16 kHz) and 159 synthetic readings and commands resampled to 8 kHz and back
    /// had at most -56.8 dB; 278 synthetic recordings said by 10 espeak-ng voices at 22.05 kHz at
    /// least -44.4 dB (median -21). Speech said at full band has its fricatives up there.
    public static let narrowBelowDB = -50.0

    /// The energy above 4.6 kHz as a share of all the energy, in dB, over the frames within 30 dB
    /// of the loudest (speech, not the pauses), of the audio resampled to 16 kHz as the decoder
    /// hears it; nil when the audio is silent or too short to filter.
    public static func highBandShare(_ audio: PCMAudio) -> Double? {
        let audio = Resampler.resample(audio, to: filterRate)
        let count = audio.samples.count
        guard count > highPass.count else { return nil }
        // A constant offset (some recorders have one) is no sound.
        let mean = audio.samples.reduce(0.0) { $0 + Double($1) } / Double(count)
        let x = audio.samples.map { Double($0) - mean }
        let half = highPass.count / 2
        let frame = filterRate / 50
        // Whole 20 ms frames the filter can see around.
        let frames = stride(from: half, to: count - half - frame + 1, by: frame).map { start in
            (start, x[start..<start + frame].reduce(0.0) { $0 + $1 * $1 })
        }
        guard let loudest = frames.map(\.1).max(), loudest > 0 else { return nil }
        let floor = loudest * pow(10, -speechRangeDB / 10)
        var total = 0.0, high = 0.0
        x.withUnsafeBufferPointer { x in
            highPass.withUnsafeBufferPointer { taps in
                for (start, energy) in frames where energy >= floor {
                    total += energy
                    for i in start..<start + frame {
                        var y = 0.0
                        for k in 0..<taps.count { y += taps[k] * x[i - half + k] }
                        high += y * y
                    }
                }
            }
        }
        return 10 * log10(max(high, .leastNonzeroMagnitude) / total)
    }

    /// Frames this far under the loudest still count as speech, in dB.
    static let speechRangeDB = 30.0
    static let filterRate = 16000

    /// A linear-phase high-pass at 4.6 kHz: a Blackman-windowed sinc of 127 taps (stop band about
    /// 74 dB down; its transition, about 4.25-4.95 kHz, clears the top of a telephone band).
    static let highPass: [Double] = {
        let count = 127, cutoff = 4600.0 / Double(filterRate)
        let middle = Double(count - 1) / 2
        var taps = (0..<count).map { n -> Double in
            let t = Double(n) - middle
            let sinc = t == 0 ? 2 * cutoff : sin(2 * .pi * cutoff * t) / (.pi * t)
            let window = 0.42 - 0.5 * cos(2 * .pi * Double(n) / Double(count - 1)) + 0.08 * cos(4 * .pi * Double(n) / Double(count - 1))
            return -sinc * window
        }
        taps[count / 2] += 1
        return taps
    }()
}
