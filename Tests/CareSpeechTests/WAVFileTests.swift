import CareModel
import CareTestSupport
import Foundation
import Testing
@testable import CareSpeech

@Suite struct WAVFileTests {
    typealias Bytes = TestAudio.Bytes

    func pcm16(_ samples: [Int16]) -> [UInt8] {
        samples.flatMap { s -> [UInt8] in
            let v = UInt16(bitPattern: s)
            return [UInt8(v & 0xFF), UInt8(v >> 8)]
        }
    }

    @Test func roundTripKeepsEverySampleAndTheRate() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let samples: [Int16] = [0, 1, -1, .max, .min, 12345, -12345] + (0..<5000).map { Int16(truncatingIfNeeded: $0 &* 7919) }
        for rate in [8000, 16000, 22050, 44100, 48000] {
            let audio = PCMAudio(samples: samples, sampleRate: rate)
            let url = dir.appendingPathComponent("a\(rate).wav")
            try WAVFile.write(audio, to: url)
            #expect(try WAVFile.read(url) == audio)
            #expect((try Data(contentsOf: url)).count == 44 + samples.count * 2)
        }
        let empty = PCMAudio(samples: [], sampleRate: 16000)
        try WAVFile.write(empty, to: dir.appendingPathComponent("empty.wav"))
        #expect(try WAVFile.read(dir.appendingPathComponent("empty.wav")) == empty)
    }

    @Test func durationIsSamplesOverRate() {
        #expect(PCMAudio(samples: [Int16](repeating: 0, count: 8000), sampleRate: 16000).duration == 0.5)
        #expect(PCMAudio(samples: [1], sampleRate: 0).duration == 0)
    }

    @Test func stereoIsMixedDownToMono() throws {
        // Interleaved L, R frames: (1000, 3000), (-2000, 0), (32767, 32767)
        let body = pcm16([1000, 3000, -2000, 0, 32767, 32767])
        let data = Bytes.wave(chunk("fmt ", Bytes.fmt(tag: 1, channels: 2, rate: 44100, bits: 16)) + chunk("data", body))
        #expect(try WAVFile.decode(data) == PCMAudio(samples: [2000, -1000, 32767], sampleRate: 44100))
    }

    @Test func eightBitUnsignedAndOtherWidthsAndFloat() throws {
        let u8 = Bytes.wave(chunk("fmt ", Bytes.fmt(tag: 1, channels: 1, rate: 8000, bits: 8)) + chunk("data", [128, 255, 0, 192]))
        #expect(try WAVFile.decode(u8).samples == [0, 127 * 256, -32768, 64 * 256])

        let s24 = Bytes.wave(chunk("fmt ", Bytes.fmt(tag: 1, channels: 1, rate: 8000, bits: 24))
            + chunk("data", [0x00, 0x10, 0x00, 0x00, 0x00, 0x80]))   // +4096 and -8388608 (full scale)
        #expect(try WAVFile.decode(s24).samples == [16, -32768])

        var f = Bytes()
        for x: Float in [0.5, -1.0, 2.0, .nan] { f.u32(x.bitPattern) }
        let f32 = Bytes.wave(chunk("fmt ", Bytes.fmt(tag: 3, channels: 1, rate: 48000, bits: 32)) + chunk("data", f.data))
        #expect(try WAVFile.decode(f32) == PCMAudio(samples: [16384, -32768, 32767, 0], sampleRate: 48000))
    }

    @Test func extensibleFormatIsUnderstood() throws {
        var fmt = Bytes.fmt(tag: 0xFFFE, channels: 1, rate: 16000, bits: 16)
        var ext = Bytes()
        ext.u16(22); ext.u16(16); ext.u32(4)       // cbSize, valid bits, channel mask
        ext.u16(1)                                  // KSDATAFORMAT_SUBTYPE_PCM starts with 0x0001
        ext.data += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        fmt += ext.data
        let data = Bytes.wave(chunk("fmt ", fmt) + chunk("data", pcm16([7, -7])))
        #expect(try WAVFile.decode(data) == PCMAudio(samples: [7, -7], sampleRate: 16000))
    }

    @Test func unknownChunksAndOddPaddingAreSkipped() throws {
        let fmt = chunk("fmt ", Bytes.fmt(tag: 1, channels: 1, rate: 16000, bits: 16))
        let list = Array("INFOISFT\u{5}\0\0\0Lavf\0".utf8)          // 17 bytes: odd
        let audio = PCMAudio(samples: [1, 2, 3], sampleRate: 16000)
        // Properly padded odd chunk, before and after fmt.
        #expect(try WAVFile.decode(Bytes.wave(chunk("LIST", list) + fmt + chunk("data", pcm16([1, 2, 3])))) == audio)
        #expect(try WAVFile.decode(Bytes.wave(fmt + chunk("LIST", list) + chunk("fact", [4, 0, 0, 0]) + chunk("data", pcm16([1, 2, 3])))) == audio)
        // The pad byte forgotten, as some writers do.
        #expect(try WAVFile.decode(Bytes.wave(fmt + chunk("LIST", list, pad: false) + chunk("data", pcm16([1, 2, 3])))) == audio)
        // An odd-sized data chunk (a half sample) followed by its pad and a trailing chunk.
        #expect(try WAVFile.decode(Bytes.wave(fmt + chunk("data", pcm16([1, 2, 3]) + [9]) + chunk("LIST", list))) == audio)
    }

    @Test func streamingPlaceholderSizeReadsToTheEnd() throws {
        var data = [UInt8](Bytes.wave(chunk("fmt ", Bytes.fmt(tag: 1, channels: 1, rate: 8000, bits: 16)) + chunk("data", pcm16([5, 6, 7]))))
        data.replaceSubrange((data.count - 10)..<(data.count - 6), with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(try WAVFile.decode(Data(data)).samples == [5, 6, 7])
    }

    // MARK: corrupt files

    var valid: Data {
        Bytes.wave(chunk("fmt ", Bytes.fmt(tag: 1, channels: 1, rate: 16000, bits: 16)) + chunk("data", pcm16((0..<200).map { Int16($0 * 100) })))
    }

    @Test func everyTruncationIsReportedAsTruncated() throws {
        let bytes = [UInt8](valid)
        for length in 1..<bytes.count {
            #expect(throws: AudioFileError.truncated, "length \(length)") {
                try WAVFile.decode(Data(bytes[0..<length]))
            }
        }
    }

    @Test func headerOnlyFiles() throws {
        // A 44-byte header that promises 400 bytes of audio and has none.
        let header = valid.prefix(44)
        #expect(throws: AudioFileError.truncated) { try WAVFile.decode(header) }
        // RIFF/WAVE and nothing else.
        #expect(throws: AudioFileError.truncated) { try WAVFile.decode(Bytes.wave([])) }
        // A header that honestly declares no audio is an empty recording, not an error.
        let empty = Bytes.wave(chunk("fmt ", Bytes.fmt(tag: 1, channels: 1, rate: 16000, bits: 16)) + chunk("data", []))
        #expect(try WAVFile.decode(empty) == PCMAudio(samples: [], sampleRate: 16000))
    }

    @Test func zeroLengthAndNonWAVFiles() throws {
        #expect(throws: AudioFileError.notWAV) { try WAVFile.decode(Data()) }
        #expect(throws: AudioFileError.notWAV) { try WAVFile.decode(Data("hello, this is not audio at all".utf8)) }
        #expect(throws: AudioFileError.notWAV) { try WAVFile.decode(Data("RIFF\u{4}\0\0\0AVI LIST".utf8)) }
        #expect(throws: AudioFileError.unsupportedFormat("big-endian (RIFX)")) {
            try WAVFile.decode(Data("RIFX\u{4}\0\0\0WAVEfmt ".utf8))
        }
        // A zero-length file on disk.
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("zero.wav")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))
        #expect(throws: AudioFileError.notWAV) { try WAVFile.read(url) }
    }

    @Test func randomBytesNeverCrash() throws {
        var rng = SeededGenerator(seed: 42)
        for length in [1, 4, 11, 12, 44, 100, 1000] {
            for _ in 0..<50 {
                let data = Data((0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
                #expect(throws: AudioFileError.self) { try WAVFile.decode(data) }
            }
        }
        // Damage a valid file byte by byte: it may still decode, but must never trap.
        let original = [UInt8](valid)
        for _ in 0..<2000 {
            var bytes = original
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            do { _ = try WAVFile.decode(Data(bytes)) } catch is AudioFileError {} catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test func unsupportedEncodingsAreNamed() throws {
        let adpcm = Bytes.wave(chunk("fmt ", Bytes.fmt(tag: 2, channels: 1, rate: 8000, bits: 4)) + chunk("data", [1, 2, 3, 4]))
        #expect(throws: AudioFileError.unsupportedFormat("compressed (format 2)")) { try WAVFile.decode(adpcm) }
        let twelve = Bytes.wave(chunk("fmt ", Bytes.fmt(tag: 1, channels: 1, rate: 8000, bits: 12)) + chunk("data", [1, 2, 3, 4]))
        #expect(throws: AudioFileError.unsupportedFormat("12-bit")) { try WAVFile.decode(twelve) }
        let noChannels = Bytes.wave(chunk("fmt ", Bytes.fmt(tag: 1, channels: 0, rate: 8000, bits: 16)) + chunk("data", [1, 2]))
        #expect(throws: AudioFileError.unsupportedFormat("0 channels")) { try WAVFile.decode(noChannels) }
        let noRate = Bytes.wave(chunk("fmt ", Bytes.fmt(tag: 1, channels: 1, rate: 0, bits: 16)) + chunk("data", [1, 2]))
        #expect(throws: AudioFileError.unsupportedFormat("sample rate 0")) { try WAVFile.decode(noRate) }
    }

    @Test func unreadablePathsNameThePath() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/carevoice/missing.wav")
        #expect(throws: AudioFileError.unreadable(missing.path)) { try WAVFile.read(missing) }
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: AudioFileError.unreadable(dir.path)) { try WAVFile.read(dir) }
    }

    @Test func realRecordingsOfTheCorpusRead() throws {
        let audio = try WAVFile.read(Corpora.fsdd(7, "jackson", take: 3))
        #expect(audio.sampleRate == 8000)
        #expect(audio.duration > 0.2 && audio.duration < 2)
        #expect(audio.rmsDBFS > -40)
    }

    private func chunk(_ id: String, _ body: [UInt8], pad: Bool = true) -> [UInt8] {
        var b = Bytes()
        b.chunk(id, body, pad: pad)
        return b.data
    }
}
