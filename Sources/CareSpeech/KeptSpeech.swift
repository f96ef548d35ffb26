import Foundation

/// Recordings of a person whose words are known, kept to learn their voice from: the enrollment
/// phrases with the voice learned from them (`AdaptedVoice.phrases`), and the readings they
/// confirmed in use (CareAssistant's `ConfirmedSpeech`).
///
/// One recording per utterance (16-bit WAV at the recognizer's rate, as the decoder heard it) and
/// its words beside it, numbered in the order kept; only the latest `limit` are kept. They stay
/// in the private data directory, and "forget my voice" deletes them with the voice.
public struct KeptSpeech: Sendable {
    public let directory: URL
    /// The most recordings kept: the oldest go first.
    public let limit: Int

    public init(directory: URL, limit: Int = .max) {
        self.directory = directory
        self.limit = limit
    }

    /// Keeps one utterance and its words, then lets the oldest go beyond `limit`.
    public func keep(_ audio: PCMAudio, words: [String]) throws {
        guard !audio.samples.isEmpty, !words.isEmpty else { return }
        let fm = FileManager.default
        try fm.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let next = (names().last.flatMap { Int($0) } ?? 0) + 1
        let name = String(format: "%06d", next)
        try words.joined(separator: " ").write(to: directory.appendingPathComponent("\(name).txt"), atomically: true, encoding: .utf8)
        try WAVFile.write(audio, to: directory.appendingPathComponent("\(name).wav"))
        for old in names().dropLast(limit) {
            for suffix in ["wav", "txt"] { try? fm.removeItem(at: directory.appendingPathComponent("\(old).\(suffix)")) }
        }
    }

    /// The recordings kept, oldest first. One that cannot be read is passed over.
    public func recordings() -> [(audio: PCMAudio, words: [String])] {
        names().compactMap { name in
            guard let text = try? String(contentsOf: directory.appendingPathComponent("\(name).txt"), encoding: .utf8),
                  let audio = try? WAVFile.read(directory.appendingPathComponent("\(name).wav")) else { return nil }
            let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
            return words.isEmpty ? nil : (audio, words)
        }
    }

    /// How many are kept.
    public var count: Int { names().count }

    /// Deletes them all; whether there were any.
    @discardableResult
    public func forget() throws -> Bool {
        guard FileManager.default.fileExists(atPath: directory.path) else { return false }
        try FileManager.default.removeItem(at: directory)
        return true
    }

    /// The numbers of the recordings whose words are kept too, in order.
    private func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let texts = Set(files.filter { $0.hasSuffix(".txt") }.map { String($0.dropLast(4)) })
        return files.filter { $0.hasSuffix(".wav") }.map { String($0.dropLast(4)) }
            .filter { texts.contains($0) && Int($0) != nil }.sorted()
    }
}
