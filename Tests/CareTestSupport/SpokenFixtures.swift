import CareSpeech
import Foundation

/// Speech for tests that recognize it, the same on every run and in any test order.
///
/// espeak-ng carries state from one sentence to the next inside a process: the same sentence
/// said twice in a row differs (46262, then 46259, then 46069 samples), so speech synthesized
/// in the test process depended on which tests had spoken before, and a recognition test passed
/// alone and failed in the full suite. A fresh process always starts from the same state, so
/// every sentence is said by `carevoice say` in a process of its own (about 0.2 s).
public enum SpokenFixtures {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: PCMAudio] = [:]

    /// The sentence as espeak-ng says it, at its own 22050 Hz.
    public static func say(_ text: String, voice: String = "en-us", rate: Int = 150) throws -> PCMAudio {
        let key = "\(voice)|\(rate)|\(text)"
        if let cached = lock.withLock({ cache[key] }) { return cached }
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("said.wav")
        let run = try CLI.run(["say", "--voice", voice, "--rate", String(rate), "--out", file.path, text])
        guard run.status == 0 else { throw FixtureError(description: "carevoice say failed: \(run.stderr)") }
        let audio = try WAVFile.read(file)
        lock.withLock { cache[key] = audio }
        return audio
    }

    /// The sentence at 16 kHz with the noise floor a microphone would add (as a WAV file gets it).
    public static func speech16k(_ text: String, voice: String = "en-us") throws -> [Int16] {
        NoiseFloor.applied(to: Resampler.resample(try say(text, voice: voice), to: 16000)).samples
    }

    /// A recording of a session: half a second of silence, then each sentence followed by
    /// 1.2 s of silence, at espeak-ng's rate unless `rate` says otherwise.
    public static func session(_ sentences: [String], voice: String = "en-us", rate: Int? = nil) throws -> PCMAudio {
        try session(sentences.map { ($0, voice) }, rate: rate)
    }

    /// The same, each sentence said by its own voice (someone else speaking up, or the person
    /// in another language).
    public static func session(_ said: [(sentence: String, voice: String)], rate: Int? = nil) throws -> PCMAudio {
        var samples: [Int16] = []
        var sampleRate = 22050
        for (sentence, voice) in said {
            let audio = try say(sentence, voice: voice)
            sampleRate = audio.sampleRate
            if samples.isEmpty { samples = [Int16](repeating: 0, count: sampleRate / 2) }
            samples += audio.samples + [Int16](repeating: 0, count: sampleRate * 6 / 5)
        }
        let audio = PCMAudio(samples: samples, sampleRate: sampleRate)
        return rate.map { Resampler.resample(audio, to: $0) } ?? audio
    }

    public struct FixtureError: Error, CustomStringConvertible {
        public var description: String
    }
}
