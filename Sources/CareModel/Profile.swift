import Foundation

/// A calendar day as people give it (a date of birth), free of time zones.
public struct CalendarDay: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether the day exists (no 31 April, no 29 February 1950).
    public var isValid: Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let lengths = [31, isLeapYear ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    private var isLeapYear: Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// "1948-03-04".
    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// Parses "1948-03-04".
    public init?(iso text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
        guard isValid else { return nil }
    }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// Today in `calendar`'s time zone.
    public static func today(_ now: Date = Date(), calendar: Calendar = .current) -> CalendarDay {
        let c = calendar.dateComponents([.year, .month, .day], from: now)
        return CalendarDay(year: c.year!, month: c.month!, day: c.day!)
    }

    /// The day on the clock of a place `utcOffsetSeconds` east of UTC, at `date`.
    public init(_ date: Date, utcOffsetSeconds: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: utcOffsetSeconds) ?? TimeZone(identifier: "UTC")!
        self = Self.today(date, calendar: calendar)
    }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day))!
        return Self.today(calendar.date(byAdding: .day, value: days, to: date)!, calendar: calendar)
    }

    /// Whole years from this day to `today`.
    public func age(on today: CalendarDay) -> Int {
        today.year - year - ((today.month, today.day) < (month, day) ? 1 : 0)
    }
}

public enum Sex: String, Sendable, Codable, CaseIterable {
    case female, male
    /// Asked, and the person preferred not to say.
    case unspecified
}

public enum DiabetesType: String, Sendable, Codable, CaseIterable {
    case type1 = "type-1"
    case type2 = "type-2"
    case gestational
    case prediabetes
    case other
    case none
}

/// How height and weight are shown and asked for.
public enum BodyUnits: String, Sendable, Codable, CaseIterable {
    /// Centimetres and kilograms.
    case metric
    /// Feet and inches, pounds.
    case imperial
}

/// When to remind the person to take a reading.
public enum ReminderInterval: String, Sendable, Codable, CaseIterable {
    case twelveHours = "12h"
    case twentyFourHours = "24h"
    case never

    /// Hours after the last reading; nil for never.
    public var hours: Int? {
        switch self {
        case .twelveHours: return 12
        case .twentyFourHours: return 24
        case .never: return nil
        }
    }
}

/// Languages CareVoice speaks (locale table ids).
public enum Language: String, Sendable, Codable, CaseIterable {
    case english = "en"
    case chinese = "zh-Hans"
}

/// Who the person is, as far as their care needs it. Stored once; changed only after a read-back.
public struct Profile: Sendable, Equatable, Codable {
    public var dateOfBirth: CalendarDay
    /// Canonical centimetres, unrounded (shown in the person's body units).
    public var heightCm: Double
    /// Canonical kilograms, unrounded.
    public var weightKg: Double
    public var sex: Sex
    public var diabetesType: DiabetesType
    /// ISO 3166-1 alpha-2, upper case; nil when the person skipped it.
    public var country: String?
    /// For the responder summary, when given.
    public var name: String?
    public var address: String?
    public var allergies: [String]

    public init(dateOfBirth: CalendarDay, heightCm: Double, weightKg: Double, sex: Sex, diabetesType: DiabetesType,
                country: String?, name: String? = nil, address: String? = nil, allergies: [String] = []) {
        self.dateOfBirth = dateOfBirth
        self.heightCm = heightCm
        self.weightKg = weightKg
        self.sex = sex
        self.diabetesType = diabetesType
        self.country = country
        self.name = name
        self.address = address
        self.allergies = allergies
    }
}

/// How CareVoice behaves for this person. Applied at once, kept across sessions.
public struct Settings: Sendable, Equatable, Codable {
    public var language: Language
    public var glucoseUnit: GlucoseUnit
    public var bodyUnits: BodyUnits
    public var reminder: ReminderInterval
    public var speechOn: Bool
    /// Words per minute.
    public var speechRate: Int
    /// 0...200, 100 is espeak-ng's normal.
    public var volume: Int
    /// espeak-ng voice variant, e.g. "f3" (a female voice) or nil for the language's default.
    public var voiceVariant: String?
    /// Numbers read digit by digit ("one two zero") instead of as numbers.
    public var numbersDigitByDigit: Bool
    public var plainOutput: Bool
    /// Readings confirmed as heard are kept with their recordings to learn the voice from
    /// (`ConfirmedSpeech`); off, nothing is kept and no voice is learned so.
    public var learnsVoiceFromReadings: Bool

    public init(language: Language = .english, glucoseUnit: GlucoseUnit = .mmolPerL, bodyUnits: BodyUnits = .metric,
                reminder: ReminderInterval = .never, speechOn: Bool = true, speechRate: Int = 150, volume: Int = 100,
                voiceVariant: String? = nil, numbersDigitByDigit: Bool = false, plainOutput: Bool = false,
                learnsVoiceFromReadings: Bool = true) {
        self.language = language
        self.glucoseUnit = glucoseUnit
        self.bodyUnits = bodyUnits
        self.reminder = reminder
        self.speechOn = speechOn
        self.speechRate = speechRate
        self.volume = volume
        self.voiceVariant = voiceVariant
        self.numbersDigitByDigit = numbersDigitByDigit
        self.plainOutput = plainOutput
        self.learnsVoiceFromReadings = learnsVoiceFromReadings
    }

    public static let speechRates = 80...300
    public static let volumes = 0...200
}

/// What a person's answers can plausibly be; beyond these, a mishearing or a slip is more
/// likely than the truth, so the answer is explained and asked again.
public enum ProfileLimits {
    /// From the shortest to the tallest adults on record, with room: 1.00 to 2.40 m.
    public static let heightCm: ClosedRange<Double> = 100...240
    /// 25 to 350 kg.
    public static let weightKg: ClosedRange<Double> = 25...350
    /// Born no earlier than 1900.
    public static let earliestBirthYear = 1900

    public enum Problem: Sendable, Equatable {
        case heightOutOfRange, weightOutOfRange, bornTooEarly, bornInTheFuture, noSuchDay
    }

    public static func check(height cm: Double) -> Problem? {
        heightCm.contains(cm) ? nil : .heightOutOfRange
    }

    public static func check(weight kg: Double) -> Problem? {
        weightKg.contains(kg) ? nil : .weightOutOfRange
    }

    public static func check(birth day: CalendarDay, today: CalendarDay) -> Problem? {
        guard day.isValid else { return .noSuchDay }
        if day.year < earliestBirthYear { return .bornTooEarly }
        if day > today { return .bornInTheFuture }
        return nil
    }
}

/// Conversions for body measures; stored values are metric and unrounded.
public enum BodyMeasure {
    public static let centimetresPerInch = 2.54
    public static let kilogramsPerPound = 0.45359237
    public static let poundsPerStone = 14.0
    /// The Chinese 斤, in which many people in China know their weight.
    public static let kilogramsPerJin = 0.5

    public static func centimetres(feet: Double, inches: Double) -> Double {
        (feet * 12 + inches) * centimetresPerInch
    }

    /// Whole feet and the rounded inches left over ("5 ft 7 in").
    public static func feetAndInches(_ cm: Double) -> (feet: Int, inches: Int) {
        var totalInches = Int((cm / centimetresPerInch).rounded())
        if totalInches < 0 { totalInches = 0 }
        return (totalInches / 12, totalInches % 12)
    }

    public static func kilograms(pounds: Double) -> Double { pounds * kilogramsPerPound }
    public static func pounds(_ kg: Double) -> Double { kg / kilogramsPerPound }
}
