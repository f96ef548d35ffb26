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

/// What learning the person's voice within the assistant needs from the application.
public struct VoiceLearner {
    /// The checker of the phrases and the phrases, in the language spoken now.
    public var prepare: () throws -> (enrollment: VoiceEnrollment, prompts: [[String]])
    /// Where the learned voice is stored.
    public var directory: URL
    /// A recognizer that hears with the voice stored now.
    public var makeRecognizer: () throws -> SpeechRecognizer
    /// What the phrases are heard over: a recording's band, else a microphone's full band.
    public var band: AudioBand

    public init(prepare: @escaping () throws -> (enrollment: VoiceEnrollment, prompts: [[String]]), directory: URL,
                makeRecognizer: @escaping () throws -> SpeechRecognizer, band: AudioBand = .wide) {
        self.prepare = prepare
        self.directory = directory
        self.makeRecognizer = makeRecognizer
        self.band = band
    }
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
        /// Run the onboarding questionnaire first (see `OnboardingStart`); nil goes straight to readings.
        public var onboarding: OnboardingStart?
        /// The settings in force, and whether there is a profile to change.
        public var settings = Settings()
        public var hasProfile = false
        /// Countries a changed country may name.
        public var countries: [String] = []
        /// The locale's espeak-ng voice, which the voice setting varies.
        public var baseVoice = "en-us"
        /// For a voice that reads pinyin rather than Chinese characters (zh-Hans).
        public var pinyin: PinyinSpeller?
        /// What another language needs (a changed language setting, or the onboarding's language
        /// question); `listening` asks for its recognizer too. Nil: this session cannot switch.
        public var switchLanguage: ((_ language: Language, _ listening: Bool) throws -> SpokenLanguage)?
        /// Opens the microphone when a language that can be heard is switched to in a session
        /// that could not hear the one it began in. Nil: no microphone for this session.
        public var openMicrophone: (() throws -> AudioSource)?
        /// Makes a speech output when speech is turned on and there was none (nil: it stays off,
        /// as with `--no-speech`).
        public var makeSpeech: ((Settings) -> SpeechOutput?)?
        /// How often the reminder looks whether a reading has fallen due.
        public var reminderCheckInterval: TimeInterval = 60
        /// The output style the settings call for (plain output, or the terminal's own).
        public var styleForSettings: ((Settings) -> OutputStyle)?
        /// Forgets the learned voice ("forget my voice"): whether there was one, and, when
        /// `listening`, the recognizer to listen with from then on (nil: this language is heard
        /// only with a learned voice). Nil when this session cannot (no data directory).
        public var forgetVoice: ((_ listening: Bool) throws -> (wasStored: Bool, recognizer: SpeechRecognizer?))?
        /// A recognizer for the language and voice of now that hears speech over this background,
        /// for a microphone whose room got noisy or quiet again (nil: not heard in this
        /// language). Nil: the microphone's recognizer stays as it is. A noisy room's may be made
        /// on a thread of its own while an utterance is said (`BackgroundFollower.prepare`).
        public var recognizerOver: ((AudioBackground) throws -> SpeechRecognizer?)?
        /// A recording (`VoiceInput.recording`) has the noisy room's recognizer made as soon as
        /// the quiet room's listens, as a microphone has it made while the greeting is said
        /// (`BackgroundFollower.prepare`), not only once an utterance sounds noisy: for a bench
        /// that plays a recording as a microphone would hear it.
        public var recordingMakesNoisyRoomsAhead = false
        /// Given, when the session ends, the recognizer that last heard the microphone: to keep
        /// what it learned of how the person sounds through it (`RememberedMean`).
        public var microphoneClosed: ((SpeechRecognizer) -> Void)?
        /// Whether a learned voice is stored (so "forget my voice" is asked back).
        public var hasLearnedVoice = false
        /// Learns the person's voice ("learn my voice"). Nil when this session cannot (no data
        /// directory); it also needs something to hear the phrases from (a microphone to open,
        /// or a recording).
        public var voiceLearner: VoiceLearner?
        /// Where readings saved as they were heard are kept with their audio, and the voice is
        /// learned from them when a session ends (`ConfirmedSpeech`). Nil: they are not kept.
        public var confirmedSpeech: KeptSpeech?

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
    /// Tells speech meant for the assistant from speech forced onto its grammar.
    private var acceptance: SpeechAcceptance { SpeechAcceptance(table: configuration.phrasebook.table) }
    /// What is being talked about: the readings, or the onboarding questions.
    private var conversation: any Conversation
    /// The line to offer for editing next: the last one the conversation asked to show.
    private var pendingEditable: (prompt: String, text: String)?
    /// What onboarding saved, for the readings that follow it.
    private var onboardingSettings: Settings?
    private let events = EventQueue()
    private let logger = Logger(label: "carevoice.assistant")
    private var keyboard: KeyboardInput?
    private var microphone: MicrophoneListener?
    /// `--audio-in`: what becomes of the rest of the recording once the language changed.
    private enum RecordingHandover {
        /// Heard with the new language's recognizer.
        case to(SpeechRecognizer)
        /// Not heard: the new language is heard only with a learned voice.
        case unheard
        /// Said by the person learning their voice: the enrollment phrases, then what follows.
        case learning
    }
    private var recordingHandover: RecordingHandover?
    private var reminders: ReminderWatch?
    private var finished = false
    /// The editable line's keys are explained once per kind of line, the first time it appears.
    private var editHintsShown = Set<String>()
    /// The last utterance heard as a reading, kept (`ConfirmedSpeech`) if that reading is saved
    /// as it was heard.
    private var lastHeardReading: HeardUtterance?
    /// Called after a reading has been saved (tests and benchmarks watch this).
    public var onSaved: ((GlucoseReading) -> Void)?
    /// Called when an utterance has been recognized, before the dialog acts on it (benchmarks).
    public var onHeard: ((RecognitionResult) -> Void)?

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        if let start = configuration.onboarding {
            conversation = Questionnaire(phrasebook: configuration.phrasebook, countries: start.countries,
                                         today: start.today, settings: start.settings, answers: start.answers)
        } else {
            conversation = Self.readingsDialog(configuration, preferredUnit: configuration.preferredUnit)
        }
    }

    /// The dialog of readings and everything else, as the configuration has it.
    private static func readingsDialog(_ configuration: Configuration, preferredUnit: GlucoseUnit) -> Dialog {
        var dialog = Dialog(phrasebook: configuration.phrasebook, preferredUnit: preferredUnit,
                            settings: configuration.settings, hasProfile: configuration.hasProfile,
                            countries: configuration.countries, contacts: configuration.emergency?.contacts() ?? [])
        dialog.hasLearnedVoice = configuration.hasLearnedVoice
        dialog.keepsVoiceRecordings = (configuration.confirmedSpeech?.count ?? 0) > 0
        dialog.canLearnVoice = configuration.voiceLearner != nil && canHearPhrases(configuration)
        return dialog
    }

    /// A recording, or a microphone this session can open.
    private static func canHearPhrases(_ configuration: Configuration) -> Bool {
        if case .recording = configuration.voice { return true }
        return configuration.openMicrophone != nil
    }

    /// Runs the conversation until the person leaves or the input ends.
    public func run() {
        defer { reminders?.stop() }
        perform(conversation.handle(.started, now: Date()))
        for notice in configuration.notices { say(notice) }
        announceStoreProblem(configuration.store.outcomeSoFar)
        startReminders()

        switch configuration.voice {
        case .recording(let audio):
            runRecording(audio)
            learnVoiceFromConfirmedSpeech()
            return
        case .microphone(let source):
            if let recognizer = configuration.recognizer {
                let listener = MicrophoneListener(source: source, recognizer: recognizer, acceptance: acceptance, events: events,
                                                  remake: configuration.recognizerOver)
                microphone = listener
                listener.start(context: conversation.listeningContext)
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
            // The microphone hears the next utterance once this one is answered, as the answer leaves it.
            defer { if input.origin == .voice { microphone?.answered() } }
            keyboard?.pause()
            if case .heard(let text) = input.event, text.isEmpty {
                sayNotCaught()
                armKeyboard()
                continue
            }
            pendingEditable = nil
            if let utterance = input.utterance { noteHeard(utterance) }
            perform(conversation.handle(input.event, now: Date()))
            announceStoreProblem(configuration.store.outcomeSoFar)
            if !finished { armKeyboard() }
        }
        if let microphone {
            let lastHeardWith = microphone.stopAndWait()
            configuration.microphoneClosed?(lastHeardWith)
        }
        keyboard?.stop()
        learnVoiceFromConfirmedSpeech()
    }

    /// A reading already due is said at once; later ones when they fall due. Not during the
    /// questions (there are no readings to be due yet), nor for a recording, which has no clock.
    private func startReminders() {
        guard conversation is Dialog, reminders == nil else { return }
        if case .recording = configuration.voice { return }
        let watch = ReminderWatch(store: configuration.store, events: events, interval: configuration.settings.reminder,
                                  checkEvery: configuration.reminderCheckInterval)
        reminders = watch
        if let due = watch.dueNow() { perform(conversation.handle(due, now: Date())) }
        watch.start()
    }

    /// `--audio-in`: every utterance is decoded with the grammar of the state the
    /// dialog is in when it starts, exactly as live audio would be.
    /// A change of language hands the rest of the recording to the new language's recognizer, and
    /// a room that got noisy (or quiet again) to that room's, as on a microphone.
    private func runRecording(_ audio: PCMAudio) {
        var recognizer = configuration.recognizer
        var rest: PCMAudio? = audio
        // Seconds of the recording heard before `rest`; nil before the first hand-over.
        var restStarts: Double?
        let follower = BackgroundFollower(remake: configuration.recognizerOver, makesAhead: configuration.recordingMakesNoisyRoomsAhead,
                                          logger: logger)
        while let recording = rest, let hearing = recognizer {
            var learning = false
            // The first utterance too is heard with the grammar of the state the conversation starts in.
            try? hearing.selectGrammar(conversation.listeningContext.rawValue)
            follower.prepare(hearing)
            rest = hearing.runWithHandover(recording, continuing: restStarts, onUtterance: { heard in
                guard !finished else { return .goOn }
                let (result, roomRecognizer) = follower.follow(heard, heardBy: hearing)
                // After this utterance: another recognizer goes on (a language chosen, a voice to
                // learn, the room's), or this one with the grammar the conversation waits with.
                func goOn() -> SpeechRecognizer.RecordingStep {
                    if let handover = recordingHandover {
                        recordingHandover = nil
                        switch handover {
                        case .to(let next): recognizer = next
                        case .unheard: recognizer = nil
                        case .learning: learning = true
                        }
                        return .handOver
                    }
                    if let roomRecognizer {
                        recognizer = roomRecognizer
                        return .handOver
                    }
                    try? hearing.selectGrammar(conversation.listeningContext.rawValue)
                    return .goOn
                }
                let heard = Date()
                guard !result.text.isEmpty else { return goOn() }
                logger.debug("\(result.logged)")
                onHeard?(result)
                let event = acceptance.event(result, in: ListeningContext(rawValue: result.grammar) ?? conversation.listeningContext)
                guard event != .heard("") else {
                    sayNotCaught()
                    return goOn()
                }
                pendingEditable = nil
                if let utterance = HeardUtterance(result, sampleRate: hearing.configuration.sampleRate) { noteHeard(utterance) }
                perform(conversation.handle(event, now: heard))
                return goOn()
            })
            if learning {
                // The phrases are read from the rest of the recording; what follows them is
                // heard with the voice learned from them.
                let phrases = BufferAudioSource(Resampler.resample(rest ?? PCMAudio(samples: [], sampleRate: 16000), to: 16000))
                let (outcome, learned) = learnVoice(hearing: { phrases })
                if let learned { recognizer = learned }
                rest = phrases.remainder
                perform(conversation.handle(.voiceLearned(outcome), now: Date()))
            }
            restStarts = (restStarts ?? 0) + recording.duration - (rest?.duration ?? 0)
        }
        if !finished { perform(conversation.handle(.endOfInput, now: Date())) }
    }

    /// "Learn my voice" on a live microphone: the listener lets go of it while the phrases are
    /// asked for (each heard after it was said, as `carevoice enroll` does), then listens again,
    /// with the learned voice if it was learned.
    private func learnVoiceLive() -> VoiceLearning {
        guard let open = configuration.openMicrophone else {
            return .noMicrophone(reason: configuration.phrasebook.text(.noMicrophone))
        }
        let before = microphone?.stopAndWait()
        microphone = nil
        // Tried first, so that a missing microphone is said before any phrase is asked for.
        do {
            try open().close()
        } catch {
            if let before { hear(with: before, announced: false) }
            return .noMicrophone(reason: "\(error)")
        }
        let (outcome, learned) = learnVoice(hearing: open)
        // Said only where the microphone is new to this session (a language not heard before).
        if let after = learned ?? before { hear(with: after, announced: before == nil) }
        return outcome
    }

    /// Asks for the phrases, hears each from `hearing`, and learns the voice from the clear ones:
    /// what became of it, and the recognizer that hears with it when it was learned.
    private func learnVoice(hearing open: @escaping () throws -> AudioSource) -> (VoiceLearning, SpeechRecognizer?) {
        guard let learner = configuration.voiceLearner else { return (.failed(reason: "no data directory"), nil) }
        do {
            let (enrollment, prompts) = try learner.prepare()
            var session = EnrollmentSession(book: configuration.phrasebook, speech: configuration.speech, openSource: open)
            session.display = configuration.display
            let utterances: [VoiceAdapter.Utterance]
            do {
                utterances = try session.record(prompts, with: enrollment)
            } catch SpeechError.audioDevice(let reason) {
                return (.noMicrophone(reason: reason), nil)
            }
            let outcome = enrollment.learn(phrases: utterances, into: learner.directory, band: learner.band) {
                say(configuration.phrasebook.message(.enrollLearning))
            }
            guard case .learned = outcome else { return (outcome, nil) }
            configuration.hasLearnedVoice = true
            do {
                return (outcome, try learner.makeRecognizer())
            } catch {
                logger.warning("the learned voice cannot be heard with: \(error)")
                return (outcome, nil)
            }
        } catch {
            return (.failed(reason: "\(error)"), nil)
        }
    }

    /// Remembers an utterance heard as a reading, the one a save may confirm. One heard as a guess
    /// is remembered too, in case its number is corrected; it is not kept if saved as heard
    /// (`keepConfirmedSpeech`).
    private func noteHeard(_ utterance: HeardUtterance) {
        guard configuration.confirmedSpeech != nil, configuration.settings.learnsVoiceFromReadings,
              case .glucose = UtteranceParser(table: configuration.phrasebook.table).parse(utterance.text) else { return }
        lastHeardReading = utterance
    }

    /// Keeps the last utterance heard as a reading when the reading about to be saved is what it
    /// said (nothing added after the read-back), so that its words are known: those heard, if it
    /// was not heard as a guess (`ConfirmedSpeech.keeps(fit:)`), since a yes can be given to a
    /// wrong read-back; or, when the person corrected its number on the editable line, those
    /// heard with the number as saved (`ConfirmedSpeech.wordsSaid`).
    private func keepConfirmedSpeech() {
        guard let heard = lastHeardReading, let kept = configuration.confirmedSpeech,
              case .confirming(let pending)? = (conversation as? Dialog)?.state else { return }
        let table = configuration.phrasebook.table
        guard case .glucose(let said) = UtteranceParser(table: table).parse(heard.text),
              said != pending.draft || ConfirmedSpeech.keeps(fit: heard.fit),
              let words = ConfirmedSpeech.wordsSaid(heard: heard.text, heardAs: said, saved: pending.draft,
                                                    numbers: NumberWords(table.numbers)) else { return }
        lastHeardReading = nil
        do {
            try kept.keep(heard.audio, words: words)
            if var dialog = conversation as? Dialog {
                dialog.keepsVoiceRecordings = true
                conversation = dialog
            }
        } catch {
            logger.warning("a confirmed reading's recording cannot be kept: \(error)")
        }
    }

    /// When a session ends: learns the voice from the readings the person confirmed, once there
    /// are enough new ones (`ConfirmedSpeech.shouldLearn`), with the enrollment phrases when the
    /// voice was learned from them. The next session hears with it.
    private func learnVoiceFromConfirmedSpeech() {
        guard let kept = configuration.confirmedSpeech, let learner = configuration.voiceLearner,
              configuration.settings.learnsVoiceFromReadings else { return }
        let stored = (try? AdaptedVoice.load(from: learner.directory)) ?? nil
        // Checked when they were said: learned from again as they are.
        let phrases = (stored?.phrases.recordings() ?? []).map {
            VoiceAdapter.Utterance(samples: $0.audio.samples, words: $0.words)
        }
        guard ConfirmedSpeech.shouldLearn(kept: kept.count, stored: stored?.record, phrases: phrases.count) else { return }
        let book = configuration.phrasebook
        do {
            let (enrollment, _) = try learner.prepare()
            var confirmed: [VoiceAdapter.Utterance] = []
            for recording in kept.recordings() {
                if case .usable(let utterance, _) = try enrollment.take(recording.audio, words: recording.words) {
                    confirmed.append(utterance)
                }
            }
            let counts = ["count": Message(String(confirmed.count)), "phrases": Message(String(phrases.count))]
            let outcome = enrollment.learn(phrases: phrases, confirmed: confirmed, into: learner.directory, band: learner.band) {
                say(book.message(phrases.isEmpty ? .voiceFromReadings : .voiceFromPhrasesAndReadings, counts))
            }
            guard case .learned = outcome else {
                logger.warning("the voice was not learned from confirmed readings: \(String(describing: outcome))")
                return
            }
            say(book.message(phrases.isEmpty ? .voiceFromReadingsDone : .voiceFromPhrasesAndReadingsDone, counts))
        } catch {
            logger.warning("the voice was not learned from confirmed readings: \(error)")
        }
    }

    /// The voice files go, and the microphone listens with the general model from the next
    /// utterance on. A recording is decoded to its end by the recognizer it began with.
    private func forgetVoice() -> VoiceForgetting {
        guard let forget = configuration.forgetVoice else { return .nothingStored }
        do {
            let (wasStored, recognizer) = try forget(microphone != nil)
            guard wasStored else { return .nothingStored }
            if microphone != nil { hear(with: recognizer) }
            return .forgotten
        } catch {
            return .failed(reason: "\(error)")
        }
    }

    /// From now on the conversation, the voice and the recognizer are in `language`; false when
    /// this session cannot switch (the person is then told it happens at the next start).
    private func switchLanguage(to language: Language) -> Bool {
        guard language.rawValue != configuration.phrasebook.table.id else { return true }
        guard let makeLanguage = configuration.switchLanguage else { return false }
        let recording: Bool = { if case .recording = configuration.voice { return true } else { return false } }()
        let listening = microphone != nil || configuration.openMicrophone != nil || recording
        let spoken: SpokenLanguage
        do {
            spoken = try makeLanguage(language, listening)
        } catch {
            logger.warning("cannot switch to \(language.rawValue): \(error)")
            return false
        }
        configuration.phrasebook = spoken.phrasebook
        configuration.baseVoice = spoken.baseVoice
        configuration.pinyin = spoken.pinyin
        configuration.speech.use(speechStyle)
        conversation = conversation.speaking(spoken.phrasebook)
        if recording {
            if let next = spoken.recognizer {
                recordingHandover = .to(next)
            } else {
                recordingHandover = .unheard
                say(configuration.phrasebook.message(.noHearingInLanguage))
            }
        } else if listening {
            hear(with: spoken.recognizer)
        }
        return true
    }

    /// Listens with this recognizer from the next utterance on; nil stops listening, with the
    /// reason said (the language is heard only with a learned voice). A microphone that could
    /// not be used before is opened now.
    private func hear(with recognizer: SpeechRecognizer?, announced: Bool = true) {
        guard let recognizer else {
            microphone?.stop()
            microphone = nil
            say(configuration.phrasebook.message(.noHearingInLanguage))
            keyboard?.voiceIsLive = false
            return
        }
        if let microphone {
            microphone.use(recognizer, acceptance: acceptance)
            return
        }
        guard let open = configuration.openMicrophone else { return }
        do {
            let listener = MicrophoneListener(source: try open(), recognizer: recognizer, acceptance: acceptance, events: events,
                                              remake: configuration.recognizerOver)
            microphone = listener
            keyboard?.voiceIsLive = true
            listener.start(context: conversation.listeningContext)
            if configuration.keyboard && announced { say(configuration.phrasebook.message(.listeningHint)) }
        } catch {
            say(configuration.phrasebook.message(.noMicrophone))
        }
    }

    /// How the assistant sounds now: the settings, on the language's voice.
    private var speechStyle: SpeechOutputStyle {
        SpeechOutputStyle(settings: configuration.settings, baseVoice: configuration.baseVoice, pinyin: configuration.pinyin)
    }

    // MARK: Effects

    private func perform(_ effects: [DialogEffect]) {
        for effect in effects {
            switch effect {
            case .say(let message):
                say(message)
            case .showEditable(let prompt, let text, let hints):
                pendingEditable = (prompt, text)
                // On a terminal the keyboard thread shows it as an editable line;
                // everywhere else it is one plain line, for logs and screen readers.
                let book = configuration.phrasebook
                let onboarding = conversation is Questionnaire
                if keyboard?.isTerminal == true {
                    let hint = hints?.terminal ?? book.text(onboarding ? .editHintAnswer : .editHint)
                    if editHintsShown.insert(hint).inserted { configuration.display(hint) }
                } else {
                    configuration.display(prompt + text)
                    if keyboard != nil {
                        configuration.display(hints?.plain ?? book.text(onboarding ? .answerPromptAnswer : .answerPrompt))
                    }
                }
            case .listen(let context):
                // The recognizer belongs to the thread that decodes: the listener
                // switches grammar between utterances; a recording switches in runRecording.
                microphone?.listen(context)
            case .save(let reading):
                keepConfirmedSpeech()
                save(reading)
            case .saveOnboarding(let result):
                saveOnboarding(result)
            case .saveChange(let change):
                saveChange(change)
            case .addContact(let contact):
                writeToStore { store in
                    _ = try store.addContact(contact)
                    return .contactsSaved(try store.contacts())
                }
            case .removeContact(let contact):
                writeToStore { store in
                    try store.removeContact(contact)
                    return .contactsSaved(try store.contacts())
                }
            case .showEmergency:
                showEmergency()
            case .sayOverview(let range):
                sayOverview(range)
            case .sayDay(let daysAgo):
                sayDay(daysAgo)
            case .saveNote(let entry, let pictures):
                writeToStore { store in
                    do {
                        return .recordsChanged(.addNote(try store.saveDiary(entry, pictures: pictures, library: store.pictureLibrary)))
                    } catch let problem as PictureLibrary.Problem {
                        return .saveFailed(reason: problem.description)
                    }
                }
            case .checkPicture(let path):
                let problem: String?
                do { _ = try PictureLibrary.check(path); problem = nil } catch {
                    problem = (error as? PictureLibrary.Problem)?.description ?? "\(error)"
                }
                perform(conversation.handle(.pictureChecked(path: path, problem: problem), now: Date()))
            case .lookUpLastRecords:
                writeToStore { store in
                    let last = try store.lastRecords()
                    return .lastRecords(reading: last.reading, note: last.note)
                }
            case .applyEdit(let edit):
                writeToStore { store in .recordsChanged(try store.apply(edit)) }
            case .forgetVoice:
                perform(conversation.handle(.voiceForgotten(forgetVoice()), now: Date()))
            case .learnVoice:
                if case .recording = configuration.voice {
                    recordingHandover = .learning  // runRecording learns from the rest of it
                } else {
                    perform(conversation.handle(.voiceLearned(learnVoiceLive()), now: Date()))
                }
            case .switchLanguage(let language):
                perform(conversation.handle(.languageSwitched(switchLanguage(to: language)), now: Date()))
            case .exit:
                if let settings = onboardingSettings, configuration.onboarding?.thenReadings == true {
                    // Set up: the readings begin, in the unit just chosen.
                    onboardingSettings = nil
                    configuration.onboarding = nil
                    apply(settings)
                    configuration.hasProfile = true
                    conversation = Self.readingsDialog(configuration, preferredUnit: settings.glucoseUnit)
                    perform(conversation.handle(.started, now: Date()))
                    startReminders()
                } else {
                    finished = true
                }
            }
        }
    }

    private func save(_ reading: GlucoseReading) {
        writeToStore { store in
            let saved = try store.save(reading)
            onSaved?(saved)
            return .saved(saved)
        }
    }

    private func saveOnboarding(_ result: OnboardingResult) {
        writeToStore { store in
            try store.completeOnboarding(profile: result.profile, settings: result.settings, contact: result.contact)
            onboardingSettings = result.settings
            return .onboardingSaved
        }
    }

    private func saveChange(_ change: ProfileChange) {
        writeToStore { store in
            do {
                let settings = try store.apply(change)
                apply(settings)
                // The language asked for, even where the saved setting already had it (a run
                // started with --locale): the confirmation is then said in it.
                if case .answer(.language(let language)) = change { _ = switchLanguage(to: language) }
                return .changeSaved(settings)
            } catch StoreError.noProfile {
                return .saveFailed(reason: configuration.phrasebook.table.changes.needsProfile)
            }
        }
    }

    /// Waits for the store, writes, and tells the conversation how it went; a store that cannot
    /// be opened or written is a `saveFailed` with the reason, never a crash.
    private func writeToStore(_ write: (Store) throws -> DialogEvent) {
        let opened = configuration.store.wait()
        announceStoreProblem(opened)
        let outcome: DialogEvent
        switch opened {
        case .success(let store):
            do { outcome = try write(store) } catch { outcome = .saveFailed(reason: "\(error)") }
        case .failure(let error):
            outcome = .saveFailed(reason: "\(error)")
        }
        perform(conversation.handle(outcome, now: Date()))
    }

    /// A saved change of settings takes effect at once: the next sentence already sounds and
    /// looks as they say.
    private func apply(_ settings: Settings) {
        if settings.reminder != configuration.settings.reminder { reminders?.change(settings.reminder) }
        configuration.settings = settings
        if settings.speechOn, configuration.speech is SilentOutput, let speech = configuration.makeSpeech?(settings) {
            configuration.speech = speech
        }
        configuration.speech.use(speechStyle)
        if let style = configuration.styleForSettings { configuration.style = style(settings) }
    }

    private var storeProblemAnnounced = false

    /// Says once, as soon as it is known, that the data file cannot be opened (and is left alone).
    private func announceStoreProblem(_ outcome: Result<Store, Error>?) {
        guard case .failure(let error)? = outcome, !storeProblemAnnounced else { return }
        storeProblemAnnounced = true
        say(configuration.phrasebook.message(.storeUnavailable, ["reason": Message("\(error)")]))
    }

    /// "How am I doing?": the period's readings, compared with the period before.
    private func sayOverview(_ range: ReportRange) {
        let opened = configuration.store.wait()
        announceStoreProblem(opened)
        guard case .success(let store) = opened else { return }
        let book = configuration.phrasebook
        do {
            let (current, previous) = try store.analysis(of: range)
            let overview = GlucoseOverview(book: book, unit: configuration.settings.glucoseUnit)
            for line in overview.spoken(current, range: range, previous: previous) { say(line) }
        } catch {
            say(book.message(.storeUnavailable, ["reason": Message("\(error)")]))
        }
    }

    /// "What did I record yesterday?": that day's readings and notes, in the order they happened.
    private func sayDay(_ daysAgo: Int) {
        let opened = configuration.store.wait()
        announceStoreProblem(opened)
        guard case .success(let store) = opened else { return }
        let book = configuration.phrasebook
        let day = CalendarDay.today().adding(days: -daysAgo)
        do {
            let (readings, notes) = try store.records(on: day)
            for line in book.day(day, readings: readings, notes: notes, unit: configuration.settings.glucoseUnit) { say(line) }
        } catch {
            say(book.message(.storeUnavailable, ["reason": Message("\(error)")]))
        }
    }

    private func showEmergency() {
        let report = configuration.emergency?.report()
            ?? EmergencyReport(numbers: .unknownCountry, helplines: [], personal: .unavailable(reason: "not set up"))
        for line in configuration.phrasebook.emergencyMessages(report, now: Date()) { say(line) }
    }

    private func say(_ message: Message) {
        configuration.display(message.isEmphasized ? configuration.style.emphasis(message.display) : message.display)
        guard configuration.settings.speechOn else { return }
        // Muted only while its own voice is in the room (and its echo after): shown without
        // sound (--no-speech), a line left the microphone deaf for 0.3 s, and a "yes" said as
        // soon as the question showed was heard from its last sound, as "help".
        let hearsItself = configuration.speech.isAudible ? microphone : nil
        hearsItself?.mute(true)
        do {
            try configuration.speech.speak(message.spoken)
        } catch {
            // Speech failing mid-session must not stop the conversation: fall back to text.
            logger.warning("speech failed: \(error)")
            configuration.speech = SilentOutput()
        }
        hearsItself?.mute(false)
    }

    /// Speech not meant for the assistant (it fit nothing it listens for) is answered, and
    /// changes nothing: the conversation never sees it, and a line offered for editing stays.
    private func sayNotCaught() {
        say(configuration.phrasebook.message(.notUnderstood))
    }

    private var idlePrompt: String { "> " }

    private func armKeyboard() {
        guard let keyboard else { return }
        if let line = pendingEditable {
            keyboard.arm(prompt: line.prompt, prefill: line.text)
        } else {
            keyboard.arm(prompt: idlePrompt, prefill: "")
        }
    }
}

/// How the onboarding questionnaire starts.
public struct OnboardingStart: Sendable {
    /// Countries that may be named (those with emergency numbers).
    public var countries: [String]
    public var today: CalendarDay
    /// The settings in force; the answers change some of them.
    public var settings: Settings
    /// Go on to readings once the answers are saved (first start), or stop (`carevoice onboarding`).
    public var thenReadings: Bool
    /// Answers on record, offered again to keep or change.
    public var answers: [ProfileQuestion: ProfileAnswer]

    public init(countries: [String], today: CalendarDay, settings: Settings, thenReadings: Bool,
                answers: [ProfileQuestion: ProfileAnswer] = [:]) {
        self.countries = countries
        self.today = today
        self.settings = settings
        self.thenReadings = thenReadings
        self.answers = answers
    }
}

/// A conversation the runtime can hold: the readings (`Dialog`) or the onboarding questions
/// (`Questionnaire`). Both are pure: the runtime performs their effects.
public protocol Conversation: Sendable {
    mutating func handle(_ event: DialogEvent, now: Date) -> [DialogEffect]
    var listeningContext: ListeningContext { get }
    /// The same conversation, from now on in the language of this phrasebook.
    func speaking(_ book: Phrasebook) -> Self
}

extension Dialog: Conversation {}

/// What the runtime needs to go on in another language.
public struct SpokenLanguage {
    public var phrasebook: Phrasebook
    /// The language's espeak-ng voice, and what spells Chinese in pinyin for it.
    public var baseVoice: String
    public var pinyin: PinyinSpeller?
    /// Hears the language; nil when not asked for, or when the language is heard only with a
    /// learned voice and none is stored.
    public var recognizer: SpeechRecognizer?

    public init(phrasebook: Phrasebook, baseVoice: String, pinyin: PinyinSpeller?, recognizer: SpeechRecognizer?) {
        self.phrasebook = phrasebook
        self.baseVoice = baseVoice
        self.pinyin = pinyin
        self.recognizer = recognizer
    }
}
