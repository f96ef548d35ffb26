import CareSpeech
import Foundation
import Logging

/// Follows the room a stream is heard in (`AudioBackground.following`), utterance by utterance,
/// for the microphone's listener and a recording alike: when an utterance tells that the room got
/// noisy, the recognizer made for that room hears from then on; when one tells it is quiet
/// again, the quiet room's is made meanwhile and hears from the next quiet utterance on.
///
/// The utterance that told the room got noisy is heard by the noisy room's recognizer too: a
/// quiet room's recognizer hears the first words said in a noisy room badly. That recognizer is
/// made as soon as the quiet room's listens, on a thread of its own, and stands by; once an
/// utterance sounds noisy, it hears it beside the quiet room's (`prepare`,
/// `SpeechRecognizer.makeOverNoise`), from its start where the room was not heard long enough
/// before it to tell at once. A recording (`--audio-in`) is heard as fast as it can be,
/// with no greeting said before its words to make it in, and most are of a quiet room: there it
/// is made once an utterance sounds noisy, and catches up with it from its start. Where it was
/// not made by the utterance's end, it hears it again once it has ended.
/// `bench recognition --noise pink --snr 10 --noise-around 1 --first-of-session` on ee41's 100
/// readings: 48 right heard as in a quiet room, 74 with the noise taken out; `bench loop
/// --count 100 --seed 5 --noise pink --snr 10` (each session a noisy room's first words) saved
/// 71 readings exactly right instead of 37, read back a median 525 ms (p95 1.25 s) after the
/// speech, how far the hearing was behind counted (`RecognitionResult.behind`). The other way
/// (a noisy room's recognizer on the first words said in quiet) costs little: they are not
/// heard again.
final class BackgroundFollower {
    /// A recognizer like the one listening, for speech over another background; nil when it
    /// cannot be made (the one listening stays).
    private let remake: ((AudioBackground) throws -> SpeechRecognizer?)?
    /// A recognizer could not be remade for another background: not tried again. Set on the
    /// thread that makes the noisy room's recognizer beside the listening one, too.
    private let remakeFailed = Locked(false)
    /// Whether the noisy room's recognizer is made as soon as a quiet room's listens (a
    /// microphone), or only once an utterance sounds noisy (a recording).
    private let makesAhead: Bool
    /// The quiet room's recognizer, made on a thread of its own once an utterance told that the
    /// room `listening` hears (a noisy one's) is quiet again: nil while it is made (or could not
    /// be). It hears from the next utterance that is quiet too (`follow`).
    private let quietAgain = Locked<QuietAgain?>(nil)

    /// Each making of a quiet room's recognizer, counted (`QuietAgain.making`).
    private var quietMakings = 0

    /// A quiet room's recognizer made for the noisy room's recognizer `listening`.
    private struct QuietAgain {
        /// Weak: one that stopped listening (another language chosen) is not kept for this.
        weak var listening: SpeechRecognizer?
        /// Which making: one that ends after another began is not kept.
        let making: Int
        var made: SpeechRecognizer?
    }
    private let logger: Logger

    init(remake: ((AudioBackground) throws -> SpeechRecognizer?)?, makesAhead: Bool, logger: Logger) {
        self.remake = remake
        self.makesAhead = makesAhead
        self.logger = logger
    }

    /// Lets `recognizer`, where it is a quiet room's, have the noisy room's recognizer hear an
    /// utterance that sounds noisy beside it (`SpeechRecognizer.makeOverNoise`), instead of
    /// hearing it again after it, and, where it `makesAhead`, has that one made now, on a thread
    /// of its own (`remake` is called there), while the greeting or a reply is said: made once
    /// the utterance sounded noisy, the first reading's reply in a noisy room waited for its
    /// making, 1.3-1.7 s on a slow machine (`bench loop --count 20 --seed 5 --noise pink --snr
    /// 10`: reading replies median 2293 and 3619 ms; made ahead, 1212, 1568 and 2443 ms). It
    /// costs a quiet room that stays quiet a second recognizer's memory (`carevoice --audio-in`
    /// on a quiet recording of a reading and a yes, made ahead: peak 289 -> 506 MiB, and 1.5 s
    /// more processing).
    func prepare(_ recognizer: SpeechRecognizer) {
        guard let remake, recognizer.configuration.background == .quiet else { return }
        recognizer.makeOverNoise = { [weak self] in
            guard let self, !self.remakeFailed.value else { return nil }
            do {
                return try remake(.noisy)
            } catch {
                self.remakeFailed.value = true
                self.logger.warning("no recognizer for a noisy background (\(error)): the one listening stays")
                return nil
            }
        }
        if makesAhead { recognizer.prepareOverNoise() }
    }

    /// What `decoding` just heard, as the recognizer for its room hears it, and that recognizer
    /// when it is another one (nil: `decoding` goes on hearing).
    func follow(_ result: RecognitionResult, heardBy decoding: SpeechRecognizer) -> (RecognitionResult, SpeechRecognizer?) {
        let before = decoding.configuration.background
        guard let snr = result.signalToNoise, let remake else { return (result, nil) }
        let room = before.following(snr)
        guard room != before else { return (result, nil) }
        if room == .quiet { return (result, quietRecognizer(after: decoding)) }
        // Made while the utterance was said, and heard it beside `decoding` (`prepare`).
        let made = decoding.takeOverNoise()
        if let made, var beside = made.lastUtterance, beside.grammar == result.grammar {
            logger.info("the background is noisy: taking the noise out")
            // `result` is the last utterance `decoding` ended: two never end in one block. The
            // listening was behind as far as `result` says, and that one's thread further still.
            beside.endpoint = result.endpoint
            beside.behind += result.behind
            if beside.text != result.text { logger.debug("heard with the noise taken out: \(beside.text)") }
            // Its hearing with the noise left in is made while the reply is said, not when the
            // next utterance ends, and starts from what `decoding` learned of the room.
            made.recognizer.prepareNoiseLeftIn(meanFrom: decoding)
            // A call for help heard with the noise left in (by `decoding`) is answered all the same.
            return (decoding.heardFirst(beside, other: result), made.recognizer)
        }
        do {
            let started = Date()
            guard !remakeFailed.value || made != nil, let next = try made?.recognizer ?? remake(room) else { return (result, nil) }
            logger.info("the background is noisy: taking the noise out")
            // Where the recognizer is made now, not while the utterance was said (`prepare`), the
            // reply waits for it too: its making counts in the decode.
            var heard = result
            heard.decodingTime += Date().timeIntervalSince(started)
            // Once it has heard the utterance again, not before: the two would share the cores.
            defer { next.prepareNoiseLeftIn(meanFrom: decoding) }
            guard let again = next.hearAgain(heard, from: decoding) else { return (heard, next) }
            if again.text != result.text { logger.debug("heard again with the noise taken out: \(again.text)") }
            return (next.heardFirst(again, other: heard), next)
        } catch {
            remakeFailed.value = true
            logger.warning("no recognizer for a noisy background (\(error)): the one listening stays")
            return (result, nil)
        }
    }

    /// The quiet room's recognizer to hear from now on, once an utterance heard by `noisy` (a
    /// noisy room's) told the room is quiet again: the one made since an earlier such utterance,
    /// else nil, and it is made now on a thread of its own. Made within this call, the reply to
    /// the utterance that told waited for the making, and needed nothing of it: the noisy room's
    /// recognizer heard that utterance. One made for another recognizer (before a language was
    /// chosen, or a voice learned) is not used.
    private func quietRecognizer(after noisy: SpeechRecognizer) -> SpeechRecognizer? {
        guard let remake, !remakeFailed.value else { return nil }
        var ready: SpeechRecognizer?, making: Int?
        quietAgain.mutate { state in
            guard let current = state, current.listening === noisy else {
                quietMakings += 1
                making = quietMakings
                state = QuietAgain(listening: noisy, making: quietMakings)
                return
            }
            ready = current.made
            if ready != nil { state = nil }
        }
        if let ready {
            logger.info("the background is quiet: no longer taking noise out")
            return ready
        }
        guard let making else { return nil }
        let thread = Thread { [weak self] in
            do {
                let made = try remake(.quiet)
                self?.quietAgain.mutate { state in
                    guard state?.making == making else { return }
                    // Not made (this language is not heard in quiet): asked for again next time.
                    if let made { state?.made = made } else { state = nil }
                }
            } catch {
                self?.remakeFailed.value = true
                self?.logger.warning("no recognizer for a quiet background (\(error)): the one listening stays")
            }
        }
        thread.name = "carevoice.quiet-room"
        thread.start()
        return nil
    }
}
