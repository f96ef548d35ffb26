import CareSpeech
import Foundation

/// Runs the real `carevoice` binary that `swift build` produced.
enum CLI {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL {
        for configuration in ["debug", "release"] {
            let url = root.appendingPathComponent(".build/\(configuration)/carevoice")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return root.appendingPathComponent(".build/debug/carevoice")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()
        if let input { inp.fileHandleForWriting.write(Data(input.utf8)) }
        try inp.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Session recordings made with espeak-ng inside the test: each sentence, then silence.
enum Session {
    static func wav(_ sentences: [String], voice: String = "en-us", rate: Int = 22050, stereo: Bool = false,
                    in directory: URL) throws -> URL {
        let synthesizer = try SpeechSynthesizer.shared()
        var samples = [Int16](repeating: 0, count: synthesizer.sampleRate / 2)
        for sentence in sentences {
            samples += try synthesizer.synthesize(sentence, voice: voice).samples
            samples += [Int16](repeating: 0, count: synthesizer.sampleRate * 6 / 5)
        }
        var audio = PCMAudio(samples: samples, sampleRate: synthesizer.sampleRate)
        if rate != audio.sampleRate { audio = Resampler.resample(audio, to: rate) }
        let url = directory.appendingPathComponent("session-\(UUID().uuidString).wav")
        try WAVFile.write(audio, to: url)
        return url
    }
}

struct ReadingJSON: Decodable {
    var id: Int64
    var takenAt: String
    var mmolPerL: Double
    var mgPerDL: Double
    var tag: String?
    var source: String
}

func readings(in dataDir: URL) throws -> [ReadingJSON] {
    let result = try CLI.run(["readings", "--data-dir", dataDir.path, "--json"])
    return try JSONDecoder().decode([ReadingJSON].self, from: Data(result.stdout.utf8))
}
