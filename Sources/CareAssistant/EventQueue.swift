import Foundation
import CareSpeech

/// A blocking queue of dialog events. Input threads (microphone, keyboard) put;
/// the assistant's loop takes, one at a time, so the dialog itself needs no locks.
final class EventQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [InputEvent] = []

    func put(_ event: InputEvent) {
        condition.lock()
        events.append(event)
        condition.signal()
        condition.unlock()
    }

    func take() -> InputEvent {
        condition.lock()
        defer { condition.unlock() }
        while events.isEmpty { condition.wait() }
        return events.removeFirst()
    }
}

/// A dialog event and where it came from.
struct InputEvent: Sendable {
    enum Origin: Sendable { case voice, keyboard }
    var origin: Origin
    var event: DialogEvent
    /// When the event arose (end of speech for voice), for latency measurements.
    var at: Date = Date()
    /// What was heard, with its audio when the recognizer keeps it (`ConfirmedSpeech`).
    var utterance: HeardUtterance?
}

/// An utterance as the recognizer heard it: its audio at the recognizer's rate, and its words.
struct HeardUtterance: Sendable {
    var audio: PCMAudio
    var text: String
    /// `RecognitionResult.grammarFit`.
    var fit: Double?

    /// Nil when the recognizer kept no audio.
    init?(_ result: RecognitionResult, sampleRate: Int) {
        guard !result.audio.isEmpty, !result.text.isEmpty else { return nil }
        audio = PCMAudio(samples: result.audio, sampleRate: sampleRate)
        text = result.text
        fit = result.grammarFit
    }
}
