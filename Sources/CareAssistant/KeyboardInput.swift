import CareTerminal
import Foundation

/// Typed input on its own thread, so the keyboard and the microphone are heard at once.
///
/// On a terminal each line is read with libedit, armed by the assistant with a
/// prompt and pre-filled text, and interrupted when the person answers by voice.
/// Otherwise (piped stdin) plain lines are read as they come.
final class KeyboardInput: @unchecked Sendable {
    private let events: EventQueue
    private let editor: LineEditor?
    private var liveVoice: Bool
    private let condition = NSCondition()
    private var request: (prompt: String, prefill: String)?
    private var reading = false
    private var stopped = false

    var isTerminal: Bool { editor != nil }

    /// Piped input has ended (while a microphone listened).
    private var plainInputEnded = false

    /// A microphone is listening too, so the end of piped input does not end the session; when
    /// it stops listening after that end, the session ends.
    var voiceIsLive: Bool {
        get { condition.withLock { liveVoice } }
        set {
            let ends = condition.withLock {
                defer { liveVoice = newValue }
                return liveVoice && !newValue && plainInputEnded
            }
            if ends { events.put(InputEvent(origin: .keyboard, event: .endOfInput)) }
        }
    }

    init(events: EventQueue, voiceIsLive: Bool) {
        self.events = events
        self.liveVoice = voiceIsLive
        editor = LineEditor()
        let thread = Thread { [weak self] in self?.loop() }
        thread.name = "carevoice.keyboard"
        thread.start()
    }

    /// Shows the next line to edit (terminal only).
    func arm(prompt: String, prefill: String) {
        condition.lock()
        request = (prompt, prefill)
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the editable line before the assistant prints or speaks, so output
    /// stays one line after another. Returns once the editor has let go.
    func pause() {
        guard let editor else { return }
        condition.lock()
        request = nil
        while reading {
            condition.unlock()
            editor.interrupt()
            condition.lock()
            if reading { _ = condition.wait(until: Date().addingTimeInterval(0.05)) }
        }
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        request = nil
        condition.broadcast()
        condition.unlock()
        editor?.interrupt()
    }

    private func loop() {
        guard let editor else { return plainLoop() }
        while true {
            condition.lock()
            while request == nil && !stopped { condition.wait() }
            if stopped { condition.unlock(); return }
            let (prompt, prefill) = request!
            reading = true
            condition.unlock()

            let outcome = editor.readLine(prompt: prompt, prefill: prefill)

            condition.lock()
            reading = false
            if case .interrupted = outcome {
                // readLine has ended the line already; the assistant's output follows below it.
                condition.broadcast()
                condition.unlock()
                continue
            }
            request = nil
            condition.broadcast()
            condition.unlock()
            switch outcome {
            case .accepted(let line):
                if !line.isEmpty { editor.addHistory(line) }
                events.put(InputEvent(origin: .keyboard, event: prefill.isEmpty ? .typed(line) : .edited(line)))
            case .cancelled:
                events.put(InputEvent(origin: .keyboard, event: .cancelledByKey))
            case .endOfInput:
                events.put(InputEvent(origin: .keyboard, event: .endOfInput))
                return
            case .interrupted:
                break
            }
        }
    }

    private func plainLoop() {
        while let line = PlainLineReader.readLine() {
            events.put(InputEvent(origin: .keyboard, event: .typed(line)))
        }
        // Piped input has ended. With a live microphone the person can go on speaking.
        let ends = condition.withLock {
            plainInputEnded = true
            return !liveVoice
        }
        if ends { events.put(InputEvent(origin: .keyboard, event: .endOfInput)) }
    }
}
