import CareTestSupport
import Foundation
@testable import CareSpeech

/// Helpers shared by the CareSpeech tests.
enum TestAudio {
    static func sine(frequency: Double, sampleRate: Int, seconds: Double, amplitude: Double) -> PCMAudio {
        let n = Int(seconds * Double(sampleRate))
        let samples = (0..<n).map { i in
            Int16((amplitude * sin(2 * .pi * frequency * Double(i) / Double(sampleRate))).rounded())
        }
        return PCMAudio(samples: samples, sampleRate: sampleRate)
    }

    static func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// The middle half, away from the filter's edge effects.
    static func middle(_ samples: [Int16]) -> ArraySlice<Int16> {
        samples[(samples.count / 4)..<(samples.count * 3 / 4)]
    }

    /// Frequency from interpolated upward zero crossings: precise to well under 0.1 % for a clean tone.
    static func frequency(_ samples: ArraySlice<Int16>, sampleRate: Int) -> Double {
        var crossings: [Double] = []
        var i = samples.startIndex
        while i + 1 < samples.endIndex {
            let a = Double(samples[i]), b = Double(samples[i + 1])
            if a < 0 && b >= 0 { crossings.append(Double(i) + a / (a - b)) }
            i += 1
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) / ((last - first) / Double(sampleRate))
    }

    /// Median fundamental frequency of the voiced 40 ms frames, by autocorrelation (60-400 Hz).
    static func medianPitch(_ audio: PCMAudio) -> Double {
        let x = audio.samples.map(Double.init)
        let frame = audio.sampleRate / 25
        let minLag = audio.sampleRate / 400, maxLag = audio.sampleRate / 60
        var pitches: [Double] = []
        var start = 0
        while start + frame + maxLag < x.count {
            let window = x[start..<(start + frame)]
            let energy = window.reduce(0) { $0 + $1 * $1 }
            if energy / Double(frame) > 1000 * 1000 {
                var best = 0.0, bestLag = 0
                for lag in minLag...maxLag {
                    var c = 0.0
                    for i in start..<(start + frame) { c += x[i] * x[i + lag] }
                    if c > best { best = c; bestLag = lag }
                }
                if best > 0.5 * energy { pitches.append(Double(audio.sampleRate) / Double(bestLag)) }
            }
            start += frame
        }
        pitches.sort()
        return pitches.isEmpty ? 0 : pitches[pitches.count / 2]
    }

    /// Little-endian bytes of a WAV file, for building odd files by hand.
    struct Bytes {
        var data: [UInt8] = []
        mutating func ascii(_ s: String) { data += Array(s.utf8) }
        mutating func u16(_ v: UInt16) { data += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        mutating func u32(_ v: UInt32) { data += (0..<4).map { UInt8(v >> (8 * UInt32($0)) & 0xFF) } }
        mutating func chunk(_ id: String, _ body: [UInt8], pad: Bool = true) {
            ascii(id); u32(UInt32(body.count)); data += body
            if pad && body.count % 2 == 1 { data.append(0) }
        }
        static func fmt(tag: UInt16, channels: UInt16, rate: UInt32, bits: UInt16) -> [UInt8] {
            var b = Bytes()
            let block = channels * ((bits + 7) / 8)
            b.u16(tag); b.u16(channels); b.u32(rate); b.u32(rate * UInt32(block)); b.u16(block); b.u16(bits)
            return b.data
        }
        /// RIFF/WAVE around the given chunks (RIFF size computed).
        static func wave(_ chunks: [UInt8]) -> Data {
            var b = Bytes()
            b.ascii("RIFF"); b.u32(UInt32(4 + chunks.count)); b.ascii("WAVE")
            return Data(b.data + chunks)
        }
    }
}

enum Grammars {
    static let sentence = "#JSGF V1.0; grammar t; public <s> = glucose (six|seven|eight) point (five|two) [before breakfast];"
    static let yesNo = "#JSGF V1.0; grammar yn; public <s> = yes | no;"
    static let digits = "#JSGF V1.0; grammar digits; public <d> = zero | oh | one | two | three | four | five | six | seven | eight | nine;"

    static func recognizer(_ grammars: [String: String] = ["t": sentence, "yn": yesNo, "digits": digits],
                           select: String = "t") throws -> SpeechRecognizer {
        let recognizer = try SpeechRecognizer(SpeechRecognizer.Configuration(), grammars: grammars)
        try recognizer.selectGrammar(select)
        return recognizer
    }
}

/// espeak-ng output at 16 kHz with the noise floor, ready for the recognizer.
func speech16k(_ text: String, voice: String = "en-us") throws -> [Int16] {
    try SpokenFixtures.speech16k(text, voice: voice)
}

/// Runs `body` with file descriptor 2 (or `descriptor`) redirected to a file and returns what was
/// written there. Other tests running at the same time may add their own lines, so check for
/// specific text rather than for emptiness.
func capturingStandardError<T>(descriptor: Int32 = 2, _ body: () throws -> T) rethrows -> (T, String) {
    fflush(stdout)
    fflush(stderr)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("captured-\(UUID().uuidString)").path
    let fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0o600)
    let saved = dup(descriptor)
    dup2(fd, descriptor)
    defer {
        dup2(saved, descriptor)
        close(saved)
        close(fd)
        try? FileManager.default.removeItem(atPath: path)
    }
    let result = try body()
    fflush(stdout)
    fflush(stderr)
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return (result, text)
}
