import Foundation

/// The voices a person can choose between. espeak-ng names its variants; ours say what they are.
public enum VoiceChoice: String, Sendable, Codable, CaseIterable {
    case standard, male, female

    /// The espeak-ng variant appended to the locale's voice ("en-us+f3"), nil for its own.
    public var espeakVariant: String? {
        switch self {
        case .standard: return nil
        case .male: return "m3"
        case .female: return "f3"
        }
    }

    public init(espeakVariant: String?) {
        self = Self.allCases.first { $0.espeakVariant == espeakVariant } ?? .standard
    }
}

/// One change to the profile or the settings. It is read back and confirmed before it is
/// saved; until then the old value stays.
public enum ProfileChange: Sendable, Equatable {
    /// What the questionnaire asks: date of birth, height, weight, sex, diabetes type, country,
    /// and the language, units and reminder settings.
    case answer(ProfileAnswer)
    /// For the emergency summary; nil or empty clears it.
    case name(String?)
    case address(String?)
    case allergies([String])
    case speech(on: Bool)
    case speechRate(wordsPerMinute: Int)
    case volume(Int)
    case voice(VoiceChoice)
    case numbersDigitByDigit(Bool)
    case plainOutput(Bool)
    case voiceLearning(Bool)

    /// Whether saving it needs a profile (one made by the questionnaire).
    public var changesProfile: Bool {
        switch self {
        case .answer(let answer):
            switch answer {
            case .language, .glucoseUnit, .bodyUnits, .reminder: return false
            default: return true
            }
        case .name, .address, .allergies: return true
        default: return false
        }
    }

    public func applied(to profile: Profile) -> Profile {
        var p = profile
        switch self {
        case .answer(.dateOfBirth(let day)): p.dateOfBirth = day
        case .answer(.height(let cm)): p.heightCm = cm
        case .answer(.weight(let kg)): p.weightKg = kg
        case .answer(.sex(let sex)): p.sex = sex
        case .answer(.diabetesType(let type)): p.diabetesType = type
        case .answer(.country(let code)): p.country = code
        case .answer(.skipped): break
        case .name(let name): p.name = Self.cleared(name)
        case .address(let address): p.address = Self.cleared(address)
        case .allergies(let list): p.allergies = list.compactMap { Self.cleared($0) }
        default: break
        }
        return p
    }

    public func applied(to settings: Settings) -> Settings {
        var s = settings
        switch self {
        case .answer(.language(let language)): s.language = language
        case .answer(.glucoseUnit(let unit)): s.glucoseUnit = unit
        case .answer(.bodyUnits(let units)): s.bodyUnits = units
        case .answer(.reminder(let interval)): s.reminder = interval
        case .speech(let on): s.speechOn = on
        case .speechRate(let wpm): s.speechRate = Settings.speechRates.clamped(wpm)
        case .volume(let volume): s.volume = Settings.volumes.clamped(volume)
        case .voice(let voice): s.voiceVariant = voice.espeakVariant
        case .numbersDigitByDigit(let on): s.numbersDigitByDigit = on
        case .plainOutput(let on): s.plainOutput = on
        case .voiceLearning(let on): s.learnsVoiceFromReadings = on
        default: break
        }
        return s
    }

    private static func cleared(_ text: String?) -> String? {
        let trimmed = text?.trimmingCharacters(in: .whitespaces) ?? ""
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension Settings {
    /// How much "faster", "slower", "louder" and "quieter" move the speech.
    public static let rateStep = 20
    public static let volumeStep = 20

    public var voice: VoiceChoice { VoiceChoice(espeakVariant: voiceVariant) }
}

extension ClosedRange where Bound == Int {
    func clamped(_ value: Int) -> Int { Swift.min(Swift.max(value, lowerBound), upperBound) }
}
