import CareSpeech
import CareTestSupport
import Foundation

/// Session recordings for `--audio-in`: each sentence said by espeak-ng, then silence.
enum Session {
    static func wav(_ sentences: [String], voice: String = "en-us", rate: Int = 22050,
                    in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("session-\(UUID().uuidString).wav")
        try WAVFile.write(try SpokenFixtures.session(sentences, voice: voice, rate: rate), to: url)
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
