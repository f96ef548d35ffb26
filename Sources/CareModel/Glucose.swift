import Foundation

/// The two units people use for blood glucose. Readings are stored in mmol/L;
/// mg/dL is only ever a way of showing them.
public enum GlucoseUnit: String, Sendable, Codable, CaseIterable {
    case mmolPerL = "mmol/L"
    case mgPerDL = "mg/dL"

    /// A unit as typed: "mmol/L", "mmol/l", "mg/dL", "MG/DL".
    public static func parse(_ text: String) -> GlucoseUnit? {
        allCases.first { $0.rawValue.lowercased() == text.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// mg/dL per mmol/L for glucose (molar mass 180.16 g/mol).
    public static let mgPerDLPerMmolPerL = 18.016

    /// Values a meter can show and a person can survive; anything outside is
    /// far more likely a mishearing than a reading.
    public var plausibleRange: ClosedRange<Double> {
        switch self {
        case .mmolPerL: return 1.0...35.0
        case .mgPerDL: return 18.0...630.0
        }
    }
}

/// A glucose concentration, held canonically in mmol/L and never rounded.
public struct GlucoseLevel: Sendable, Equatable, Hashable, Codable {
    public var mmolPerL: Double

    public init(mmolPerL: Double) { self.mmolPerL = mmolPerL }

    public init(_ value: Double, _ unit: GlucoseUnit) {
        switch unit {
        case .mmolPerL: mmolPerL = value
        case .mgPerDL: mmolPerL = value / GlucoseUnit.mgPerDLPerMmolPerL
        }
    }

    public var mgPerDL: Double { mmolPerL * GlucoseUnit.mgPerDLPerMmolPerL }

    public func value(in unit: GlucoseUnit) -> Double {
        unit == .mmolPerL ? mmolPerL : mgPerDL
    }

    /// The value as people read it off a meter: one decimal in mmol/L, whole numbers in mg/dL.
    public func displayValue(in unit: GlucoseUnit) -> String {
        Self.format(value(in: unit), maxFractionDigits: unit.displayFractionDigits)
    }

    public static func format(_ value: Double, maxFractionDigits: Int) -> String {
        let scale = pow(10.0, Double(maxFractionDigits))
        let rounded = (value * scale).rounded() / scale
        if maxFractionDigits == 0 || rounded == rounded.rounded() {
            return String(Int(rounded.rounded()))
        }
        return String(format: "%.\(maxFractionDigits)f", rounded)
    }
}

/// When a reading was taken relative to meals and activity. Raw values are the
/// names used in JSON exports and in the speech corpora.
public enum MealTag: String, Sendable, Codable, CaseIterable {
    case beforeBreakfast = "before-breakfast"
    case afterBreakfast = "after-breakfast"
    case beforeLunch = "before-lunch"
    case afterLunch = "after-lunch"
    case beforeDinner = "before-dinner"
    case afterDinner = "after-dinner"
    case fasting
    case bedtime
    case afterExercise = "after-exercise"
}

/// How an entry reached us.
public enum EntrySource: String, Sendable, Codable {
    case voice
    case keyboard
}

/// A saved glucose reading.
public struct GlucoseReading: Sendable, Equatable, Codable {
    public var id: Int64?
    public var takenAt: Date
    /// Seconds east of UTC where the reading was taken, so it can be shown in the
    /// user's local time with its offset even after they travel.
    public var utcOffsetSeconds: Int
    public var level: GlucoseLevel
    public var tag: MealTag?
    public var source: EntrySource

    public init(id: Int64? = nil, takenAt: Date, utcOffsetSeconds: Int, level: GlucoseLevel, tag: MealTag?, source: EntrySource) {
        self.id = id
        self.takenAt = takenAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.level = level
        self.tag = tag
        self.source = source
    }
}
