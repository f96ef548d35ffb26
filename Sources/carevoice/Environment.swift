import CareAssistant
import CareLanguage
import CareModel
import CareSpeech
import CareStore
import CareTerminal
import Foundation
import Logging

/// What every command sets up first: logging, resources, the locale, the data directory.
struct AppEnvironment {
    let resources: ResourceLocator
    let table: LocaleTable
    let phrasebook: Phrasebook
    let dataDirectory: DataDirectory
    let style: OutputStyle
    /// ISO 3166-1 alpha-2 from --country, upper case; nil when not given.
    let country: String?
    /// --no-speech.
    let noSpeech: Bool
    /// What the audio heard is like (`hearing`): telephone-band recordings get the narrowband
    /// means, noisy ones have the noise taken out.
    var conditions = AudioConditions()

    /// The settings before the person changes any: in the language this run speaks.
    var defaultSettings: Settings { Settings(language: Language(rawValue: table.id) ?? .english) }

    /// What turns Chinese into pinyin for the voice; nil for English, or (logged) when the
    /// tables cannot be read, in which case the voice gets the text as it is.
    var pinyin: PinyinSpeller? {
        do {
            return try resources.pinyinSpeller(for: table)
        } catch {
            Logger(label: "carevoice").warning("the pinyin tables cannot be read: \(error)")
            return nil
        }
    }

    /// Emergency help for this person: the number table and their emergency card.
    var emergencyHelp: EmergencyHelp {
        EmergencyHelp(resources: resources, country: country, dataDirectory: dataDirectory)
    }

    static func make(_ options: CommonOptions) throws -> AppEnvironment {
        // Health data: nothing we create is readable by others.
        umask(0o077)
        let level: Logger.Level = options.verbose ? .debug : .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        guard let resources = ResourceLocator.find() else {
            throw CommandFailure("cannot find the locales/ folder; set CAREVOICE_HOME to the CareVoice checkout")
        }
        let directory = options.dataDirectory.map { DataDirectory(url: URL(fileURLWithPath: $0)) } ?? DataDirectory.standard()
        // --locale, else the language setting (from the emergency card, readable even when the
        // database is not), else the system's language.
        let savedLanguage = (try? EmergencyCard.read(from: directory))??.language
        let localeID = options.locale.map(Self.localeID) ?? savedLanguage?.rawValue ?? Self.localeFromEnvironment()
        let table: LocaleTable
        do {
            table = try resources.loadLocale(localeID)
        } catch LocaleTableError.notFound {
            let known = Language.allCases.map(\.rawValue).joined(separator: " or ")
            throw CommandFailure("--locale takes \(known), not \(options.locale ?? localeID)")
        }
        return AppEnvironment(resources: resources, table: table, phrasebook: Phrasebook(table: table),
                              dataDirectory: directory, style: OutputStyle.detect(plainRequested: options.plain),
                              country: options.country?.uppercased(), noSpeech: options.noSpeech)
    }

    /// The same person and data in another language (they changed it during the session).
    func speaking(_ language: Language) throws -> AppEnvironment {
        let other = try resources.loadLocale(language.rawValue)
        return AppEnvironment(resources: resources, table: other, phrasebook: Phrasebook(table: other),
                              dataDirectory: dataDirectory, style: style, country: country, noSpeech: noSpeech, conditions: conditions)
    }

    /// The same, hearing this recording: its band and background decide how every recognizer
    /// made hears.
    func hearing(_ audio: PCMAudio) -> AppEnvironment {
        let conditions = AudioConditions.of(audio)
        Logger(label: "carevoice").debug("the recording: \(conditions.band.rawValue) band, \(conditions.background.rawValue) background")
        return hearing(conditions)
    }

    /// The same, hearing audio like this.
    func hearing(_ conditions: AudioConditions) -> AppEnvironment {
        var hearing = self
        hearing.conditions = conditions
        return hearing
    }

    /// The countries the emergency table knows (ISO codes): those the country question can hear.
    var emergencyCountries: [String] {
        (try? resources.loadEmergencyDirectory().countries.keys.sorted()) ?? []
    }

    /// The recognizer every command uses: the locale's grammars, the countries the emergency
    /// table knows (for the country question), and the person's voice if it was learned.
    /// - Parameter measuring: for the benchmarks and `listen`, which measure a language's
    ///   recognition before the assistant listens to it (`speech.hears`).
    /// - Parameter means: means to hear with instead of the model's or the band's, to measure them.
    func makeRecognizer(extraArguments: [String: String] = [:], measuring: Bool = false,
                        odds: WordOddsOverride = WordOddsOverride(), frequencyScale: Double = 1,
                        otherWordsHMMsPerFrame: Int? = nil, means: String? = nil) throws -> SpeechRecognizer {
        let voice = storedVoice()
        guard measuring || table.speech.hears == .always || voice != nil else {
            throw NotHeard(description: phrasebook.text(.noHearingInLanguage))
        }
        return try RecognizerFactory.make(table: table, resources: resources, countries: emergencyCountries,
                                          voice: voice, extraArguments: extraArguments, odds: odds, conditions: conditions,
                                          means: means, frequencyScale: frequencyScale, otherWordsHMMsPerFrame: otherWordsHMMsPerFrame)
    }

    /// The voice learned with `carevoice enroll`, if any. One that cannot be used is passed over
    /// with a notice: the general model still understands.
    func storedVoice() -> AdaptedVoice? {
        do {
            return try AdaptedVoice.load(from: dataDirectory.voiceDirectory)
        } catch {
            Console.line(phrasebook.text(.enrollUnusable, ["reason": "\(error)"]))
            return nil
        }
    }

    /// --locale as people write it: zh, zh_CN, zh-CN and chinese are zh-Hans; en_GB is en.
    static func localeID(_ given: String) -> String {
        let lower = given.lowercased()
        if lower.hasPrefix("zh") || lower == "chinese" || given == "中文" { return Language.chinese.rawValue }
        if lower.hasPrefix("en") { return Language.english.rawValue }
        return given
    }

    /// The system's language as POSIX gives it (LC_ALL, then LC_MESSAGES, then LANG): Chinese
    /// for any zh_* (Simplified is the Chinese CareVoice has), English otherwise.
    static func localeFromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let setting = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        return setting.hasPrefix("zh") ? Language.chinese.rawValue : Language.english.rawValue
    }
}

/// A WAV recording given with --audio-in; one that cannot be used is said in the person's language.
func readRecording(_ path: String, _ book: Phrasebook) throws -> PCMAudio {
    do {
        return try WAVFile.read(URL(fileURLWithPath: path))
    } catch {
        throw CommandFailure(book.text(.audioFileError, ["path": path, "reason": describe(error, book)]))
    }
}

/// The locale's language cannot be recognized yet (`speech.hears`): said as one sentence.
struct NotHeard: Error, CustomStringConvertible {
    let description: String
}

/// A failure the person can act on, printed as one sentence.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
