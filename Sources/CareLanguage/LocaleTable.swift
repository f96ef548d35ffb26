import CareModel
import Foundation
import Yams

/// One locale's table (`locales/<id>.yaml`): what the assistant says and what it understands.
public struct LocaleTable: Sendable, Decodable {
    public var id: String
    public var name: String
    public var speech: Speech
    public var numbers: Numbers
    public var units: [String: UnitPhrases]
    public var tags: [String: Choice]
    public var reading: Reading
    public var time: TimeWords
    public var answers: [String: [String]]
    public var commands: [String: [String]]
    public var emergency: [String]
    /// The calls for help of the other languages CareVoice speaks (their tables' `emergency`),
    /// understood typed whichever language the session speaks: 救命 typed in an English session
    /// brings help too. Filled in by `ResourceLocator.loadLocale`, never written in a table.
    /// Only those of `speech.heardCallsForHelp` are listened for.
    public var emergencyInOtherLanguages: [String]?
    public var services: [String: String]
    public var helplineKinds: [String: String]
    public var lists: Lists
    public var phoneDigits: PhoneDigits
    public var messages: [String: String]
    public var profile: ProfileWords
    /// The onboarding questions and what is said around them (keys: `OnboardingKey`).
    public var onboarding: [String: String]
    public var changes: ChangeWords
    public var contacts: ContactWords
    public var enrollment: Enrollment
    public var overview: OverviewWords
    public var diary: DiaryWords
    public var edits: EditWords

    /// Changing what is on record, and undoing the session's last change.
    public struct EditWords: Sendable, Decodable {
        public var deleteLastReading: [String]
        public var deleteLastNote: [String]
        /// Followed by a reading's number (and optionally unit and tag).
        public var changeLastReading: [String]
        public var undo: [String]
    }

    /// Diary notes: the preset tags, numbered from 1 in this order.
    public struct DiaryWords: Sendable, Decodable {
        public struct Tag: Sendable, Decodable {
            public var key: String
            public var say: [String]
            public var speak: String
            /// A meal's time of day, for "at dinner".
            public var hour: Int?
        }
        public var tags: [Tag]
        /// "Add a note": alone, the note is asked for; followed by words, they are the note.
        public var add: [String]
        /// Beginnings of a sentence that is a note as it stands ("I had ...").
        public var narrations: [String]
        /// "tags exercise and stress": what follows are tags.
        public var tagWords: [String]
        public var attachPicture: [String]

        /// The preset a tag names ("Supper", "3", "dinner" -> dinner), else the tag itself in
        /// lower case (the person's own); nil for a number that names no preset.
        public func canonicalTag(_ text: String) -> String? {
            let word = text.trimmingCharacters(in: .whitespaces).lowercased()
            if let number = Int(word) { return tags.indices.contains(number - 1) ? tags[number - 1].key : nil }
            return tags.first { $0.key == word || $0.say.contains(word) }?.key ?? word
        }

        /// How a stored tag is named: a preset's own word, or the person's tag as they wrote it.
        public func name(_ key: String) -> String { tags.first { $0.key == key }?.speak ?? key }
    }

    /// "How am I doing this week?": the questions, and the periods they may name (keys are
    /// `ReportRange` texts such as "7d").
    public struct OverviewWords: Sendable, Decodable {
        public var asks: [String]
        public var periods: [String: [String]]
        public var defaultPeriod: String
        /// "What did I record": a day's readings and notes, followed by today or yesterday.
        public var recall: [String]
    }

    /// Learning the person's voice: the phrases said, in order.
    public struct Enrollment: Sendable, Decodable {
        public var prompts: [String]
    }

    /// Emergency contacts in the conversation: adding, listing and removing them.
    public struct ContactWords: Sendable, Decodable {
        public var add: [String]
        public var list: [String]
        /// Leads of "remove contact two"; the contact's number follows, after an optional `number`.
        public var remove: [String]
        public var number: [String]
        public var relationLeads: [String]
        public var relations: [String]
        public var askName: String
        public var typeName: String
        public var askPhone: String
        public var askRelation: String
        public var readBack: String
        public var editPrompt: String
        public var editHint: String
        public var typeHint: String
        public var confirmHint: String
        public var editProblem: String
        public var notChanged: String
        public var none: String
        public var removeReadBack: String
        public var noSuch: String
        public var removeHint: String
    }

    /// Changing the profile and the settings afterwards (keys of `fields`: `ChangeField`).
    public struct ChangeWords: Sendable, Decodable {
        public var leads: [String]
        public var joins: [String]
        public var fields: [String: Field]
        public var commands: [String: [String]]
        public var switchOn: [String]
        public var switchOff: [String]
        public var voices: [String: Choice]
        public var on: String
        public var off: String
        public var digitsOn: String
        public var digitsOff: String
        public var wordsPerMinute: String
        public var volumePercent: String
        public var nothing: String
        public var readBack: String
        public var saved: String
        public var notSaved: String
        public var current: String
        public var needsProfile: String
        public var unknownField: String
        public var needsValue: String
        public var badSwitch: String
        public var badNumber: String
        public var notUnderstood: String
        public var confirmHint: String

        public struct Field: Sendable, Decodable {
            public var say: [String]
            public var write: [String]
            public var label: String
        }
    }

    public struct ProfileWords: Sendable, Decodable {
        public var sexes: [String: Choice]
        public var diabetesTypes: [String: Choice]
        public var bodyUnits: [String: Choice]
        public var reminders: [String: Choice]
        public var languages: [String: Choice]
        public var months: [String]
        public var monthAbbreviations: [String]
        public var ordinals: [String: Int]
        public var ordinalSuffixes: [String]
        /// Words after the year, month and day of a date written the Chinese way (1948年3月4日);
        /// empty where dates are said with month names.
        public var dateMarkers: DateMarkers
        public var thousand: String
        public var lengthUnits: [String: SpokenAndWritten]
        public var weightUnits: [String: SpokenAndWritten]
        public var fillers: [String]
        public var back: [String]
        public var skip: [String]
        public var heightCm: String
        public var heightCmSpoken: String
        public var heightFeet: String
        public var heightFeetSpoken: String
        public var weightKg: String
        public var weightKgSpoken: String
        public var weightLb: String
        public var weightLbSpoken: String
        public var dateFormat: String
        public var summaryLabels: [String: String]
        public var countryAliases: [String: String]
    }

    public struct DateMarkers: Sendable, Decodable {
        public var year: [String]
        public var month: [String]
        public var day: [String]
    }

    public struct Lists: Sendable, Decodable {
        /// Between the parts of one description: "6.5 mmol/L, before breakfast".
        public var clause: String
        public var separator: String
        public var and: String
        public var or: String
    }

    public struct PhoneDigits: Sendable, Decodable {
        public var separator: String
        public var groupSeparator: String
        public var plus: String
    }

    /// The calls for help the recognizer listens for: the table's own, and another language's
    /// it hears too (`speech.heardCallsForHelp`).
    public var spokenCallsForHelp: [String] {
        emergency + (speech.heardCallsForHelp?.phrases ?? [])
    }

    /// Every phrase understood as a call for help, said or typed, each once.
    public var callsForHelp: [String] {
        var seen = Set<String>()
        return (spokenCallsForHelp + (emergencyInOtherLanguages ?? [])).filter { seen.insert($0).inserted }
    }

    /// Calls for help of another language, listened for in this one (`Speech.heardCallsForHelp`).
    public struct HeardCallsForHelp: Sendable, Decodable {
        /// The folder under `models/` whose tables spell them in this model's phones
        /// (`PinyinSpeller`, `PinyinPhones`).
        public var pinyinTables: String
        /// Each one of that language's `emergency` phrases (a test checks).
        public var phrases: [String]
    }

    public struct Speech: Sendable, Decodable {
        /// When the assistant listens in this language; when it does not, it is typed.
        public var hears: Hearing
        public var voice: String
        public var acousticModel: String
        public var dictionary: String
        public var extraDictionary: String?
        /// The acoustic model's means adapted to telephone-band speech (8 kHz), relative to
        /// `models/`, for recordings that carry nothing above 4 kHz; nil: the model's own.
        public var narrowbandMeans: String?
        /// The acoustic model's means moved for speech heard with a noisy room's noise taken
        /// out, relative to `models/`, for full-band audio heard so (`AudioBackground.noisy`) with
        /// no learned voice; nil: the model's own.
        public var noisyRoomMeans: String?
        /// A statistical language model for free dictation (diary notes), if the locale has one.
        public var languageModel: String?
        /// Common words that are not what the assistant listens for, one a line, relative to
        /// `models/`: heard beside the reading grammar, to turn away speech not meant for it
        /// (`OtherWordsCheck`); nil: none.
        public var otherWords: String?
        /// How much less likely than the grammar's words each phone of such a word is heard
        /// (`OtherWordsCheck.oddsPerPhone`).
        public var otherWordOddsPerPhone: Double?
        /// The same once the person's voice is learned: readings fit a learned voice better, so
        /// the other words may be likelier there. Nil: as without one.
        public var otherWordOddsPerPhoneWithVoice: Double?
        /// The same without a learned voice in a noisy room, where noise fits free words better
        /// than readings, so they are far less likely there. Nil: none there.
        public var otherWordOddsPerPhoneInNoise: Double?
        /// The folder under `models/` whose tables turn what is said into pinyin for the voice
        /// (`PinyinSpeller`); nil when the voice reads the language's own script.
        public var pinyinTables: String?
        /// Phrases understood when typed but left out of the recognizer's grammars: to the
        /// acoustic model they sound like other phrases (是 like 十).
        public var unsaid: [String]
        /// Every reading heard is read back as a guess, its digits one by one (`readBackUnsure`):
        /// where the grammar fit tells right from wrong too poorly to trust (Chinese).
        public var guessesReadings: Bool
        /// How many times likelier than its grammar alone makes them the emergency words are
        /// heard, in every state: calibrated per language (`ListeningContext.wordOdds`).
        public var emergencyOdds: Double
        /// These emergency words' odds instead of `emergencyOdds` (word: odds): a long word is
        /// heard without help, and its odds only pull other words onto it. Nil: none of their own.
        public var emergencyWordOdds: [String: Double]?
        /// Another language's calls for help that this language's recognizer listens for too: a
        /// Chinese speaker's 救命 in an English session. Nil: none.
        public var heardCallsForHelp: HeardCallsForHelp?
        /// Whether, in a quiet room, a reading whose number is whole is answered at the first
        /// short pause, its unit, meal or time heard alone after the read-back
        /// (`GrammarBuilder.hearsMealAfterReadBack`, `Intent.canBeAnsweredAtOnce`).
        public var mealAfterReadBack: Bool
        /// In noise, a reading ends early only after a pause this long, in seconds, instead of
        /// the early end's 0.2 s (`SpeechRecognizer.Configuration.longerEndSilenceOverNoise`):
        /// where the last syllable of a meal decides it (午饭前, 午饭后). Nil: no longer.
        public var readingEndPauseInNoise: Double?
        /// The endings of the readings that wait `readingEndPauseInNoise` in noise: endings that
        /// sound like the start of a longer one, which a pause the noise makes inside it cut
        /// short ("before breakfast" sounds like "before bed" up to its k). Nil: every reading
        /// waits.
        public var readingEndsWaitingInNoise: [String]?
        /// How many times likelier than the reading grammar alone makes them these words are
        /// heard in a reading in a noisy room (`ListeningContext.wordOdds`): there the noise taken
        /// out takes the hiss of "s" with it, and "sixteen" was heard as "fifteen", and the "n" of
        /// "thirteen", heard as "thirty". Nil: none.
        public var readingWordOddsInNoise: [String: Double]?
    }

    /// When the recognizer is good enough to listen to a person in a language.
    public enum Hearing: String, Sendable, Decodable {
        /// With the general acoustic model, from the first start.
        case always
        /// Only once it has learned the person's voice (`carevoice enroll`): the general model
        /// hears too little of the language (Chinese through English phones).
        case withLearnedVoice
    }

    public struct Numbers: Sendable, Decodable {
        /// How numbers are built: from the words of this table (English: "one hundred twenty"), or
        /// with Chinese characters (一百二十, `ChineseNumerals`). Words unless the table says.
        public var system: NumberSystem?
        public var digits: [String: Int]
        public var zeroAlternatives: [String]
        public var teens: [String: Int]
        public var tens: [String: Int]
        public var hundred: String
        public var article: String
        public var conjunction: String
        public var point: String
    }

    public enum NumberSystem: String, Sendable, Decodable {
        case words, chinese
    }

    public struct UnitPhrases: Sendable, Decodable {
        public var say: [String]
        public var write: [String]
        public var speak: String
        public var symbol: String
    }

    /// One of several answers (a tag, a diabetes type...): how it is said, typed and read back.
    public struct Choice: Sendable, Decodable {
        public var say: [String]
        public var write: [String]?
        public var speak: String
    }

    public struct Reading: Sendable, Decodable {
        public var lead: [String]
        public var fillers: [String]
        public var templates: [String]
        /// How a reading may be said to correct the one being confirmed (a stricter subset).
        public var correctionTemplates: [String]
    }

    public struct SpokenAndWritten: Sendable, Decodable {
        public var say: [String]
        public var write: [String]
    }

    public struct PartOfDay: Sendable, Decodable {
        public var say: [String]
        public var day: String
        public var hour: Int
        public var meridiem: String
    }

    public struct TimeWords: Sendable, Decodable {
        public var at: [String]
        public var on: [String]
        public var now: [String]
        public var today: [String]
        public var yesterday: [String]
        public var oclock: [String]
        /// Chinese clock words after the hour: 半 (七点半), 分 (七点十分), 整 (七点整). English
        /// gives its minutes as numbers ("seven thirty"), so its lists are empty.
        public var half: [String]
        public var minutes: [String]
        public var exactly: [String]
        public var am: SpokenAndWritten
        public var pm: SpokenAndWritten
        public var noon: [String]
        public var midnight: [String]
        public var partsOfDay: [PartOfDay]
        public var speakToday: String
        public var speakYesterday: String
        public var speakDate: String
        public var dateFormat: String
        public var clockFormat: String
        /// A date written for a reader, in reports and e-mails: unambiguous (2026-11-22, 2026年11月22日).
        public var writtenDateFormat: String
    }

    /// The tag table keyed by the model's tag type.
    public func phrases(for tag: MealTag) -> Choice {
        guard let phrases = tags[tag.rawValue] else { preconditionFailure("locale \(id) lacks tag \(tag.rawValue)") }
        return phrases
    }

    public func phrases(for unit: GlucoseUnit) -> UnitPhrases {
        guard let phrases = units[unit.rawValue] else { preconditionFailure("locale \(id) lacks unit \(unit.rawValue)") }
        return phrases
    }
}

public enum LocaleTableError: Error, Equatable, CustomStringConvertible {
    case notFound(String)
    case invalid(file: String, reason: String)
    case incomplete(file: String, missing: String)

    public var description: String {
        switch self {
        case .notFound(let id): return "no locale table named \(id)"
        case .invalid(let file, let reason): return "\(file) is not a valid locale table: \(reason)"
        case .incomplete(let file, let missing): return "\(file) lacks \(missing)"
        }
    }
}

extension LocaleTable {
    /// Parses and checks a table: every tag and unit the model knows must have phrases.
    public static func parse(yaml: String, file: String = "locale table") throws -> LocaleTable {
        let table: LocaleTable
        do {
            table = try YAMLDecoder().decode(LocaleTable.self, from: yaml)
        } catch {
            throw LocaleTableError.invalid(file: file, reason: "\(error)")
        }
        for tag in MealTag.allCases where table.tags[tag.rawValue] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "tags.\(tag.rawValue)")
        }
        for unit in GlucoseUnit.allCases where table.units[unit.rawValue] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "units.\(unit.rawValue)")
        }
        for key in ["yes", "no", "cancel", "repeat"] where table.answers[key] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "answers.\(key)")
        }
        for service in EmergencyService.allCases where table.services[service.rawValue] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "services.\(service.rawValue)")
        }
        for kind in HelplineKind.allCases where table.helplineKinds[kind.rawValue] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "helplineKinds.\(kind.rawValue)")
        }
        let p = table.profile
        let choices: [(String, [String: Choice], [String])] = [
            ("sexes", p.sexes, Sex.allCases.map(\.rawValue)),
            ("diabetesTypes", p.diabetesTypes, DiabetesType.allCases.map(\.rawValue)),
            ("bodyUnits", p.bodyUnits, BodyUnits.allCases.map(\.rawValue)),
            ("reminders", p.reminders, ReminderInterval.allCases.map(\.rawValue)),
            ("languages", p.languages, Language.allCases.map(\.rawValue)),
        ]
        for (group, table, keys) in choices {
            for key in keys where table[key] == nil {
                throw LocaleTableError.incomplete(file: file, missing: "profile.\(group).\(key)")
            }
        }
        for key in ["cm", "m", "ft", "in"] where p.lengthUnits[key] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "profile.lengthUnits.\(key)")
        }
        for key in ["kg", "lb", "st"] where p.weightUnits[key] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "profile.weightUnits.\(key)")
        }
        for question in ProfileQuestion.allCases where p.summaryLabels[question.rawValue] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "profile.summaryLabels.\(question.rawValue)")
        }
        for key in OnboardingKey.allCases where table.onboarding[key.rawValue] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "onboarding.\(key.rawValue)")
        }
        for field in ChangeField.allCases where table.changes.fields[field.rawValue] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "changes.fields.\(field.rawValue)")
        }
        for command in SettingCommand.allCases where table.changes.commands[command.rawValue] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "changes.commands.\(command.rawValue)")
        }
        for voice in VoiceChoice.allCases where table.changes.voices[voice.rawValue] == nil {
            throw LocaleTableError.incomplete(file: file, missing: "changes.voices.\(voice.rawValue)")
        }
        guard p.months.count == 12, p.monthAbbreviations.count == 12 else {
            throw LocaleTableError.incomplete(file: file, missing: "profile.months (12 of them)")
        }
        for key in table.overview.periods.keys.sorted() + [table.overview.defaultPeriod] where ReportRange(key) == nil {
            throw LocaleTableError.incomplete(file: file, missing: "overview.periods: \(key) is not a period such as 7d")
        }
        guard !table.diary.tags.isEmpty else {
            throw LocaleTableError.incomplete(file: file, missing: "diary.tags")
        }
        guard table.enrollment.prompts.count >= 10 else {
            throw LocaleTableError.incomplete(file: file, missing: "enrollment.prompts (10 or more)")
        }
        return table
    }
}
