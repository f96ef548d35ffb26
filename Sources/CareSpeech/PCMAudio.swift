import Foundation

/// Mono 16-bit PCM.
public struct PCMAudio: Sendable, Equatable {
    public var samples: [Int16]
    public var sampleRate: Int

    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Seconds of audio; 0 when the sample rate is not positive.
    public var duration: Double {
        sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0
    }

    /// Digital silence of the given length.
    public static func silence(seconds: Double, sampleRate: Int) -> PCMAudio {
        PCMAudio(samples: [Int16](repeating: 0, count: max(0, Int((seconds * Double(sampleRate)).rounded()))),
                 sampleRate: sampleRate)
    }

    /// Root-mean-square level relative to full scale (32768), in dB; -infinity for silence.
    public var rmsDBFS: Double {
        guard !samples.isEmpty else { return -.infinity }
        var sum = 0.0
        for s in samples { sum += Double(s) * Double(s) }
        let rms = (sum / Double(samples.count)).squareRoot()
        return rms > 0 ? 20 * log10(rms / 32768) : -.infinity
    }

    /// The mean square of each 20 ms frame (the last one may be shorter): how loud the audio is
    /// from moment to moment, to tell speech from pauses.
    public var framePowers: [Double] {
        let frame = max(1, sampleRate / 50)
        var powers: [Double] = []
        var start = 0
        while start < samples.count {
            let end = min(start + frame, samples.count)
            var sum = 0.0
            for s in samples[start..<end] { sum += Double(s) * Double(s) }
            powers.append(sum / Double(end - start))
            start = end
        }
        return powers
    }
}

public enum AudioFileError: Error, Equatable {
    /// The file could not be read at all (missing, a directory, no permission). Carries the path.
    case unreadable(String)
    /// Not a RIFF/WAVE file.
    case notWAV
    /// A WAV file in an encoding this reader does not decode, e.g. "12-bit", "compressed (format 2)".
    case unsupportedFormat(String)
    /// The file ends before its header or its declared audio data does.
    case truncated
}

public enum WAVFile {
    /// Reads a RIFF/WAVE file: integer PCM of 8 (unsigned), 16, 24 or 32 bits, or IEEE float of
    /// 32 or 64 bits (also inside WAVE_FORMAT_EXTENSIBLE), any sample rate, any channel count
    /// (averaged down to mono). Unknown chunks (LIST, fact, ...) are skipped and a missing pad
    /// byte after an odd-sized chunk is tolerated. Anything else is reported as an
    /// `AudioFileError`; a corrupt file never traps.
    public static func read(_ url: URL) throws -> PCMAudio {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw AudioFileError.unreadable(url.path)
        }
        return try decode(data)
    }

    /// Writes 16-bit mono PCM (the canonical 44-byte header), atomically.
    public static func write(_ audio: PCMAudio, to url: URL) throws {
        try encode(audio).write(to: url, options: .atomic)
    }

    /// The bytes `write` would store.
    public static func encode(_ audio: PCMAudio) throws -> Data {
        guard audio.sampleRate > 0, audio.sampleRate <= Int(Int32.max) / 2 else {
            throw AudioFileError.unsupportedFormat("sample rate \(audio.sampleRate)")
        }
        let dataBytes = audio.samples.count * 2
        guard dataBytes <= Int(UInt32.max) - 36 else { throw AudioFileError.unsupportedFormat("longer than 4 GB") }
        var out = [UInt8]()
        out.reserveCapacity(44 + dataBytes)
        func u32(_ v: UInt32) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        func u16(_ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        out += Array("RIFF".utf8); u32(UInt32(36 + dataBytes)); out += Array("WAVE".utf8)
        out += Array("fmt ".utf8); u32(16)
        u16(1)                                  // PCM
        u16(1)                                  // mono
        u32(UInt32(audio.sampleRate))
        u32(UInt32(audio.sampleRate * 2))       // byte rate
        u16(2)                                  // block align
        u16(16)                                 // bits per sample
        out += Array("data".utf8); u32(UInt32(dataBytes))
        for s in audio.samples {
            let v = UInt16(bitPattern: s)
            out.append(UInt8(v & 0xFF)); out.append(UInt8(v >> 8))
        }
        return Data(out)
    }

    /// Decodes the bytes of a WAV file (see `read`).
    public static func decode(_ data: Data) throws -> PCMAudio {
        let bytes = [UInt8](data)
        return try bytes.withUnsafeBufferPointer { try decode(RIFFBytes(bytes: $0)) }
    }

    private struct Format {
        var tag: UInt16
        var channels: Int
        var sampleRate: Int
        var bits: Int
    }

    private static func decode(_ b: RIFFBytes) throws -> PCMAudio {
        guard b.count >= 12 else {
            // A cut-off header is "truncated"; anything else this short is just not a WAV.
            let magic = Array("RIFF".utf8)
            if b.count > 0, (0..<min(4, b.count)).allSatisfy({ b[$0] == magic[$0] }) { throw AudioFileError.truncated }
            throw AudioFileError.notWAV
        }
        switch b.fourCC(at: 0) {
        case "RIFF": break
        case "RIFX": throw AudioFileError.unsupportedFormat("big-endian (RIFX)")
        case "RF64": throw AudioFileError.unsupportedFormat("RF64")
        default: throw AudioFileError.notWAV
        }
        guard b.fourCC(at: 8) == "WAVE" else { throw AudioFileError.notWAV }

        var format: Format?
        var dataRange: Range<Int>?
        var pos = 12
        while pos + 8 <= b.count, format == nil || dataRange == nil {
            let id = b.fourCC(at: pos)
            let size = Int(b.u32(at: pos + 4))
            let body = pos + 8
            let available = b.count - body
            switch id {
            case "fmt ":
                guard available >= 16 else { throw AudioFileError.truncated }
                guard size >= 16 else { throw AudioFileError.unsupportedFormat("fmt chunk of \(size) bytes") }
                var tag = b.u16(at: body)
                // WAVE_FORMAT_EXTENSIBLE keeps the real format in the first two bytes of its GUID.
                if tag == 0xFFFE {
                    guard size >= 40, available >= 40 else { throw AudioFileError.truncated }
                    tag = b.u16(at: body + 24)
                }
                format = Format(tag: tag,
                                channels: Int(b.u16(at: body + 2)),
                                sampleRate: Int(b.u32(at: body + 4)),
                                bits: Int(b.u16(at: body + 14)))
            case "data":
                // 0xFFFFFFFF is what streaming writers leave when they never come back to fix the size.
                if size == 0xFFFF_FFFF {
                    dataRange = body..<b.count
                } else {
                    guard size <= available else { throw AudioFileError.truncated }
                    dataRange = body..<(body + size)
                }
            default:
                guard b.isFourCC(at: pos) else {
                    // Walked into garbage: the file is damaged, not merely carrying extra chunks.
                    if format == nil { throw AudioFileError.notWAV }
                    throw AudioFileError.truncated
                }
            }
            var next = body + size
            if size % 2 == 1 {
                // RIFF pads odd chunks with a zero byte, but some writers forget it.
                if b[next] == 0 || !b.isFourCC(at: next) { next += 1 }
            }
            if next < pos { throw AudioFileError.notWAV } // cannot happen with 32-bit sizes; guards a loop
            pos = next
        }
        guard let format, let dataRange else { throw AudioFileError.truncated }
        return try convert(b, range: dataRange, format: format)
    }

    private static func convert(_ b: RIFFBytes, range: Range<Int>, format f: Format) throws -> PCMAudio {
        guard f.channels > 0 else { throw AudioFileError.unsupportedFormat("0 channels") }
        guard f.sampleRate > 0, f.sampleRate <= 1_000_000 else {
            throw AudioFileError.unsupportedFormat("sample rate \(f.sampleRate)")
        }
        enum Kind { case u8, s16, s24, s32, f32, f64 }
        let kind: Kind
        switch (f.tag, f.bits) {
        case (1, 8): kind = .u8
        case (1, 16): kind = .s16
        case (1, 24): kind = .s24
        case (1, 32): kind = .s32
        case (3, 32): kind = .f32
        case (3, 64): kind = .f64
        case (1, _): throw AudioFileError.unsupportedFormat("\(f.bits)-bit")
        case (3, _): throw AudioFileError.unsupportedFormat("\(f.bits)-bit float")
        default: throw AudioFileError.unsupportedFormat("compressed (format \(f.tag))")
        }
        let width = f.bits / 8
        let frameBytes = width * f.channels
        let frames = range.count / frameBytes
        var samples = [Int16](repeating: 0, count: frames)
        let channels = f.channels
        samples.withUnsafeMutableBufferPointer { out in
            var p = range.lowerBound
            for i in 0..<frames {
                var sum = 0.0
                for _ in 0..<channels {
                    let v: Double
                    switch kind {
                    case .u8: v = Double(Int(b[p]) - 128) * 256
                    case .s16: v = Double(Int16(bitPattern: b.u16(at: p)))
                    case .s24:
                        let raw = Int32(b[p]) << 8 | Int32(b[p + 1]) << 16 | Int32(b[p + 2]) << 24
                        v = Double(raw >> 8) / 256
                    case .s32: v = Double(Int32(bitPattern: b.u32(at: p))) / 65536
                    case .f32:
                        let x = Double(Float(bitPattern: b.u32(at: p)))
                        v = x.isFinite ? x * 32768 : 0
                    case .f64:
                        let x = Double(bitPattern: UInt64(b.u32(at: p)) | UInt64(b.u32(at: p + 4)) << 32)
                        v = x.isFinite ? x * 32768 : 0
                    }
                    sum += v
                    p += width
                }
                out[i] = clampToInt16(sum / Double(channels))
            }
        }
        return PCMAudio(samples: samples, sampleRate: f.sampleRate)
    }
}

@inline(__always)
func clampToInt16(_ x: Double) -> Int16 {
    let r = x.rounded()
    if r >= 32767 { return .max }
    if r <= -32768 { return .min }
    return Int16(r)
}

/// Bounds-checked little-endian reads over the file's bytes: out-of-range reads give 0, so
/// a lying size field can never make the parser trap.
private struct RIFFBytes {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count }

    subscript(i: Int) -> UInt8 { i >= 0 && i < bytes.count ? bytes[i] : 0 }

    func u16(at i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func u32(at i: Int) -> UInt32 {
        UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }
    func fourCC(at i: Int) -> String {
        String(decoding: (i..<(i + 4)).map { self[$0] }, as: UTF8.self)
    }
    /// Four printable ASCII bytes, as every chunk id is.
    func isFourCC(at i: Int) -> Bool {
        guard i >= 0, i + 4 <= bytes.count else { return false }
        return (i..<(i + 4)).allSatisfy { (0x20...0x7E).contains(bytes[$0]) }
    }
}
