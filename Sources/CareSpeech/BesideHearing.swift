import Foundation

/// A recognizer hearing an utterance beside the listening one, on a thread of its own: a noisy
/// room's beside a quiet room's, to take over (`SpeechRecognizer.makeOverNoise`), or a quiet
/// room's beside a noisy room's, to hear calls for help the noise removal hides
/// (`SpeechRecognizer.makeNoiseLeftIn`). Made and fed on the listening
/// thread, it left the hearing behind the sound: making it takes about 0.7 s, it catches up with
/// everything said so far at once, and then both hear the rest. The reply waited for all of that.
/// Here the listening thread only hands the work over, and the machine's other core does it.
///
/// The recognizer is made on that thread and touched only there until `take` hands it to the
/// listening thread (`queue.sync` orders the two). Decoders of different recognizers may decode
/// at once; their setup is serialised (`SpeechRecognizer.setupLock`).
final class BesideHearing: @unchecked Sendable {
    private let queue = DispatchQueue(label: "carevoice.speech.beside-hearing")
    // Touched on `queue` only.
    /// Makes the recognizer when it is first needed; nil once asked.
    private var make: (() -> SpeechRecognizer?)?
    /// Whether what `make` made can hear the listening recognizer's audio.
    private let usable: (SpeechRecognizer) -> Bool
    private var recognizer: SpeechRecognizer?
    /// The recognizer hears an utterance (`start`) that has not ended.
    private var hears = false
    /// Seconds the work is behind the audio handed over, when its last piece is done: each
    /// piece of work waits for the ones before it, and each piece of audio arrives as long after
    /// the one before it as it lasts.
    private var lag = 0.0

    init(make: @escaping () -> SpeechRecognizer?, usable: @escaping (SpeechRecognizer) -> Bool) {
        self.make = make
        self.usable = usable
    }

    /// Starts hearing an utterance with `grammar`, from its audio so far (as the listening
    /// recognizer heard it), making the recognizer first if it is not made yet.
    /// - Parameter arriving: seconds of audio since the last work was handed over.
    func start(grammar: String, heard audio: [Int16], leadIn: Int, paddingLevel: Double, role: SpeechRecognizer.BesideRole,
               arriving: Double) {
        queue.async { [self] in
            timed(arriving: arriving) {
                makeRecognizer()
                hears = recognizer?.startBeside(grammar: grammar, heard: audio, leadIn: leadIn, paddingLevel: paddingLevel, role: role) == true
            }
        }
    }

    /// Hears the next block of the utterance.
    func hear(_ block: [Int16], arriving: Double) {
        queue.async { [self] in
            timed(arriving: arriving) {
                if hears { recognizer?.hearBeside(block) }
            }
        }
    }

    /// Makes the recognizer now, if it is not made yet, so that the first utterance it hears
    /// does not wait for it, and has it begin a session from this mean, if one is given
    /// (`SpeechRecognizer.beginSession(startingMean:)`).
    func prepare(startingMean: [Float]?) {
        queue.async { [self] in
            makeRecognizer()
            if let startingMean { recognizer?.beginSession(startingMean: startingMean) }
        }
    }

    /// Called on `queue`.
    private func makeRecognizer() {
        guard let make else { return }
        self.make = nil
        recognizer = make().flatMap { usable($0) ? $0 : nil }
    }

    /// The listening recognizer begins a session (`SpeechRecognizer.beginSession`): so does
    /// this one, where it is made.
    func beginSession() {
        queue.async { [self] in
            recognizer?.beginSession()
            hears = false
            lag = 0
        }
    }

    /// Forgets the utterance in progress (`SpeechRecognizer.forgetBeside`).
    func reset() {
        queue.async { [self] in
            if hears { recognizer?.forgetBeside() }
            hears = false
            lag = 0
        }
    }

    /// Whether the words heard so far end the utterance at this pause
    /// (`SpeechRecognizer.endsEarlyBeside`), once the work has caught up with the audio; nil when
    /// the recognizer does not hear it. The listening waits for that: where this recognizer is
    /// behind, the reply comes later than after the whole half second's pause, which gave it time
    /// to catch up (`bench loop --noise pink --snr 10 --mean-per-voice`: reading replies p95 530
    /// -> 822 ms, median 478 -> 274, of readings heard as said).
    func endsEarly(afterLongerPause: Bool, afterLongestPause: Bool, pause: Double) -> Bool? {
        queue.sync {
            guard hears, let recognizer else { return nil }
            return recognizer.endsEarlyBeside(afterLongerPause: afterLongerPause, afterLongestPause: afterLongestPause, pause: pause)
        }
    }

    /// Ends the utterance and waits for its words (`SpeechRecognizer.endBeside`); nil when the
    /// recognizer did not hear it (none could be made, or it has not the grammar).
    /// - Returns: also how far the work was behind the audio when the utterance ended, and how
    ///   long ending it took.
    func end(wholeWithItsOwnMean: Bool = false) -> (result: RecognitionResult, behind: Double, ending: Double)? {
        queue.sync {
            defer {
                hears = false
                lag = 0
            }
            guard hears, let recognizer else { return nil }
            let started = Date()
            let result = recognizer.endBeside(wholeWithItsOwnMean: wholeWithItsOwnMean)
            return (result, lag, Date().timeIntervalSince(started))
        }
    }

    /// The recognizer, for the listening thread to go on with; nil when none was made or it
    /// could not be used. This one is done with it.
    func take() -> SpeechRecognizer? {
        queue.sync {
            defer {
                recognizer = nil
                make = nil
                hears = false
            }
            if hears { recognizer?.forgetBeside() }
            return recognizer
        }
    }

    private func timed(arriving: Double, _ work: () -> Void) {
        let started = Date()
        work()
        lag = max(0, lag - arriving) + Date().timeIntervalSince(started)
    }
}
