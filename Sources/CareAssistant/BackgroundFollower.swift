import CareSpeech
import Foundation
import Logging

/// Follows the room a stream is heard in (`AudioBackground.following`), utterance by utterance,
/// for the microphone's listener and a recording alike: when an utterance tells that the room got
/// noisy (or quiet again), the recognizer made for that room hears from then on.
///
/// The utterance that told the room got noisy is heard again by the noisy room's recognizer: a
/// quiet room's recognizer hears the first words said in a noisy room badly. `bench recognition
/// --noise pink --snr 10 --noise-around 1 --first-of-session` on ee41's 100 readings: 48 right
/// heard as in a quiet room, 74 with the noise taken out; `bench loop --count 100 --seed 5
/// --noise pink --snr 10` (each session a noisy room's first words) saved 71 readings exactly
/// right instead of 37, for about 0.7 s more before that read-back. The other way (a noisy
/// room's recognizer on the first words said in quiet) costs little: they are not heard again.
final class BackgroundFollower {
    /// A recognizer like the one listening, for speech over another background; nil when it
    /// cannot be made (the one listening stays).
    private let remake: ((AudioBackground) throws -> SpeechRecognizer?)?
    /// A recognizer could not be remade for another background: not tried again.
    private var remakeFailed = false
    private let logger: Logger

    init(remake: ((AudioBackground) throws -> SpeechRecognizer?)?, logger: Logger) {
        self.remake = remake
        self.logger = logger
    }

    /// What `decoding` just heard, as the recognizer for its room hears it, and that recognizer
    /// when it is another one (nil: `decoding` goes on hearing).
    func follow(_ result: RecognitionResult, heardBy decoding: SpeechRecognizer) -> (RecognitionResult, SpeechRecognizer?) {
        let before = decoding.configuration.background
        guard let snr = result.signalToNoise, let remake, !remakeFailed else { return (result, nil) }
        let room = before.following(snr)
        guard room != before else { return (result, nil) }
        do {
            guard let next = try remake(room) else { return (result, nil) }
            logger.info("the background is \(room.rawValue): \(room == .noisy ? "taking the noise out" : "no longer taking noise out")")
            guard room == .noisy, let again = next.hearAgain(result, from: decoding) else { return (result, next) }
            if again.text != result.text { logger.debug("heard again with the noise taken out: \(again.text)") }
            return (again, next)
        } catch {
            remakeFailed = true
            logger.warning("no recognizer for a \(room.rawValue) background (\(error)): the one listening stays")
            return (result, nil)
        }
    }
}
