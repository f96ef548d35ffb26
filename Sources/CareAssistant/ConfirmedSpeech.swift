import CareLanguage
import CareSpeech
import CareStore
import Foundation

extension DataDirectory {
    /// Where the recordings of confirmed readings are kept (`ConfirmedSpeech`).
    public var confirmedSpeechDirectory: URL { url.appendingPathComponent("confirmed-speech") }

    /// "Forget my voice": the learned voice, and the recordings it would be learned from again;
    /// whether there was either.
    public func forgetVoice() throws -> Bool {
        let hadVoice = FileManager.default.fileExists(atPath: voiceDirectory.path)
        try AdaptedVoice.forget(in: voiceDirectory)
        let hadRecordings = try ConfirmedSpeech(directory: confirmedSpeechDirectory).forget()
        return hadVoice || hadRecordings
    }
}

/// What the person said and then confirmed, kept to learn their voice from without asking them
/// to enroll: a reading saved exactly as it was heard has words known to be right, and so does
/// one whose number they corrected on the line (`wordsSaid`).
///
/// A voice learned so from 12 readings each person confirmed took the rest of their readings
/// from 58 to 136 of 140 (five espeak-ng voices used in no calibration, `bench corpus --readings
/// 200 --seed 45`, each voice's first 12 readings heard right learned from with the words heard:
/// `bench enrollment --from-heard --count 12`). With the readings heard wrong only in their
/// number learned from too, as corrected (`--corrected`), the first 12 are not the same dozen:
/// 79 to 140 of 140. At 10 dB of pink noise, learned in that noise: 57 to 114 of 141 heard right
/// only, 78 to 121 of 140 with corrections.
///
/// One recording per utterance (16-bit WAV at the recognizer's rate, as the decoder heard it) and
/// its words beside it; only the latest `kept` are kept. They stay in the private data directory,
/// and "forget my voice" deletes them with the voice.
public struct ConfirmedSpeech {
    public let directory: URL
    /// The most recordings kept: the oldest go first.
    public static let kept = 40

    public init(directory: URL) { self.directory = directory }

    /// Keeps one utterance and its words, then lets the oldest go beyond `kept`.
    public func keep(_ audio: PCMAudio, words: [String]) throws {
        guard !audio.samples.isEmpty, !words.isEmpty else { return }
        let fm = FileManager.default
        try fm.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let next = (names().last.flatMap { Int($0) } ?? 0) + 1
        let name = String(format: "%06d", next)
        try words.joined(separator: " ").write(to: directory.appendingPathComponent("\(name).txt"), atomically: true, encoding: .utf8)
        try WAVFile.write(audio, to: directory.appendingPathComponent("\(name).wav"))
        for old in names().dropLast(Self.kept) {
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

    /// Whether to learn the voice from `kept` confirmed recordings now, given the voice stored
    /// (its record, nil when none): from the first `minimumToLearn`, and again each time
    /// `moreToLearnAgain` more were kept since. A voice learned from enrollment phrases stands:
    /// they were chosen to cover every digit and word.
    public static func shouldLearn(kept: Int, stored: AdaptedVoice.Record?) -> Bool {
        guard kept >= minimumToLearn else { return false }
        guard let stored else { return true }
        guard stored.source == .confirmedSpeech else { return false }
        return kept >= stored.utterances + moreToLearnAgain
    }

    /// Whether a reading heard with this fit is kept once confirmed: not one heard as a guess
    /// (below `SpeechAcceptance.confidentFit`), nor one whose fit was not measured. A yes can be
    /// given to a read-back that was wrong. Learned from the first 12 readings of each held-out
    /// voice above whatever was heard (23 of the 60 heard wrong), the rest went from 81 to 119 of
    /// 140; from the first 12 that fitted at least -20 (18 wrong), 78 to 128; from only those
    /// heard right (`bench enrollment --from-heard`), 58 to 136.
    public static func keeps(fit: Double?) -> Bool {
        guard let fit else { return false }
        return fit >= SpeechAcceptance.confidentFit
    }

    /// The words of a reading heard as `heard` (understood as `heardAs`) and saved as `saved`,
    /// to keep with its recording: the words heard when it was saved as heard; when only its
    /// number differs (the person corrected it on the editable line), the words heard with that
    /// number said as saved. Nil when more than the number changed, or the words heard hold no
    /// number or more than one; and in a language whose numbers are not words of their own.
    /// The recording is checked against these words again before a voice is learned from it.
    public static func wordsSaid(heard: String, heardAs: GlucoseDraft, saved: GlucoseDraft, numbers: NumberWords) -> [String]? {
        let words = VoiceEnrollment.words(heard)
        if heardAs == saved { return words }
        var corrected = heardAs
        corrected.number = saved.number
        guard corrected == saved, !numbers.isChinese else { return nil }
        var spans: [Range<Int>] = []
        var index = 0
        while index < words.count {
            if let (_, consumed) = numbers.parse(words[index...]), consumed > 0 {
                spans.append(index..<index + consumed)
                index += consumed
            } else {
                index += 1
            }
        }
        guard spans.count == 1, let span = spans.first else { return nil }
        return Array(words[..<span.lowerBound]) + VoiceEnrollment.words(numbers.spell(saved.number)) + Array(words[span.upperBound...])
    }

    /// Readings confirmed before a voice is first learned from them (the 12 measured above).
    public static let minimumToLearn = 12
    /// More confirmed since the voice was last learned before it is learned again.
    public static let moreToLearnAgain = 6
}
