import Foundation

/// A glucose level written in both units as clinicians write it ("3.9 mmol/L (70 mg/dL)").
/// The two are not exact conversions of each other (70 mg/dL is 3.885 mmol/L), so a threshold
/// is compared in the unit the person reads, at the precision they read it.
public struct GlucoseThreshold: Sendable, Equatable {
    public var mmolPerL: Double
    public var mgPerDL: Double

    public func value(in unit: GlucoseUnit) -> Double {
        unit == .mmolPerL ? mmolPerL : mgPerDL
    }
}

/// The thresholds CareVoice acts on: the international consensus on glucose ranges
/// (Battelino et al., Diabetes Care 2019). Written once, here.
public enum GlucoseThresholds {
    /// Below this is low (level 1 hypoglycaemia).
    public static let low = GlucoseThreshold(mmolPerL: 3.9, mgPerDL: 70)
    /// Below this is very low (level 2 hypoglycaemia).
    public static let veryLow = GlucoseThreshold(mmolPerL: 3.0, mgPerDL: 54)
    /// Above this is high enough to follow the care plan (ketones, the care team).
    public static let high = GlucoseThreshold(mmolPerL: 13.9, mgPerDL: 250)
    /// The upper end of the target range (the lower end is `low`).
    public static let targetHigh = GlucoseThreshold(mmolPerL: 10.0, mgPerDL: 180)
}

/// What a reading calls for beyond being saved.
public enum GlucoseAlert: Sendable, Equatable {
    /// Below 3.0 mmol/L (54 mg/dL): treat now, and help should be offered.
    case veryLow
    /// Below 3.9 mmol/L (70 mg/dL): treat with fast-acting sugar (the 15-15 rule).
    case low
    /// Above 13.9 mmol/L (250 mg/dL): follow the care plan.
    case high
}

extension GlucoseLevel {
    /// The alert for this level as shown in `unit`: 3.88 mmol/L reads as 3.9 and is not low;
    /// 70 mg/dL is not low either, though it is 3.885 mmol/L.
    public func alert(in unit: GlucoseUnit) -> GlucoseAlert? {
        let shown = roundedValue(in: unit)
        if shown < GlucoseThresholds.veryLow.value(in: unit) { return .veryLow }
        if shown < GlucoseThresholds.low.value(in: unit) { return .low }
        if shown > GlucoseThresholds.high.value(in: unit) { return .high }
        return nil
    }

    /// The value at the precision people read it: one decimal in mmol/L, whole mg/dL.
    public func roundedValue(in unit: GlucoseUnit) -> Double {
        let digits = unit.displayFractionDigits
        let scale = pow(10.0, Double(digits))
        return (value(in: unit) * scale).rounded() / scale
    }
}

extension GlucoseUnit {
    /// Decimals a meter shows in this unit.
    public var displayFractionDigits: Int { self == .mmolPerL ? 1 : 0 }
}
