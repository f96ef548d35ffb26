import Foundation

public enum EmergencyService: String, Sendable, Codable, CaseIterable {
    case ambulance, police, fire
}

/// One country's emergency numbers (strings: Australia's "000" is not 0).
public struct EmergencyNumbers: Sendable, Equatable {
    /// ISO 3166-1 alpha-2, upper case.
    public var country: String
    public var ambulance: [String]
    public var police: [String]
    public var fire: [String]
    /// The number a mobile phone falls back to there (112 or 911).
    public var mobile: String

    public init(country: String, ambulance: [String], police: [String], fire: [String], mobile: String) {
        self.country = country
        self.ambulance = ambulance
        self.police = police
        self.fire = fire
        self.mobile = mobile
    }

    public func numbers(for service: EmergencyService) -> [String] {
        switch service {
        case .ambulance: return ambulance
        case .police: return police
        case .fire: return fire
        }
    }

    /// Services that share the same numbers, named together, ambulance first:
    /// the US gives one group (all three: 911); Japan gives ambulance and fire (119), then police (110).
    public var groups: [(services: [EmergencyService], numbers: [String])] {
        var groups: [(services: [EmergencyService], numbers: [String])] = []
        for service in EmergencyService.allCases {
            let numbers = numbers(for: service)
            if let index = groups.firstIndex(where: { $0.numbers == numbers }) {
                groups[index].services.append(service)
            } else {
                groups.append(([service], numbers))
            }
        }
        return groups
    }

    /// Every number listed, in order, each once.
    public var allNumbers: [String] {
        var seen = Set<String>()
        return (ambulance + police + fire).filter { seen.insert($0).inserted }
    }
}

public enum HelplineKind: String, Sendable, Codable, CaseIterable {
    case poison, medicalAdvice, diabetes
}

/// A helpline beyond the emergency number (poison information, a diabetes line).
public struct Helpline: Sendable, Equatable, Codable {
    public var kind: HelplineKind
    /// The service's own name ("Poison Help").
    public var name: String
    public var number: String

    public init(kind: HelplineKind, name: String, number: String) {
        self.kind = kind
        self.name = name
        self.number = number
    }
}

/// Someone to call: kept as typed, since people write numbers the way they dial them.
public struct EmergencyContact: Sendable, Equatable, Codable {
    public var id: Int64?
    public var name: String
    public var phone: String
    /// "daughter", "neighbour", "doctor"...; nil when not given.
    public var relation: String?

    public init(id: Int64? = nil, name: String, phone: String, relation: String? = nil) {
        self.id = id
        self.name = name
        self.phone = phone
        self.relation = relation
    }
}

public enum PhoneNumber {
    /// What a phone number may be written with: digits, spaces, and + ( ) - . as people type them.
    public static func isPlausible(_ text: String) -> Bool {
        problem(text) == nil
    }

    public enum Problem: Equatable, Sendable {
        case empty, invalidCharacters, misplacedPlus, tooShort, tooLong
    }

    /// Why `text` cannot be a phone number, or nil when it can: 5 to 15 digits (the longest
    /// international number, ITU E.164), a + only at the start.
    public static func problem(_ text: String) -> Problem? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .empty }
        guard trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || " +()-.".contains($0)) }) else { return .invalidCharacters }
        if trimmed.dropFirst().contains("+") { return .misplacedPlus }
        let digits = trimmed.filter(\.isNumber).count
        if digits < 5 { return .tooShort }
        if digits > 15 { return .tooLong }
        return nil
    }

    /// Only the digits (and a leading +), for dialling and for reading out.
    public static func dialable(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return (trimmed.hasPrefix("+") ? "+" : "") + trimmed.filter(\.isNumber)
    }
}

/// The one-line summary responders need, from whatever the person has recorded.
public struct MedicalSummary: Sendable, Equatable, Codable {
    public var name: String?
    public var diabetesType: DiabetesType?
    public var latestReading: GlucoseReading?
    public var medications: [String]
    public var allergies: [String]
    public var address: String?

    public init(name: String? = nil, diabetesType: DiabetesType? = nil, latestReading: GlucoseReading? = nil,
                medications: [String] = [], allergies: [String] = [], address: String? = nil) {
        self.name = name
        self.diabetesType = diabetesType
        self.latestReading = latestReading
        self.medications = medications
        self.allergies = allergies
        self.address = address
    }

    public var isEmpty: Bool {
        name == nil && diabetesType == nil && latestReading == nil && medications.isEmpty && allergies.isEmpty
            && address == nil
    }
}

/// Everything emergency help shows, gathered without touching the database.
public struct EmergencyReport: Sendable, Equatable {
    /// Where the numbers come from.
    public enum Numbers: Sendable, Equatable {
        case known(EmergencyNumbers)
        /// No country was given.
        case unknownCountry
        /// A country the table does not have.
        case notListed(country: String)
        /// The table itself could not be read.
        case tableUnavailable(reason: String)
    }

    /// The person's own data, from the emergency card.
    public enum PersonalDetails: Sendable, Equatable {
        case available(contacts: [EmergencyContact], summary: MedicalSummary)
        case unavailable(reason: String)
    }

    public var numbers: Numbers
    public var helplines: [Helpline]
    public var personal: PersonalDetails

    public init(numbers: Numbers, helplines: [Helpline], personal: PersonalDetails) {
        self.numbers = numbers
        self.helplines = helplines
        self.personal = personal
    }

    /// The one number to remember: the ambulance (or, failing that, any service, or 112).
    public var firstNumber: String {
        if case .known(let numbers) = self.numbers {
            return numbers.ambulance.first ?? numbers.allNumbers.first ?? numbers.mobile
        }
        return "112"
    }
}
