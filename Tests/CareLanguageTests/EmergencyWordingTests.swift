import CareModel
import Foundation
import Testing
@testable import CareLanguage

@Suite struct EmergencyWordingTests {
    let book = Phrasebook(table: Fixtures.english, calendar: Fixtures.calendar)

    @Test func numbersAreSpokenDigitByDigit() {
        #expect(book.phoneNumber("911") == Message(display: "911", spoken: "nine, one, one"))
        #expect(book.phoneNumber("000").spoken == "zero, zero, zero")
        #expect(book.phoneNumber("+1 (604) 555-0199").spoken
                == "plus, one. six, zero, four. five, five, five. zero, one, nine, nine")
        #expect(book.phoneNumber("1 800 222 1222").display == "1 800 222 1222")
    }

    private let us = EmergencyNumbers(country: "US", ambulance: ["911"], police: ["911"], fire: ["911"], mobile: "911")
    private let anna = EmergencyContact(id: 1, name: "Anna Li", phone: "604 555 0199", relation: "daughter")

    @Test func theNumbersComeFirstThenContactsThenTheSummary() {
        let reading = GlucoseReading(takenAt: Fixtures.date("2026-11-22 13:10"), utcOffsetSeconds: 0,
                                     level: GlucoseLevel(3.1, .mmolPerL), tag: nil, source: .voice)
        let report = EmergencyReport(
            numbers: .known(us),
            helplines: [Helpline(kind: .poison, name: "Poison Help", number: "1 800 222 1222")],
            personal: .available(contacts: [anna], summary: MedicalSummary(latestReading: reading, allergies: ["penicillin"])))
        let lines = book.emergencyMessages(report, now: Fixtures.now)
        #expect(lines.map(\.display) == [
            "Emergency help (United States).",
            "Ambulance, police and fire: 911.",
            "Poison information, Poison Help: 1 800 222 1222.",
            "Your emergency contacts:",
            "Anna Li (daughter): 604 555 0199.",
            "For the ambulance crew: latest glucose 3.1 mmol/L (56 mg/dL), today at 1:10 PM; allergies: penicillin.",
            "Once more, the emergency number is 911.",
        ])
        #expect(lines[1].spoken == "Ambulance, police and fire: nine, one, one.")
        #expect(lines[1].isEmphasized && lines.last!.isEmphasized && !lines[3].isEmphasized)
        #expect(lines[4].spoken == "Anna Li (daughter): six, zero, four. five, five, five. zero, one, nine, nine.")
    }

    @Test func servicesWithTheirOwnNumbersAreReadInTurn() {
        let france = EmergencyNumbers(country: "FR", ambulance: ["15", "112"], police: ["17", "112"], fire: ["18", "112"], mobile: "112")
        let lines = book.emergencyMessages(EmergencyReport(numbers: .known(france), helplines: [],
                                                           personal: .available(contacts: [], summary: MedicalSummary())),
                                           now: Fixtures.now).map(\.display)
        #expect(Array(lines.prefix(4)) == ["Emergency help (France).", "Ambulance: 15 or 112.", "Police: 17 or 112.", "Fire: 18 or 112."])
        #expect(lines.contains("You have no emergency contacts yet. Add one with: carevoice contacts add."))
        #expect(lines.contains("For the ambulance crew: no medical details are recorded yet."))
        #expect(!lines.contains { $0.hasPrefix("From a mobile phone") })   // 112 is already there
    }

    @Test func aServiceWithoutANumberPointsToTheMobileNumber() {
        let congo = EmergencyNumbers(country: "CD", ambulance: [], police: ["118"], fire: [], mobile: "112")
        let lines = book.emergencyMessages(EmergencyReport(numbers: .known(congo), helplines: [],
                                                           personal: .available(contacts: [], summary: MedicalSummary())),
                                           now: Fixtures.now).map(\.display)
        #expect(lines.contains("Ambulance: I know no number; from a mobile phone call 112."))
        #expect(lines.contains("Fire: I know no number; from a mobile phone call 112."))
        #expect(lines.contains("Police: 118."))
        #expect(lines.last == "Once more, the emergency number is 118.")
    }

    @Test func withoutACountryOrTableItIs112AndWhy() {
        let unknown = book.emergencyMessages(EmergencyReport(numbers: .unknownCountry, helplines: [],
                                                             personal: .unavailable(reason: "damaged")), now: Fixtures.now)
        #expect(unknown[1].display.hasPrefix("I don't know which country you are in, so call 112"))
        #expect(unknown[1].display.contains("--country"))
        #expect(unknown.contains { $0.display == "Your medical details can't be read right now (damaged)." })
        #expect(unknown.last?.display == "Once more, the emergency number is 112.")
        let unlisted = book.emergencyMessages(EmergencyReport(numbers: .notListed(country: "AQ"), helplines: [],
                                                              personal: .unavailable(reason: "x")), now: Fixtures.now)
        #expect(unlisted[1].display.hasPrefix("I have no emergency numbers for Antarctica, so call 112"))
    }
}
