import CareModel
import Foundation
import Testing
@testable import CareLanguage

@Suite struct EmergencyDirectoryTests {
    static let directory = try! Fixtures.resources.loadEmergencyDirectory()

    /// The 60 most populous countries (UN estimates for 2024) and the ten after them.
    static let mostPopulous = """
        IN CN US ID PK NG BR BD RU ET MX JP EG PH CD VN IR TR DE TH GB TZ FR ZA IT KE MM CO KR SD
        UG ES DZ IQ AR AF YE CA PL MA AO UA UZ MY MZ GH PE SA MG CI NP CM VE NE AU KP SY ML BF TW
        LK MW ZM TD KZ CL RO SO SN GT
        """.split(whereSeparator: \.isWhitespace).map(String.init)
    static let europeanUnion = """
        AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    @Test func coversThePopulousCountriesTheEUAndHongKongAndTaiwan() {
        #expect(Self.directory.countries.count >= 80)
        #expect(Set(Self.mostPopulous).count == 70)
        #expect(Self.europeanUnion.count == 27)
        for code in Self.mostPopulous + Self.europeanUnion + ["HK", "TW"] {
            #expect(Self.directory.numbers(for: code) != nil, "\(code) is missing")
        }
    }

    @Test func numbersAreDigitsKeptAsText() {
        #expect(Self.directory.numbers(for: "AU")?.ambulance == ["000"])
        #expect(Self.directory.numbers(for: "us")?.groups.map(\.numbers) == [["911"]])
        #expect(Self.directory.numbers(for: "CN").map { [$0.ambulance, $0.police, $0.fire] } == [["120"], ["110"], ["119"]])
        #expect(Self.directory.numbers(for: "HK")?.ambulance == ["999"])
        #expect(Self.directory.numbers(for: "TW").map { [$0.ambulance, $0.police] } == [["119"], ["110"]])
        for numbers in Self.directory.all {
            for number in numbers.allNumbers + [numbers.mobile] {
                #expect(number.allSatisfy { $0 == " " || ("0"..."9").contains($0) }, "\(numbers.country): \(number)")
            }
            // Every country can be reached somehow, if only by the mobile fallback.
            #expect(!numbers.mobile.isEmpty)
        }
        for (code, lines) in Self.directory.helplines {
            #expect(Self.directory.numbers(for: code) != nil)
            for line in lines { #expect(line.number.allSatisfy { $0 == " " || ("0"..."9").contains($0) }) }
        }
    }

    @Test func theIssuesPoisonLinesAreThere() {
        let poison = { (code: String) in Self.directory.helplines(for: code).first { $0.kind == .poison }?.number }
        #expect(poison("US") == "1 800 222 1222")
        #expect(poison("CA") == "1 844 764 7669")
        #expect(poison("AU") == "13 11 26")
        #expect(Self.directory.helplines(for: "GB").contains { $0.kind == .medicalAdvice && $0.number == "111" })
    }

    @Test func aCountryListedTwiceIsRefused() throws {
        let text = try String(contentsOf: Fixtures.resources.emergencyNumbersFile, encoding: .utf8)
        let twice = text.replacingOccurrences(of: "countries:\n", with: "countries:\n  US: {ambulance: [\"1\"], police: [], fire: [], mobile: \"911\"}\n")
        let error = #expect(throws: EmergencyDirectoryError.self) { try EmergencyDirectory.parse(yaml: twice) }
        #expect(error?.description.contains("duplicated key(s): 'US'") == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("countries:\n  AU: {ambulance: [000], police: [], fire: [], mobile: \"112\"}\n", "AU: 000 must be quoted, or a leading 0 could be lost"),
        ("countries:\n  AU: {ambulance: [\"1-800\"], police: [], fire: [], mobile: \"112\"}\n", "AU: \"1-800\" is not a phone number (digits and spaces only)"),
        ("countries:\n  au: {ambulance: [], police: [], fire: [], mobile: \"112\"}\n", "au is not a two-letter country code"),
        ("countries:\n  AU: {ambulance: [], fire: [], mobile: \"112\"}\n", "AU has no police list"),
        ("helplines: {}\n", "it has no countries"),
    ])
    func aDamagedTableSaysWhatIsWrong(_ yaml: String, _ reason: String) {
        #expect(throws: EmergencyDirectoryError.invalid(reason)) { try EmergencyDirectory.parse(yaml: yaml) }
    }
}
