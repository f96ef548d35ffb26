/// Decides which unit a spoken or typed glucose number is in, and whether it is
/// believable at all. Pure logic: the dialog asks, the user is told.
public enum GlucoseInterpretation: Sendable, Equatable {
    case level(GlucoseLevel, unit: GlucoseUnit)
    /// The number cannot be a reading in the unit given (or in either unit when none was given).
    case implausible(value: Double, unit: GlucoseUnit?)
}

public enum GlucoseUnitInference {
    /// - explicit: the unit the person said, if any.
    /// - preferred: the user's unit setting, used only when the number fits both units.
    public static func interpret(_ value: Double, explicit: GlucoseUnit?, preferred: GlucoseUnit) -> GlucoseInterpretation {
        if let unit = explicit {
            return unit.plausibleRange.contains(value)
                ? .level(GlucoseLevel(value, unit), unit: unit)
                : .implausible(value: value, unit: unit)
        }
        let fits = GlucoseUnit.allCases.filter { $0.plausibleRange.contains(value) }
        switch fits.count {
        case 0: return .implausible(value: value, unit: nil)
        case 1: return .level(GlucoseLevel(value, fits[0]), unit: fits[0])
        default: return .level(GlucoseLevel(value, preferred), unit: preferred)
        }
    }
}
