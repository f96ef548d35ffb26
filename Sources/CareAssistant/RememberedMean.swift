import CareSpeech
import CareStore
import Foundation
import Logging

/// The cepstral mean of the person's voice through their microphone, kept from one session to
/// the next (`SpeechRecognizer.learnedMean`). A recognizer starts from the acoustic model's
/// generic mean, so it decodes a session's first seconds of speech again once each utterance has
/// ended, with a mean that includes it: about 250 ms more before the first replies, and its
/// streamed guesses too poor to end an utterance at the first pause. Started from the mean of
/// the last session, it hears them as it hears every later utterance.
///
/// One per background: noise is taken out of a noisy room's audio before its mean is taken.
/// The file is a line of numbers; one that cannot be read is passed over (the session starts
/// from the generic mean, as it would without it).
public enum RememberedMean {
    public static func url(in directory: DataDirectory, background: AudioBackground) -> URL {
        directory.url.appendingPathComponent("microphone-mean-\(background.rawValue).txt")
    }

    /// The mean kept for this background, if there is one that can be read (`--verbose` says
    /// which it was).
    public static func load(from directory: DataDirectory, background: AudioBackground) -> [Float]? {
        let file = url(in: directory, background: background)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        guard let text = try? String(contentsOf: file, encoding: .utf8), let mean = parse(text) else {
            logger.info("the cepstral mean kept last session (\(file.lastPathComponent)) cannot be read: starting from the model's own")
            return nil
        }
        logger.info("starting from the cepstral mean kept last session (\(file.lastPathComponent))")
        return mean
    }

    private static let logger = Logger(label: "carevoice.microphone")

    /// The numbers of the file's first line that is not a comment; nil unless they are all finite.
    static func parse(_ text: String) -> [Float]? {
        guard let line = text.split(separator: "\n").first(where: { !$0.hasPrefix("#") }) else { return nil }
        let fields = line.split(whereSeparator: \.isWhitespace)
        let values = fields.compactMap { Float($0) }
        guard !values.isEmpty, values.count == fields.count, values.allSatisfy(\.isFinite) else { return nil }
        return values
    }

    /// Keeps the mean the recognizer learned this session, if it heard enough speech to learn one.
    public static func keep(from recognizer: SpeechRecognizer, in directory: DataDirectory) throws {
        guard let mean = recognizer.learnedMean else { return }
        try directory.prepare()
        let text = "# CareVoice: the cepstral mean of your voice through your microphone, heard last session\n"
            + mean.map { String($0) }.joined(separator: " ") + "\n"
        try text.write(to: url(in: directory, background: recognizer.configuration.background), atomically: true, encoding: .utf8)
    }
}
