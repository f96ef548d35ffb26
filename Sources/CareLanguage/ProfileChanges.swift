import CareModel
import Foundation

/// What can be changed after the questionnaire, by voice ("change my weight to 70 kilos") or by
/// command (`carevoice profile set weight 70kg`, `carevoice settings set rate 130`).
public enum ChangeField: String, Sendable, CaseIterable {
    case dateOfBirth, height, weight, sex, diabetesType, country, name, address, allergies
    case language, glucoseUnit, bodyUnits, reminder, speech, speechRate, volume, voice, digits, plain, voiceLearning

    public static let profileFields: [ChangeField] = [.dateOfBirth, .height, .weight, .sex, .diabetesType, .country,
                                                      .name, .address, .allergies]
    public static let settingFields: [ChangeField] = [.language, .glucoseUnit, .bodyUnits, .reminder, .speech,
                                                      .speechRate, .volume, .voice, .digits, .plain, .voiceLearning]

    /// The questionnaire's question for this field, whose answer parser it shares.
    public var question: ProfileQuestion? { ProfileQuestion(rawValue: rawValue) }

    public init(of change: ProfileChange) {
        switch change {
        case .answer(let answer):
            switch answer {
            case .language: self = .language
            case .glucoseUnit: self = .glucoseUnit
            case .bodyUnits: self = .bodyUnits
            case .dateOfBirth: self = .dateOfBirth
            case .height: self = .height
            case .weight: self = .weight
            case .sex: self = .sex
            case .diabetesType: self = .diabetesType
            case .country, .skipped: self = .country
            // Contacts are not profile fields (`carevoice contacts`); the questionnaire never
            // makes them into a change.
            case .contactName, .contactPhone: self = .name
            case .reminder: self = .reminder
            }
        case .name: self = .name
        case .address: self = .address
        case .allergies: self = .allergies
        case .speech: self = .speech
        case .speechRate: self = .speechRate
        case .volume: self = .volume
        case .voice: self = .voice
        case .numbersDigitByDigit: self = .digits
        case .plainOutput: self = .plain
        case .voiceLearning: self = .voiceLearning
        }
    }
}

/// A whole sentence that changes one setting relative to where it stands ("speak slower").
public enum SettingCommand: String, Sendable, CaseIterable {
    case faster, slower, louder, quieter, speechOn, speechOff, digitsOn, digitsOff, plainOn, plainOff
    case english, chinese

    public func change(from settings: Settings) -> ProfileChange {
        switch self {
        case .faster: return .speechRate(wordsPerMinute: settings.speechRate + Settings.rateStep)
        case .slower: return .speechRate(wordsPerMinute: settings.speechRate - Settings.rateStep)
        case .louder: return .volume(settings.volume + Settings.volumeStep)
        case .quieter: return .volume(settings.volume - Settings.volumeStep)
        case .speechOn: return .speech(on: true)
        case .speechOff: return .speech(on: false)
        case .digitsOn: return .numbersDigitByDigit(true)
        case .digitsOff: return .numbersDigitByDigit(false)
        case .plainOn: return .plainOutput(true)
        case .plainOff: return .plainOutput(false)
        case .english: return .answer(.language(.english))
        case .chinese: return .answer(.language(.chinese))
        }
    }
}

/// A change asked for, before its value is checked.
public enum ChangeRequest: Sendable, Equatable {
    case set(ChangeField, value: String)
    case command(SettingCommand)
}

/// What a requested change came to.
public enum ChangeOutcome: Sendable, Equatable {
    case change(ProfileChange)
    /// Not acceptable; the sentence says why.
    case problem(Message)
}

/// What a value is checked against: the units heights and weights are given in, the countries
/// that can be named, and today (for a date of birth).
public struct ChangeContext: Sendable {
    public var settings: Settings
    public var countries: [String]
    public var today: CalendarDay

    public init(settings: Settings, countries: [String], today: CalendarDay) {
        self.settings = settings
        self.countries = countries
        self.today = today
    }
}

extension ProfileAnswerParser {
    /// "change my weight to 70 kilos", "speak slower"; nil for anything else.
    public func changeRequest(_ text: String) -> ChangeRequest? {
        let c = table.changes
        let tokens = Tokenizer.tokens(text)
        for command in SettingCommand.allCases where (c.commands[command.rawValue] ?? []).containsPhrase(tokens) {
            return .command(command)
        }
        guard let afterLead = Self.dropPrefix(tokens, anyOf: c.leads) else { return nil }
        // The longest field name first: "glucose unit" before a shorter one it starts with.
        let names = ChangeField.allCases.flatMap { field in
            (c.fields[field.rawValue].map { $0.say + $0.write } ?? []).splitPhrases.map { (field, $0) }
        }.sorted { $0.1.count > $1.1.count }
        for (field, name) in names where !name.isEmpty && afterLead.starts(with: name) {
            // "change my weight": the value is asked for next.
            if afterLead.count == name.count { return .set(field, value: "") }
            guard let value = Self.dropPrefix(Array(afterLead.dropFirst(name.count)), anyOf: c.joins) else { continue }
            // The value keeps its original spelling (a name, an address): cut it from the text.
            return .set(field, value: Self.text(text, after: tokens.count - value.count, tokens: value))
        }
        return nil
    }

    /// A field by the name typed after `profile set` or `settings set`.
    public func field(named name: String) -> ChangeField? {
        let wanted = Tokenizer.tokens(name).joined(separator: " ")
        let raw = name.lowercased()
        return ChangeField.allCases.first { field in
            guard let f = table.changes.fields[field.rawValue] else { return false }
            return (f.write + f.say + [f.label, field.rawValue]).contains {
                $0.lowercased() == raw || Tokenizer.tokens($0).joined(separator: " ") == wanted
            }
        }
    }

    /// The new value for `field`, checked as the questionnaire checks its answers.
    public func change(_ field: ChangeField, _ value: String, context: ChangeContext, book: Phrasebook) -> ChangeOutcome {
        let c = table.changes
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        let label = book.changeLabel(field)
        func sentence(_ template: String, _ values: [String: String] = [:]) -> Message {
            Message(values.merging(["label": label, "value": trimmed]) { a, _ in a }
                .reduce(template) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) })
        }
        func problem(_ template: String, _ values: [String: String] = [:]) -> ChangeOutcome {
            .problem(sentence(template, values))
        }
        if let question = field.question {
            guard !trimmed.isEmpty else { return problem(c.needsValue) }
            switch answer(to: question, trimmed, units: context.settings.bodyUnits, countries: context.countries,
                          today: context.today, book: book) {
            case .answer(let answer): return .change(.answer(answer))
            case .problem(let message): return .problem(message)
            case .notUnderstood:
                // The question names the choices ("English or Chinese?") or gives an example.
                return .problem(sentence(c.notUnderstood).followed(by: book.question(question, contactName: nil)))
            }
        }
        func onOff() -> Bool? {
            let said = Tokenizer.tokens(trimmed)
            if c.switchOn.containsPhrase(said) { return true }
            if c.switchOff.containsPhrase(said) { return false }
            return nil
        }
        func whole(in range: ClosedRange<Int>) -> Int? {
            Int(trimmed).flatMap { range.contains($0) ? $0 : nil }
        }
        switch field {
        case .name: return .change(.name(trimmed))
        case .address: return .change(.address(trimmed))
        case .allergies:
            let list = trimmed.split(whereSeparator: { ",;，；、".contains($0) })
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return .change(.allergies(list))
        case .speech: return onOff().map { .change(.speech(on: $0)) } ?? problem(c.badSwitch)
        case .digits: return onOff().map { .change(.numbersDigitByDigit($0)) } ?? problem(c.badSwitch)
        case .plain: return onOff().map { .change(.plainOutput($0)) } ?? problem(c.badSwitch)
        case .voiceLearning: return onOff().map { .change(.voiceLearning($0)) } ?? problem(c.badSwitch)
        case .speechRate:
            let r = Settings.speechRates
            return whole(in: r).map { .change(.speechRate(wordsPerMinute: $0)) }
                ?? problem(c.badNumber, ["low": "\(r.lowerBound)", "high": "\(r.upperBound)"])
        case .volume:
            let r = Settings.volumes
            return whole(in: r).map { .change(.volume($0)) }
                ?? problem(c.badNumber, ["low": "\(r.lowerBound)", "high": "\(r.upperBound)"])
        case .voice:
            return choice(trimmed, in: c.voices, as: VoiceChoice.self).map { .change(.voice($0)) } ?? problem(c.notUnderstood)
        default:
            return problem(c.notUnderstood)
        }
    }

    private static func dropPrefix(_ tokens: [String], anyOf phrases: [String]) -> [String]? {
        for phrase in phrases.splitPhrases.sorted(by: { $0.count > $1.count }) where tokens.starts(with: phrase) {
            return Array(tokens.dropFirst(phrase.count))
        }
        return nil
    }

    /// What follows the first `count` tokens of `text`, as written (capitals and commas kept).
    /// What follows the first `count` tokens, as typed; `tokens` are those that follow.
    private static func text(_ text: String, after count: Int, tokens: [String]) -> String {
        var consumed = 0
        var words = text.split(separator: " ", omittingEmptySubsequences: true)[...]
        while consumed < count, let word = words.first {
            consumed += Tokenizer.tokens(String(word)).count
            words = words.dropFirst()
        }
        // Written without spaces, as Chinese is ("把我的体重改成七十公斤"), the value shares a
        // word with what comes before it: it is then given as its tokens.
        return consumed == count ? words.joined(separator: " ") : Tokenizer.joined(tokens)
    }
}

extension Phrasebook {
    public func changeLabel(_ field: ChangeField) -> String {
        table.changes.fields[field.rawValue]?.label ?? field.rawValue
    }

    /// A changed value as shown, said, and put on the editable line.
    public func wording(_ change: ProfileChange, units: BodyUnits) -> AnswerWording {
        let c = table.changes
        func same(_ text: String) -> AnswerWording { AnswerWording(display: text, spoken: text, editable: text) }
        func onOff(_ on: Bool) -> AnswerWording {
            AnswerWording(display: on ? c.on : c.off, spoken: on ? c.on : c.off,
                          editable: (on ? c.switchOn : c.switchOff).first ?? "")
        }
        func filled(_ template: String, _ value: Int) -> AnswerWording {
            AnswerWording(display: template.replacingOccurrences(of: "{value}", with: "\(value)"),
                          spoken: template.replacingOccurrences(of: "{value}", with: "\(value)"), editable: "\(value)")
        }
        switch change {
        case .answer(let answer): return wording(answer, units: units)
        case .name(let text), .address(let text):
            guard let text, !text.isEmpty else { return AnswerWording(display: c.nothing, spoken: c.nothing, editable: "") }
            return same(text)
        case .allergies(let list):
            guard !list.isEmpty else { return AnswerWording(display: c.nothing, spoken: c.nothing, editable: "") }
            return same(list.joined(separator: ", "))
        case .speech(let on): return onOff(on)
        case .plainOutput(let on), .voiceLearning(let on): return onOff(on)
        case .numbersDigitByDigit(let on):
            let text = on ? c.digitsOn : c.digitsOff
            return AnswerWording(display: text, spoken: text, editable: (on ? c.switchOn : c.switchOff).first ?? "")
        case .speechRate(let wpm): return filled(c.wordsPerMinute, wpm)
        case .volume(let volume): return filled(c.volumePercent, volume)
        case .voice(let voice):
            let choice = c.voices[voice.rawValue]
            return AnswerWording(display: choice?.speak ?? voice.rawValue, spoken: choice?.speak ?? voice.rawValue,
                                 editable: choice?.say.first ?? voice.rawValue)
        }
    }

    /// "weight: 70 kg." and its spoken form, with `template` from `changes:`.
    public func changeSentence(_ template: String, _ change: ProfileChange, units: BodyUnits) -> Message {
        changeSentence(template, value: wording(change, units: units), field: ChangeField(of: change))
    }

    public func changeSentence(_ template: String, value: AnswerWording, field: ChangeField) -> Message {
        let label = changeLabel(field)
        func fill(_ v: String) -> String {
            template.replacingOccurrences(of: "{label}", with: label).replacingOccurrences(of: "{value}", with: v)
        }
        return Message(display: fill(value.display), spoken: fill(value.spoken))
    }

    /// The change as an editable line that parses back to it: "change my weight to 70 kg".
    public func editableChange(_ change: ProfileChange, units: BodyUnits) -> String {
        let c = table.changes
        let field = c.fields[ChangeField(of: change).rawValue]
        let name = field?.say.first ?? field?.write.first ?? ""
        return [c.leads.first ?? "", name, c.joins.first ?? "", wording(change, units: units).editable]
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Every field's present value, as `carevoice profile` and `carevoice settings` show them.
    public func currentValues(_ fields: [ChangeField], profile: Profile?, settings: Settings) -> [(ChangeField, AnswerWording)] {
        fields.compactMap { field -> (ChangeField, AnswerWording)? in
            guard let change = Self.currentValue(field, profile: profile, settings: settings) else { return nil }
            return (field, wording(change, units: settings.bodyUnits))
        }
    }

    /// A field's present value, as the change that would set it.
    static func currentValue(_ field: ChangeField, profile: Profile?, settings: Settings) -> ProfileChange? {
        switch field {
        case .language: return .answer(.language(settings.language))
        case .glucoseUnit: return .answer(.glucoseUnit(settings.glucoseUnit))
        case .bodyUnits: return .answer(.bodyUnits(settings.bodyUnits))
        case .reminder: return .answer(.reminder(settings.reminder))
        case .speech: return .speech(on: settings.speechOn)
        case .speechRate: return .speechRate(wordsPerMinute: settings.speechRate)
        case .volume: return .volume(settings.volume)
        case .voice: return .voice(settings.voice)
        case .digits: return .numbersDigitByDigit(settings.numbersDigitByDigit)
        case .plain: return .plainOutput(settings.plainOutput)
        case .voiceLearning: return .voiceLearning(settings.learnsVoiceFromReadings)
        default: break
        }
        guard let profile else { return nil }
        switch field {
        case .dateOfBirth: return .answer(.dateOfBirth(profile.dateOfBirth))
        case .height: return .answer(.height(cm: profile.heightCm))
        case .weight: return .answer(.weight(kg: profile.weightKg))
        case .sex: return .answer(.sex(profile.sex))
        case .diabetesType: return .answer(.diabetesType(profile.diabetesType))
        case .country: return .answer(profile.country.map { .country($0) } ?? .skipped)
        case .name: return .name(profile.name)
        case .address: return .address(profile.address)
        case .allergies: return .allergies(profile.allergies)
        default: return nil
        }
    }
}
