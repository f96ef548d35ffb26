import CareLanguage
import CareSpeech
import Foundation
import Logging

/// Decodes live audio on its own thread (pocketsphinx is not thread-safe, so the
/// recognizer is used from this thread only once listening has started).
final class MicrophoneListener: @unchecked Sendable {
    private let source: AudioSource
    private var recognizer: SpeechRecognizer
    private var acceptance: SpeechAcceptance
    private let events: EventQueue
    /// Swaps in a recognizer for the room when it gets noisy or quiet again.
    private let follower: BackgroundFollower
    private let lock = NSLock()
    private var context: ListeningContext = .reading
    private var mutedUntil: Date = .distantPast
    private var muted = false
    private var running = true
    /// An utterance was heard and the conversation has not answered it yet (`answered`).
    private var awaitingAnswer = false
    private let answer = NSCondition()
    /// Signalled once the loop has closed the source.
    private let ended = DispatchSemaphore(value: 0)
    private let logger = Logger(label: "carevoice.microphone")

    /// How long after the assistant stops talking its own echo may still be in the room.
    static let echoTail: TimeInterval = 0.3

    init(source: AudioSource, recognizer: SpeechRecognizer, acceptance: SpeechAcceptance, events: EventQueue,
         remake: ((AudioBackground) throws -> SpeechRecognizer?)? = nil) {
        self.source = source
        self.recognizer = recognizer
        self.acceptance = acceptance
        self.events = events
        follower = BackgroundFollower(remake: remake, makesAhead: true, logger: logger)
    }

    func start(context: ListeningContext) {
        listen(context)
        let thread = Thread { [self] in loop() }
        thread.name = "carevoice.microphone"
        thread.start()
    }

    func listen(_ context: ListeningContext) {
        lock.withLock { self.context = context }
    }

    /// The assistant is speaking: what the microphone hears now is our own voice.
    func mute(_ on: Bool) {
        lock.withLock {
            muted = on
            if !on { mutedUntil = Date().addingTimeInterval(Self.echoTail) }
        }
    }

    /// Listen with this recognizer, judged by this acceptance, from the next chunk on (a learned
    /// voice forgotten, another language). The old one is dropped between chunks, on this
    /// listener's thread.
    func use(_ replacement: SpeechRecognizer, acceptance: SpeechAcceptance) {
        lock.withLock {
            recognizer = replacement
            self.acceptance = acceptance
        }
    }

    func stop() {
        lock.withLock { running = false }
        answered()
    }

    /// The conversation has answered the last utterance heard: the next is heard in the context,
    /// and by the recognizer, that the answer left (`listen`, `use`). Until then the listener
    /// waits, and what the microphone captures meanwhile waits for it. Heard at once, with the
    /// hearing behind the microphone (seconds, on a busy machine), a "yes" said just after a
    /// reading was heard with the reading's grammar, which has no yes, and came to nothing; and
    /// a reading said after "forget my voice", "yes" was heard by the voice just forgotten, as
    /// "call an ambulance" (`LiveMicrophoneTests`, under load).
    func answered() {
        answer.withLock {
            awaitingAnswer = false
            answer.broadcast()
        }
    }

    /// Stops, and waits until the microphone is closed (so that it can be opened again) and the
    /// recognizer is free to be used elsewhere; returns that recognizer.
    func stopAndWait() -> SpeechRecognizer {
        stop()
        ended.wait()
        return lock.withLock { recognizer }
    }

    /// Captured audio waiting to be heard, with whether the assistant was speaking when it was
    /// captured (so that its own voice is not heard however late the chunk is processed).
    private let captured = CaptureQueue()

    private func loop() {
        // The microphone is read on a thread of its own: a decode (0.1-1.5 s) outlasts ALSA's
        // 0.2 s buffer, and what overran it was lost, the start of a quick answer among it.
        let captureEnded = DispatchSemaphore(value: 0)
        let capture = Thread { [self] in
            defer { captured.close(); captureEnded.signal() }
            while lock.withLock({ running }) {
                do {
                    // The recognizer's block (10 ms): read as soon as it is captured, so that the
                    // end of speech is found within a block of when it was heard.
                    guard let samples = try source.read(frames: SpeechRecognizer.blockSamples(source.sampleRate)) else { return }
                    captured.put(samples, muted: lock.withLock { muted || Date() < mutedUntil })
                } catch {
                    logger.warning("microphone stopped: \(error)")
                    return
                }
            }
        }
        capture.name = "carevoice.microphone.capture"
        capture.start()

        var current: ListeningContext?
        var decoding = lock.withLock { recognizer }
        follower.prepare(decoding)
        var floor = NoiseFloor.Stream()
        // What the stream carried since `decoding` was last between utterances, from
        // `SpeechRecognizer.audioBeforeUtterance` before: a recognizer put in within an utterance
        // (a voice forgotten, a language chosen, typed meanwhile) hears that utterance from its
        // start. Handed its last third only, one heard "glucose six point five before breakfast"
        // as "eight before breakfast".
        var sinceBetween: [Int16] = []
        let keptBeforeUtterance = Int(SpeechRecognizer.audioBeforeUtterance * Double(decoding.configuration.sampleRate))
        while lock.withLock({ running }), let (chunk, isMuted) = captured.take() {
            answer.withLock { while awaitingAnswer { answer.wait() } }
            // Stopped while it waited (a voice to learn opens a microphone of its own): nothing more is heard.
            guard lock.withLock({ running }) else { break }
            var samples = chunk
            var handedOver: [Int16] = []
            let (wanted, latest, judge) = lock.withLock { (context, recognizer, acceptance) }
            if latest !== decoding {
                if decoding.isInUtterance { handedOver = sinceBetween }
                logger.debug("another recognizer listens, from \(Double(handedOver.count) / Double(decoding.configuration.sampleRate)) s back")
                decoding = latest
                follower.prepare(decoding)
                current = nil
            }
            if isMuted {
                decoding.reset()
                sinceBetween = []
                continue
            }
            if wanted != current {
                try? decoding.selectGrammar(wanted.rawValue)
                current = wanted
            }
            floor.apply(to: &samples)
            sinceBetween += samples
            // The room's recognizer, when an utterance in this chunk told the room changed.
            var roomRecognizer: SpeechRecognizer?
            for heard in decoding.process(handedOver + samples) {
                var result = heard
                if roomRecognizer == nil { (result, roomRecognizer) = follower.follow(heard, heardBy: decoding) }
                guard !result.text.isEmpty else { continue }
                logger.debug("\(result.logged)")
                // Speech not meant for the assistant arrives as "": it says it did not catch that.
                answer.withLock { awaitingAnswer = true }
                events.put(InputEvent(origin: .voice, event: judge.event(result, in: ListeningContext(rawValue: result.grammar) ?? wanted),
                                      utterance: HeardUtterance(result, sampleRate: decoding.configuration.sampleRate)))
            }
            if let next = roomRecognizer {
                // Made here, between chunks: the capture thread keeps what the microphone says
                // meanwhile, and the new recognizer hears it. Unless another (a language, a voice)
                // was chosen meanwhile.
                lock.withLock { if recognizer === decoding { recognizer = next } }
            }
            if !decoding.isInUtterance && sinceBetween.count > keptBeforeUtterance { sinceBetween.removeFirst(sinceBetween.count - keptBeforeUtterance) }
        }
        stop()
        captureEnded.wait()
        source.close()
        ended.signal()
    }
}

/// Chunks from the capture thread to the listening one, in order.
private final class CaptureQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [(samples: [Int16], muted: Bool)] = []
    private var closed = false

    func put(_ samples: [Int16], muted: Bool) {
        condition.withLock {
            chunks.append((samples, muted))
            condition.signal()
        }
    }

    /// No more chunks will come.
    func close() {
        condition.withLock {
            closed = true
            condition.signal()
        }
    }

    /// The next chunk, waiting for it; nil once the queue is closed and empty.
    func take() -> ([Int16], Bool)? {
        condition.withLock {
            while chunks.isEmpty && !closed { condition.wait() }
            return chunks.isEmpty ? nil : chunks.removeFirst()
        }
    }
}
