import Foundation
import Testing
@testable import CareSpeech

@Suite struct MixtureWeightsTests {
    /// A sendump as pocketsphinx writes it: length-prefixed strings, an empty one, rows and
    /// columns, then one byte per (feature, density, senone).
    static func sendump(features: Int, densities: Int, senones: Int, strings: [String], bytes: [UInt8]) -> Data {
        var data = Data()
        func int(_ value: Int) { withUnsafeBytes(of: Int32(value).littleEndian) { data.append(contentsOf: $0) } }
        for string in strings {
            int(string.utf8.count + 1)
            data.append(contentsOf: Array(string.utf8) + [0])
        }
        int(0)
        int(densities); int(senones)
        data.append(contentsOf: bytes)
        return data
    }

    @Test func aSendumpIsReadSenoneMajorAsProbabilities() throws {
        // feature 0: density 0 = [0, 10, 20], density 1 = [30, 40, 255] over senones 0...2.
        let data = Self.sendump(features: 1, densities: 2, senones: 3, strings: ["title", "feature_count 1"],
                                bytes: [0, 10, 20, 30, 40, 255])
        let weights = try MixtureWeights.readSendump(data)
        #expect(weights.senones == 3 && weights.features == 1 && weights.densities == 2)
        #expect(weights[0, 0, 0] == 1)
        let perStep = Foundation.log(1.0001) * 1024
        #expect(abs(Double(weights[1, 0, 0]) - exp(-10 * perStep)) < 1e-6)
        #expect(abs(Double(weights[2, 0, 1]) - exp(-255 * perStep)) < 1e-12)
        #expect(abs(Double(weights[1, 0, 1]) - exp(-40 * perStep)) < 1e-6)
    }

    @Test func damagedOrClusteredDumpsAreRefused() {
        let whole = Self.sendump(features: 1, densities: 2, senones: 3, strings: ["x"], bytes: [1, 2, 3, 4, 5, 6])
        #expect(throws: MixtureWeights.FormatError.truncated("weights")) {
            try MixtureWeights.readSendump(whole.dropLast())
        }
        #expect(throws: MixtureWeights.FormatError.truncated("header string")) {
            try MixtureWeights.readSendump(whole.prefix(5))
        }
        let clustered = Self.sendump(features: 1, densities: 2, senones: 3, strings: ["cluster_count 16"], bytes: [])
        #expect(throws: MixtureWeights.FormatError.unsupported("clustered weights (cluster_count 16)")) {
            try MixtureWeights.readSendump(clustered)
        }
    }

    /// bw refuses a mixture_weights file with a checksum line without saying why.
    @Test func theS3FileHasNoChecksumAndAlignedNumbers() throws {
        let weights = MixtureWeights(senones: 2, features: 1, densities: 2, values: [0.5, 0.5, 0.25, 0.75])
        let file = weights.s3File()
        let header = try #require(file.range(of: Data("endhdr\n".utf8)))
        #expect(String(decoding: file[..<header.upperBound], as: UTF8.self).hasPrefix("s3\n"))
        #expect(!String(decoding: file[..<header.upperBound], as: UTF8.self).contains("chksum0"))
        #expect(header.upperBound % 4 == 0)
        let numbers = file[header.upperBound...].withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        #expect(numbers.prefix(5) == [0x1122_3344, 2, 1, 2, 4])
        #expect(numbers.dropFirst(5).map(Float.init(bitPattern:)) == [0.5, 0.5, 0.25, 0.75])
    }

    /// The real model through sphinxtrain and back: mk_s2sendump must rebuild Debian's sendump
    /// from our mixture_weights, except where it floors tiny weights (byte 112 and up, below 1e-5).
    @Test(.enabled(if: VoiceAdapter.Tools().missing() == nil, "sphinxtrain is not installed"))
    func debiansSendumpSurvivesTheRoundTripThroughSphinxtrain() throws {
        let model = SpeechRecognizer.Configuration().modelDirectory
        let original = try Data(contentsOf: URL(fileURLWithPath: model + "/sendump"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mixw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let weights = try MixtureWeights.readSendump(original)
        #expect(weights.senones == 5126 && weights.features == 3 && weights.densities == 128)
        try weights.s3File().write(to: directory.appendingPathComponent("mixture_weights"))
        try runTool(VoiceAdapter.Tools().mdefConverter, ["-text", model + "/mdef", directory.appendingPathComponent("mdef.txt").path])
        try runTool(VoiceAdapter.Tools().trainers + "/mk_s2sendump", [
            "-pocketsphinx", "yes", "-moddeffn", directory.appendingPathComponent("mdef.txt").path,
            "-mixwfn", directory.appendingPathComponent("mixture_weights").path,
            "-sendumpfn", directory.appendingPathComponent("sendump").path])
        let rebuilt = try Data(contentsOf: directory.appendingPathComponent("sendump"))
        #expect(rebuilt.count == original.count)
        let count = 3 * 128 * 5126
        var differing = 0
        for (a, b) in zip(original.suffix(count), rebuilt.suffix(count)) where a != b {
            differing += 1
            if a < 112 { Issue.record("weight byte \(a) came back as \(b)"); break }
        }
        #expect(differing < count / 5, "\(differing) of \(count) weights changed")
    }

    private func runTool(_ program: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(program) failed")
    }
}
