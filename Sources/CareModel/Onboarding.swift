/// The onboarding questions, in the order they are asked.
public enum ProfileQuestion: String, Sendable, CaseIterable, Codable {
    case language, glucoseUnit, bodyUnits, dateOfBirth, height, weight, sex, diabetesType, country
    case contactName, contactPhone, reminder

    /// Questions that may be skipped; every other one needs a valid answer.
    public var isOptional: Bool {
        switch self {
        case .country, .contactName, .contactPhone: return true
        default: return false
        }
    }

    public var next: ProfileQuestion? {
        let all = Self.allCases
        let i = all.firstIndex(of: self)!
        return i + 1 < all.count ? all[i + 1] : nil
    }

    public var previous: ProfileQuestion? {
        let all = Self.allCases
        let i = all.firstIndex(of: self)!
        return i > 0 ? all[i - 1] : nil
    }
}

/// An answer that was read back and confirmed.
public enum ProfileAnswer: Sendable, Equatable {
    case language(Language)
    case glucoseUnit(GlucoseUnit)
    case bodyUnits(BodyUnits)
    case dateOfBirth(CalendarDay)
    case height(cm: Double)
    case weight(kg: Double)
    case sex(Sex)
    case diabetesType(DiabetesType)
    case country(String)
    case contactName(String)
    case contactPhone(String)
    case reminder(ReminderInterval)
    /// An optional question the person chose to skip.
    case skipped
}

/// Everything the questionnaire gathered, ready to be saved in one transaction.
public struct OnboardingResult: Sendable, Equatable {
    public var profile: Profile
    public var settings: Settings
    public var contact: EmergencyContact?

    /// nil while a required answer is missing.
    public init?(answers: [ProfileQuestion: ProfileAnswer], base: Settings = Settings()) {
        var settings = base
        var birth: CalendarDay?, height: Double?, weight: Double?, sex: Sex?, type: DiabetesType?
        var country: String?, contactName: String?, contactPhone: String?
        for (_, answer) in answers {
            switch answer {
            case .language(let l): settings.language = l
            case .glucoseUnit(let u): settings.glucoseUnit = u
            case .bodyUnits(let u): settings.bodyUnits = u
            case .reminder(let r): settings.reminder = r
            case .dateOfBirth(let d): birth = d
            case .height(let cm): height = cm
            case .weight(let kg): weight = kg
            case .sex(let s): sex = s
            case .diabetesType(let t): type = t
            case .country(let c): country = c
            case .contactName(let n): contactName = n
            case .contactPhone(let p): contactPhone = p
            case .skipped: break
            }
        }
        for question in ProfileQuestion.allCases where !question.isOptional && answers[question] == nil { return nil }
        guard let birth, let height, let weight, let sex, let type else { return nil }
        profile = Profile(dateOfBirth: birth, heightCm: height, weightKg: weight, sex: sex, diabetesType: type, country: country)
        self.settings = settings
        if let contactName, let contactPhone {
            contact = EmergencyContact(name: contactName, phone: contactPhone)
        }
    }
}
