import CareLanguage
import CareModel
import CareSpeech
import CareStore
import CareTerminal
import Foundation
import Logging

/// Where spoken input comes from.
public enum VoiceInput {
    case none
    /// A live ALSA capture device, listened to on its own thread.
    case microphone(AudioSource)
    /// A recording that stands in for the microphone (`--audio-in`): decoded
    /// utterance by utterance, in step with the dialog; the end of the file ends the session.
    case recording(PCMAudio)
}

/// Performs the dialog's effects: the thin, impure shell around `Dialog`.
public final class AssistantRuntime {
    public struct Configuration {
        public var phrasebook: Phrasebook
        public var preferredUnit: GlucoseUnit
        /// Opened alongside the greeting (see `PendingStore`).
        public var store: PendingStore
        public var recognizer: SpeechRecognizer?
        public var voice: VoiceInput
        /// Read typed lines too (a terminal or piped stdin).
        public var keyboard: Bool
        public var speech: SpeechOutput
        /// Sentences to say right after the greeting (no microphone, no speaker...).
        public var notices: [Message]
        /// Where text goes: the console, or nowhere for benchmarks.
        public var display: (String) -> Void = { Console.line($0) }
        /// Colour and emphasis, or none (NO_COLOR, --plain, not a terminal).
        public var style: OutputStyle = .plain
        /// Emergency numbers, contacts and summary, gathered without the database.
        public var emergency: EmergencyHelp?

        public init(phrasebook: Phrasebook, preferredUnit: GlucoseUnit, store: PendingStore,
                    recognizer: SpeechRecognizer?, voice: VoiceInput, keyboard: Bool, speech: SpeechOutput,
                    notices: [Message] = []) {
            self.phrasebook = phrasebook
            self.preferredUnit = preferredUnit
            self.store = store
            self.recognizer = recognizer
            self.voice = voice
            self.keyboard = keyboard
            self.speech = speech
            self.notices = notices
        }
    }

    private var configuration: Configuration
    private var dialog: Dialog
    private let events = EventQueue()
    private let logger = Logger(label: "carevoice.assistant")
    private var keyboard: KeyboardInput?
    private var microphone: MicrophoneListener?
    private var finished = false
    /// The editable line's keys are explained once, the first time it appears.
    private var editHintShown = false
    /// Called after a reading has been saved (tests and benchmarks watch this).
    public var onSaved: ((GlucoseReading) -> Void)?
    /// Called when an utterance has been recognized, before the dialog acts on it (benchmarks).
    public var onHeard: ((RecognitionResult) -> Void)?

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        dialog = Dialog(phrasebook: configuration.phrasebook, preferredUnit: configuration.preferredUnit)
    }

    /// Runs the conversation until the person leaves or the input ends.
    public func run() {
        perform(dialog.handle(.started, now: Date()))
        for notice in configuration.notices { say(notice) }
        announceStoreProblem(configuration.store.outcomeSoFar)

        switch configuration.voice {
        case .recording(let audio):
            runRecording(audio)
            return
        case .microphone(let source):
            if let recognizer = configuration.recognizer {
                let listener = MicrophoneListener(source: source, recognizer: recognizer, events: events)
                microphone = listener
                listener.start(context: dialog.listeningContext)
                if configuration.keyboard { say(configuration.phrasebook.message(.listeningHint)) }
            }
        case .none:
            break
        }
        if configuration.keyboard {
            keyboard = KeyboardInput(events: events, voiceIsLive: microphone != nil)
            keyboard?.arm(prompt: idlePrompt, prefill: "")
        } else if microphone == nil {
            return
        }

        while !finished {
            let input = events.take()
            keyboard?.pause()
            perform(dialog.handle(input.event, now: Date()))
            announceStoreProblem(configuration.store.outcomeSoFar)
            if !finished { armKeyboard() }
        }
        microphone?.stop()
        keyboard?.stop()
    }

    /// `--audio-in`: every utterance is decoded with the grammar of the state the
    /// dialog is in when it starts, exactly as live audio would be.
    private func runRecording(_ audio: PCMAudio) {
        guard let recognizer = configuration.recognizer else { return }
        recognizer.run(audio) { result in
            guard !finished else { return }
            let heard = Date()
            guard !result.text.isEmpty else { return }
            logger.debug("heard \(result.text) (confidence \(result.confidence))")
            onHeard?(result)
            perform(dialog.handle(.heard(result.text), now: heard))
            try? recognizer.selectGrammar(dialog.listeningContext.rawValue)
        }
        if !finished { perform(dialog.handle(.endOfInput, now: Date())) }
    }

    // MARK: Effects

    private func perform(_ effects: [DialogEffect]) {
        for effect in effects {
            switch effect {
            case .say(let message):
                say(message)
            case .showEditable(let prompt, let text):
                // On a terminal the keyboard thread shows it as an editable line;
                // everywhere else it is one plain line, for logs and screen readers.
                if keyboard?.isTerminal == true {
                    if !editHintShown { configuration.display(configuration.phrasebook.text(.editHint)) }
                    editHintShown = true
                } else {
                    configuration.display(prompt + text)
                    if keyboard != nil { configuration.display(configuration.phrasebook.text(.answerPrompt)) }
                }
            case .listen(let context):
                // The recognizer belongs to the thread that decodes: the listener
                // switches grammar between utterances; a recording switches in runRecording.
                microphone?.listen(context)
            case .save(let reading):
                save(reading)
            case .showEmergency:
                showEmergency()
            case .exit:
                finished = true
            }
        }
    }

    private func save(_ reading: GlucoseReading) {
        let outcome: DialogEvent
        let opened = configuration.store.wait()
        announceStoreProblem(opened)
        switch opened {
        case .success(let store):
            do {
                let saved = try store.save(reading)
                onSaved?(saved)
                outcome = .saved(saved)
            } catch {
                outcome = .saveFailed(reason: "\(error)")
            }
        case .failure(let error):
            outcome = .saveFailed(reason: "\(error)")
        }
        perform(dialog.handle(outcome, now: Date()))
    }

    private var storeProblemAnnounced = false

    /// Says once, as soon as it is known, that the data file cannot be opened (and is left alone).
    private func announceStoreProblem(_ outcome: Result<Store, Error>?) {
        guard case .failure(let error)? = outcome, !storeProblemAnnounced else { return }
        storeProblemAnnounced = true
        say(configuration.phrasebook.message(.storeUnavailable, ["reason": Message("\(error)")]))
    }

    private func showEmergency() {
        let report = configuration.emergency?.report()
            ?? EmergencyReport(numbers: .unknownCountry, helplines: [], personal: .unavailable(reason: "not set up"))
        for line in configuration.phrasebook.emergencyMessages(report, now: Date()) { say(line) }
    }

    private func say(_ message: Message) {
        configuration.display(message.isEmphasized ? configuration.style.emphasis(message.display) : message.display)
        microphone?.mute(true)
        do {
            try configuration.speech.speak(message.spoken)
        } catch {
            // Speech failing mid-session must not stop the conversation: fall back to text.
            logger.warning("speech failed: \(error)")
            configuration.speech = SilentOutput()
        }
        microphone?.mute(false)
    }

    private var idlePrompt: String { "> " }

    private func armKeyboard() {
        guard let keyboard else { return }
        if case .confirming(let pending) = dialog.state {
            keyboard.arm(prompt: configuration.phrasebook.text(.heardPrompt), prefill: pending.editableText)
        } else {
            keyboard.arm(prompt: idlePrompt, prefill: "")
        }
    }
}
