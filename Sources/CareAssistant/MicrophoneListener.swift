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
        follower = BackgroundFollower(remake: remake, logger: logger)
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
        while lock.withLock({ running }), let (chunk, isMuted) = captured.take() {
            var samples = chunk
            let (wanted, latest, judge) = lock.withLock { (context, recognizer, acceptance) }
            if latest !== decoding {
                decoding = latest
                follower.prepare(decoding)
                current = nil
            }
            if isMuted {
                decoding.reset()
                continue
            }
            if wanted != current {
                try? decoding.selectGrammar(wanted.rawValue)
                current = wanted
            }
            floor.apply(to: &samples)
            // The room's recognizer, when an utterance in this chunk told the room changed.
            var roomRecognizer: SpeechRecognizer?
            for heard in decoding.process(samples) {
                var result = heard
                if roomRecognizer == nil { (result, roomRecognizer) = follower.follow(heard, heardBy: decoding) }
                guard !result.text.isEmpty else { continue }
                logger.debug("\(result.logged)")
                // Speech not meant for the assistant arrives as "": it says it did not catch that.
                events.put(InputEvent(origin: .voice, event: judge.event(result, in: ListeningContext(rawValue: result.grammar) ?? wanted),
                                      utterance: HeardUtterance(result, sampleRate: decoding.configuration.sampleRate)))
            }
            if let next = roomRecognizer {
                // Made here, between chunks: the capture thread keeps what the microphone says
                // meanwhile, and the new recognizer hears it. Unless another (a language, a voice)
                // was chosen meanwhile.
                lock.withLock { if recognizer === decoding { recognizer = next } }
            }
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
