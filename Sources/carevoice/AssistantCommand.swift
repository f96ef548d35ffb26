import ArgumentParser
import CareAssistant
import CareLanguage
import CareModel
import CareSpeech
import CareStore
import CareTerminal
import Foundation

/// How a spoken session hears and speaks: shared by the assistant and the onboarding questions.
struct SessionOptions: ParsableArguments {
    @Flag(help: "Keyboard only: do not use the microphone.")
    var text = false

    @Option(name: .customLong("audio-in"), help: "Use this WAV file as the microphone; exit at its end.")
    var audioIn: String?

    @Option(name: .customLong("audio-out"), help: "Write everything spoken to this WAV file instead of the speaker.")
    var audioOut: String?

    @Option(help: "ALSA capture device.")
    var microphone = "default"

    @Option(help: "ALSA playback device.")
    var speaker = "default"

    func validate() throws {
        if text && audioIn != nil { throw ValidationError("--text and --audio-in cannot be used together") }
    }
}

struct AssistantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assistant",
        abstract: "Talk to CareVoice (the default): say or type a glucose reading, confirm, saved."
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup var session: SessionOptions

    @Option(help: "Unit for numbers said without one, when both would fit: mmol/L or mg/dL (default: your setting).")
    var unit: String?

    func validate() throws {
        if let unit, GlucoseUnit.parse(unit) == nil { throw ValidationError("--unit must be mmol/L or mg/dL") }
    }

    func run() throws {
        try startSession(common, session, unit: unit.flatMap(GlucoseUnit.parse), mode: .assistant)
    }
}

struct OnboardingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onboarding",
        abstract: "Answer the set-up questions (language, units, date of birth, height, weight...) again."
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup var session: SessionOptions

    func run() throws {
        try startSession(common, session, unit: nil, mode: .onboarding)
    }
}

enum SessionMode { case assistant, onboarding }

/// Sets up hearing, speaking and the data file, then holds the conversation.
func startSession(_ common: CommonOptions, _ session: SessionOptions, unit: GlucoseUnit?, mode: SessionMode) throws {
    let general = try AppEnvironment.make(common)
    let recording = try session.audioIn.map { try readRecording($0, general.phrasebook) }
    // A recording's band and background decide how everything made in this session hears it.
    let env = recording.map(general.hearing) ?? general
    let book = env.phrasebook
    var notices: [Message] = []

    let dataDirectory = env.dataDirectory
    let defaults = env.defaultSettings
    let store = PendingStore { try Store(directory: dataDirectory, defaults: defaults) }
    // Long enough to know who this is and apply their settings; a locked data file costs only the
    // defaults, never the first words (PendingStore).
    let opened = try? store.wait(timeout: 1.5)?.get()
    let settings = (try? opened?.settings()) ?? env.defaultSettings
    let profile = (try? opened?.profile()) ?? nil

    let speech = makeSpeechOutput(env, session, settings: settings, notices: &notices)

    var voice = VoiceInput.none
    var recognizer: SpeechRecognizer?
    // A microphone's recognizer starts from the mean the voice had through it last session.
    func remembering(_ recognizer: SpeechRecognizer) -> SpeechRecognizer {
        recognizer.beginSession(startingMean: RememberedMean.load(from: dataDirectory, background: recognizer.configuration.background))
        return recognizer
    }
    /// The microphone was left closed because this language is not heard yet: another may be.
    var microphoneWaits = false
    if let recording {
        recognizer = try env.makeRecognizer()
        voice = .recording(recording)
    } else if !session.text {
        do {
            // The recognizer first: a microphone records from the moment it opens, and what it
            // hears while the grammars are built would overrun its buffer.
            let built = remembering(try env.makeRecognizer())
            voice = .microphone(try MicrophoneSource(device: session.microphone))
            recognizer = built
        } catch SpeechError.audioDevice {
            notices.append(book.message(.noMicrophone))
        } catch is NotHeard {
            notices.append(book.message(.noHearingInLanguage))
            notices.append(book.message(.learnVoiceHint))
            microphoneWaits = true
        } catch {
            notices.append(book.message(.noSpeechEngine, ["reason": Message("\(error)")]))
        }
    }

    // The questions come first on the first start of an interactive assistant (someone at a
    // terminal or a microphone), and whenever they are asked for.
    let countries = env.emergencyCountries
    let interactive = isatty(STDIN_FILENO) == 1 || { if case .microphone = voice { return true } else { return false } }()
    let today = CalendarDay.today()
    var onboarding: OnboardingStart?
    switch mode {
    case .onboarding:
        onboarding = OnboardingStart(countries: countries, today: today, settings: settings, thenReadings: false,
                                     answers: keptAnswers(profile: profile, settings: settings, store: opened))
    case .assistant where profile == nil && opened != nil && interactive:
        onboarding = OnboardingStart(countries: countries, today: today, settings: settings, thenReadings: true)
    case .assistant:
        break
    }

    if session.audioIn == nil, case .none = voice {
        notices.append(book.message(onboarding != nil ? .keyboardHintAnswers : .keyboardHint))
    }

    var configuration = AssistantRuntime.Configuration(
        phrasebook: book, preferredUnit: unit ?? settings.glucoseUnit, store: store,
        recognizer: recognizer, voice: voice, keyboard: session.audioIn == nil, speech: speech, notices: notices)
    configuration.style = settings.plainOutput ? .plain : env.style
    configuration.emergency = env.emergencyHelp
    configuration.onboarding = onboarding
    configuration.settings = settings
    configuration.hasProfile = profile != nil
    configuration.countries = countries
    configuration.baseVoice = env.table.speech.voice
    configuration.pinyin = env.pinyin
    // The language may change during the session: what is made from here on is made in it.
    // A noisy room's recognizer is made on a thread of its own (`recognizerOver`).
    let current = Locked(env)
    configuration.switchLanguage = { language, listening in
        let other = try current.value.speaking(language)
        current.value = other
        var recognizer: SpeechRecognizer?
        if listening {
            do { recognizer = try other.makeRecognizer() } catch is NotHeard { recognizer = nil }
        }
        return SpokenLanguage(phrasebook: other.phrasebook, baseVoice: other.table.speech.voice, pinyin: other.pinyin,
                              recognizer: recognizer)
    }
    // The microphone's room may get noisy, or quiet again (`AudioBackground.following`).
    configuration.recognizerOver = { background in
        let language = current.value
        guard let conditions = language.conditions.over(background) else { return nil }
        do { return remembering(try language.hearing(conditions).makeRecognizer()) } catch is NotHeard { return nil }
    }
    // Opened again to learn the voice, or when a language that can be heard is chosen.
    if microphoneWaits || { if case .microphone = voice { return true } else { return false } }() {
        configuration.openMicrophone = { try MicrophoneSource(device: session.microphone) }
        // A mean that cannot be kept costs the next session a quarter second, nothing more.
        configuration.microphoneClosed = { try? RememberedMean.keep(from: $0, in: dataDirectory) }
    }
    configuration.makeSpeech = { settings in
        var ignored: [Message] = []
        let speech = makeSpeechOutput(current.value, session, settings: settings, notices: &ignored)
        return speech is SilentOutput ? nil : speech
    }
    configuration.styleForSettings = { $0.plainOutput ? .plain : env.style }
    configuration.hasLearnedVoice = FileManager.default.fileExists(atPath: env.dataDirectory.voiceDirectory.path)
    configuration.forgetVoice = { listening in
        guard try env.dataDirectory.forgetVoice() else { return (false, nil) }
        guard listening else { return (true, nil) }
        // The general model, or none where the language is heard only with a learned voice.
        do { return (true, try current.value.makeRecognizer()) } catch is NotHeard { return (true, nil) }
    }
    configuration.voiceLearner = VoiceLearner(
        prepare: {
            let language = current.value
            try language.dataDirectory.prepare()
            return (try VoiceEnrollment(table: language.table, resources: language.resources), VoiceEnrollment.prompts(language.table))
        },
        directory: env.dataDirectory.voiceDirectory,
        makeRecognizer: { try current.value.makeRecognizer() }, band: env.conditions.band)
    configuration.confirmedSpeech = env.dataDirectory.confirmedSpeech
    AssistantRuntime(configuration).run()
}

/// The answers already on record, offered again when the questions are asked again.
private func keptAnswers(profile: Profile?, settings: Settings, store: Store?) -> [ProfileQuestion: ProfileAnswer] {
    guard let profile else { return [:] }
    var answers: [ProfileQuestion: ProfileAnswer] = [
        .language: .language(settings.language), .glucoseUnit: .glucoseUnit(settings.glucoseUnit),
        .bodyUnits: .bodyUnits(settings.bodyUnits), .dateOfBirth: .dateOfBirth(profile.dateOfBirth),
        .height: .height(cm: profile.heightCm), .weight: .weight(kg: profile.weightKg), .sex: .sex(profile.sex),
        .diabetesType: .diabetesType(profile.diabetesType), .country: profile.country.map { .country($0) } ?? .skipped,
        .reminder: .reminder(settings.reminder),
    ]
    if let first = (try? store?.contacts())??.first {
        answers[.contactName] = .contactName(first.name)
        answers[.contactPhone] = .contactPhone(first.phone)
    }
    return answers
}

func makeSpeechOutput(_ env: AppEnvironment, _ session: SessionOptions, settings: Settings,
                              notices: inout [Message]) -> SpeechOutput {
    if env.noSpeech || !settings.speechOn { return SilentOutput() }
    let synthesizer: SpeechSynthesizer
    do {
        synthesizer = try SpeechSynthesizer.shared()
    } catch {
        notices.append(env.phrasebook.message(.noSpeechEngine, ["reason": Message("\(error)")]))
        return SilentOutput()
    }
    let sound = SpeechOutputStyle(settings: settings, baseVoice: env.table.speech.voice, pinyin: env.pinyin)
    if let audioOut = session.audioOut {
        do {
            return try WAVFileOutput(synthesizer: synthesizer, url: URL(fileURLWithPath: audioOut), style: sound)
        } catch {
            notices.append(env.phrasebook.message(.noSpeaker))
            return SilentOutput()
        }
    }
    do {
        return SpeakerOutput(synthesizer: synthesizer, sink: try SpeakerSink(device: session.speaker), style: sound)
    } catch {
        notices.append(env.phrasebook.message(.noSpeaker))
        return SilentOutput()
    }
}

/// One short reason for an audio file problem, in the person's language.
func describe(_ error: Error, _ book: Phrasebook) -> String {
    switch error {
    case AudioFileError.unreadable: return book.text(.audioUnreadable)
    case AudioFileError.notWAV: return book.text(.audioNotWAV)
    case AudioFileError.unsupportedFormat(let format): return book.text(.audioUnsupported, ["format": format])
    case AudioFileError.truncated: return book.text(.audioTruncated)
    default: return "\(error)"
    }
}
