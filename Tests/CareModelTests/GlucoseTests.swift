import Testing
@testable import CareModel

@Suite struct GlucoseTests {
    @Test func convertsWithTheGlucoseFactor() {
        let level = GlucoseLevel(120, .mgPerDL)
        #expect(abs(level.mmolPerL - 120 / 18.016) < 1e-12)
        #expect(abs(GlucoseLevel(6.5, .mmolPerL).mgPerDL - 117.104) < 1e-9)
    }

    @Test func storesUnrounded() {
        let level = GlucoseLevel(101, .mgPerDL)
        #expect(level.mmolPerL != 5.6)
        #expect(level.displayValue(in: .mmolPerL) == "5.6")
        #expect(level.displayValue(in: .mgPerDL) == "101")
    }

    @Test(arguments: [
        (6.8, GlucoseUnit.mmolPerL), (98.0, .mgPerDL), (17.9, .mmolPerL), (36.0, .mgPerDL), (1.0, .mmolPerL),
    ])
    func bareNumberUnitFollowsPlausibility(value: Double, expected: GlucoseUnit) {
        // The preferred unit is the other one: plausibility must win.
        let preferred: GlucoseUnit = expected == .mmolPerL ? .mgPerDL : .mmolPerL
        guard case .level(_, let unit) = GlucoseUnitInference.interpret(value, explicit: nil, preferred: preferred) else {
            Issue.record("\(value) should be plausible"); return
        }
        #expect(unit == expected)
    }

    @Test func overlapUsesThePreferredUnit() {
        #expect(GlucoseUnitInference.interpret(20, explicit: nil, preferred: .mgPerDL) == .level(GlucoseLevel(20, .mgPerDL), unit: .mgPerDL))
        #expect(GlucoseUnitInference.interpret(20, explicit: nil, preferred: .mmolPerL) == .level(GlucoseLevel(20, .mmolPerL), unit: .mmolPerL))
    }

    @Test(arguments: [0.299, 0.9, 700, 1000])
    func implausibleBareNumbers(value: Double) {
        #expect(GlucoseUnitInference.interpret(value, explicit: nil, preferred: .mmolPerL) == .implausible(value: value, unit: nil))
    }

    @Test func explicitUnitIsCheckedInThatUnit() {
        #expect(GlucoseUnitInference.interpret(65, explicit: .mmolPerL, preferred: .mmolPerL) == .implausible(value: 65, unit: .mmolPerL))
        #expect(GlucoseUnitInference.interpret(6.5, explicit: .mgPerDL, preferred: .mmolPerL) == .implausible(value: 6.5, unit: .mgPerDL))
    }

    @Test func tagRawValuesMatchTheExportNames() {
        #expect(MealTag.allCases.map(\.rawValue) == [
            "before-breakfast", "after-breakfast", "before-lunch", "after-lunch", "before-dinner", "after-dinner",
            "fasting", "bedtime", "after-exercise",
        ])
    }
}
