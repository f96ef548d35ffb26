import CareLanguage
import CareSpeech
import CareTestSupport
import Foundation
import Testing

/// Session recordings for `--audio-in`: each sentence said by espeak-ng, then silence.
enum Session {
    static func wav(_ sentences: [String], voice: String = "en-us", rate: Int = 22050,
                    in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("session-\(UUID().uuidString).wav")
        try WAVFile.write(try SpokenFixtures.session(sentences, voice: voice, rate: rate), to: url)
        return url
    }

    /// Chinese said by espeak-ng's pinyin voice, spelled as the assistant spells what it says.
    static func chinese(_ sentences: [String], voice: String = "cmn-latn-pinyin", in directory: URL) throws -> URL {
        let speller = try #require(try resources.pinyinSpeller(for: chineseTable))
        return try wav(sentences.map(speller.spell), voice: voice, in: directory)
    }

    static let resources = ResourceLocator(root: CLI.root)
    static let chineseTable: LocaleTable = try! resources.loadLocale("zh-Hans")
}

struct ReadingJSON: Decodable {
    var id: Int64
    var takenAt: String
    var mmolPerL: Double
    var mgPerDL: Double
    var tag: String?
    var source: String
}

/// The words of each confirmed reading kept to learn the voice from, oldest first.
func confirmedSpeech(in dataDir: URL) -> [String] {
    let folder = dataDir.appendingPathComponent("confirmed-speech")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return files.filter { $0.hasSuffix(".txt") }.sorted().compactMap {
        try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
    }
}

func readings(in dataDir: URL) throws -> [ReadingJSON] {
    let result = try CLI.run(["readings", "--data-dir", dataDir.path, "--json"])
    return try JSONDecoder().decode([ReadingJSON].self, from: Data(result.stdout.utf8))
}
