import Testing
@testable import CareModel

/// The thresholds exactly at their edges, in both units, as the person reads the value.
@Suite struct GlucoseAlertTests {
    @Test(arguments: [
        // mmol/L: below 3.0 very low, below 3.9 low, above 13.9 high.
        (2.9, GlucoseUnit.mmolPerL, GlucoseAlert?.some(.veryLow)),
        (3.0, .mmolPerL, .some(.low)),
        (3.8, .mmolPerL, .some(.low)),
        (3.9, .mmolPerL, nil),
        (10.0, .mmolPerL, nil),
        (13.9, .mmolPerL, nil),
        (14.0, .mmolPerL, .some(.high)),
        // mg/dL: below 54 very low, below 70 low, above 250 high.
        (53, .mgPerDL, .some(.veryLow)),
        (54, .mgPerDL, .some(.low)),
        (69, .mgPerDL, .some(.low)),
        (70, .mgPerDL, nil),
        (250, .mgPerDL, nil),
        (251, .mgPerDL, .some(.high)),
    ])
    func alertAtTheThresholds(value: Double, unit: GlucoseUnit, expected: GlucoseAlert?) {
        #expect(GlucoseLevel(value, unit).alert(in: unit) == expected)
    }

    /// 70 mg/dL is 3.885 mmol/L: not low in either unit, since it reads as 70 and as 3.9.
    @Test func theUnitsAgreeAtTheEdge() {
        let seventy = GlucoseLevel(70, .mgPerDL)
        #expect(seventy.mmolPerL < 3.9)
        #expect(seventy.alert(in: .mgPerDL) == nil)
        #expect(seventy.alert(in: .mmolPerL) == nil)
        #expect(GlucoseLevel(3.84, .mmolPerL).alert(in: .mmolPerL) == .low)   // reads 3.8
        #expect(GlucoseLevel(13.94, .mmolPerL).alert(in: .mmolPerL) == nil)   // reads 13.9
        #expect(GlucoseLevel(13.96, .mmolPerL).alert(in: .mmolPerL) == .high) // reads 14.0
    }
}

@Suite struct PhoneNumberTests {
    @Test(arguments: ["+1 604 555 0199", "(604) 555-0199", "020 7946 0000", "604.555.0199", "12345", "+86 138 0013 8000"])
    func plausible(_ text: String) {
        #expect(PhoneNumber.problem(text) == nil)
    }

    @Test(arguments: [
        ("", PhoneNumber.Problem.empty), ("   ", .empty), ("911x", .invalidCharacters), ("call me", .invalidCharacters),
        ("1234", .tooShort), ("1 2 3 4", .tooShort), ("1234567890123456", .tooLong), ("604+555", .misplacedPlus),
        ("６０４５５５０１９９", .invalidCharacters),
    ])
    func implausible(_ text: String, _ problem: PhoneNumber.Problem) {
        #expect(PhoneNumber.problem(text) == problem)
    }

    @Test func dialableKeepsDigitsAndALeadingPlus() {
        #expect(PhoneNumber.dialable(" +1 (604) 555-0199 ") == "+16045550199")
        #expect(PhoneNumber.dialable("000") == "000")
    }
}

@Suite struct EmergencyNumbersTests {
    @Test func servicesThatShareNumbersAreNamedTogether() {
        let us = EmergencyNumbers(country: "US", ambulance: ["911"], police: ["911"], fire: ["911"], mobile: "911")
        #expect(us.groups.map(\.services) == [[.ambulance, .police, .fire]])
        let japan = EmergencyNumbers(country: "JP", ambulance: ["119"], police: ["110"], fire: ["119"], mobile: "112")
        #expect(japan.groups.map(\.services) == [[.ambulance, .fire], [.police]])
        #expect(japan.groups.map(\.numbers) == [["119"], ["110"]])
        #expect(japan.allNumbers == ["119", "110"])
    }
}
