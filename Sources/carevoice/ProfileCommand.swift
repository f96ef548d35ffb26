import ArgumentParser
import CareLanguage
import CareModel
import CareStore
import CareTerminal
import Foundation

/// The profile the questionnaire made: shown, and changed one field at a time.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Show your profile, or change one thing in it.",
        subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show your profile.")
        @OptionGroup var common: CommonOptions
        @Flag(help: "Print JSON instead of lines.") var json = false

        func run() throws {
            let env = try AppEnvironment.make(common)
            let store = try openStore(env)
            guard let profile = try store.profile() else {
                throw CommandFailure(env.table.changes.needsProfile)
            }
            if json { return print(try ProfileJSON.encode(profile)) }
            showFields(ChangeField.profileFields, profile: profile, settings: try store.settings(), env.phrasebook)
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change one thing in your profile, after reading it back.",
            discussion: "Fields: birth, height, weight, sex, diabetes, country, name, address, allergies. "
                + "Examples: profile set weight 70kg; profile set birth 1948-03-04; profile set allergies \"penicillin, nuts\".")
        @OptionGroup var common: CommonOptions
        @Argument(help: "What to change.") var field: String
        @Argument(help: "The new value.") var value: [String] = []
        @Flag(help: "Save without asking.") var yes = false

        func run() throws {
            try changeField(field, value.joined(separator: " "), allowed: ChangeField.profileFields, yes: yes, common)
        }
    }
}

/// The settings: shown, and changed one at a time. They apply from the next start of the
/// assistant; by voice in the assistant they apply at once.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Show your settings, or change one.",
        subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show your settings.")
        @OptionGroup var common: CommonOptions
        @Flag(help: "Print JSON instead of lines.") var json = false

        func run() throws {
            let env = try AppEnvironment.make(common)
            let store = try openStore(env)
            let settings = try store.settings()
            if json { return print(try SettingsJSON.encode(settings)) }
            showFields(ChangeField.settingFields, profile: nil, settings: settings, env.phrasebook)
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change one setting, after reading it back.",
            discussion: "Settings: language, unit (mmol/L or mg/dL), units (metric or imperial), reminder (12h, 24h, never), "
                + "speech (on/off), rate (80-300 words a minute), volume (0-200), voice (standard, male, female), "
                + "digits (on/off: numbers read digit by digit), plain (on/off), "
                + "voice-learning (on/off: learn your voice from the readings you confirm).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "Which setting.") var field: String
        @Argument(help: "The new value.") var value: [String] = []
        @Flag(help: "Save without asking.") var yes = false

        func run() throws {
            try changeField(field, value.joined(separator: " "), allowed: ChangeField.settingFields, yes: yes, common)
        }
    }
}

private func showFields(_ fields: [ChangeField], profile: Profile?, settings: Settings, _ book: Phrasebook) {
    for (field, value) in book.currentValues(fields, profile: profile, settings: settings) {
        Console.line(book.changeSentence(book.table.changes.current, value: value, field: field).display)
    }
}

/// Reads the value as the questionnaire would, reads it back, and saves it after a yes (or
/// `--yes`). Until then the old value stays.
private func changeField(_ name: String, _ value: String, allowed: [ChangeField], yes: Bool, _ common: CommonOptions) throws {
    let env = try AppEnvironment.make(common)
    let book = env.phrasebook
    let parser = ProfileAnswerParser(table: env.table)
    let c = env.table.changes
    guard let field = parser.field(named: name), allowed.contains(field) else {
        let names = allowed.compactMap { c.fields[$0.rawValue]?.write.first }.joined(separator: ", ")
        throw CommandFailure(c.unknownField.replacingOccurrences(of: "{field}", with: name)
            .replacingOccurrences(of: "{fields}", with: names))
    }
    let store = try openStore(env)
    let settings = try store.settings()
    let countries = env.emergencyCountries
    let context = ChangeContext(settings: settings, countries: countries, today: CalendarDay.today())
    let change: ProfileChange
    switch parser.change(field, value, context: context, book: book) {
    case .problem(let message): throw CommandFailure(message.display)
    case .change(let c): change = c
    }
    if change.changesProfile, try store.profile() == nil { throw CommandFailure(c.needsProfile) }

    if !yes {
        Console.line(book.changeSentence(c.readBack, change, units: settings.bodyUnits).display)
        Console.line(c.confirmHint)
        let answer = readLine().map { UtteranceParser(table: env.table).parse($0) }
        guard answer == .answer(.yes) else {
            Console.line(c.notSaved)
            throw ExitCode(1)
        }
    }
    let saved = try store.apply(change)
    Console.line(book.changeSentence(c.saved, change, units: saved.bodyUnits).display)
}

/// `carevoice profile --json`.
enum ProfileJSON {
    struct Object: Encodable {
        var dateOfBirth: String
        var heightCm: Double
        var weightKg: Double
        var sex: String
        var diabetesType: String
        var country: String?
        var name: String?
        var address: String?
        var allergies: [String]
    }

    static func encode(_ p: Profile) throws -> String {
        let object = Object(dateOfBirth: p.dateOfBirth.description, heightCm: p.heightCm, weightKg: p.weightKg,
                            sex: p.sex.rawValue, diabetesType: p.diabetesType.rawValue, country: p.country,
                            name: p.name, address: p.address, allergies: p.allergies)
        return try jsonText(object)
    }
}

/// `carevoice settings --json`.
enum SettingsJSON {
    struct Object: Encodable {
        var language: String
        var glucoseUnit: String
        var bodyUnits: String
        var reminder: String
        var speech: Bool
        var speechRate: Int
        var volume: Int
        var voice: String
        var numbersDigitByDigit: Bool
        var plainOutput: Bool
        var learnsVoiceFromReadings: Bool
    }

    static func encode(_ s: Settings) throws -> String {
        try jsonText(Object(language: s.language.rawValue, glucoseUnit: s.glucoseUnit.rawValue,
                            bodyUnits: s.bodyUnits.rawValue, reminder: s.reminder.rawValue, speech: s.speechOn,
                            speechRate: s.speechRate, volume: s.volume, voice: s.voice.rawValue,
                            numbersDigitByDigit: s.numbersDigitByDigit, plainOutput: s.plainOutput,
                            learnsVoiceFromReadings: s.learnsVoiceFromReadings))
    }
}

private func jsonText<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
