import CareModel
import Foundation
import Testing
@testable import CareLanguage

@Suite struct ProfileChangeParsingTests {
    let parser = ProfileAnswerParser(table: Fixtures.english)
    let book = Phrasebook(table: Fixtures.english, calendar: Fixtures.calendar)
    let context = ChangeContext(settings: Settings(), countries: ["CA", "FR", "GB", "US"],
                                today: CalendarDay(year: 2026, month: 11, day: 22))

    @Test func spokenAndTypedRequests() {
        #expect(parser.changeRequest("change my weight to seventy kilos") == .set(.weight, value: "seventy kilos"))
        #expect(parser.changeRequest("Set my glucose unit to mg/dL") == .set(.glucoseUnit, value: "mg/dL"))
        #expect(parser.changeRequest("change my address to 12 Main St, Vancouver") == .set(.address, value: "12 Main St, Vancouver"))
        #expect(parser.changeRequest("change my date-of-birth to 1948-03-04") == .set(.dateOfBirth, value: "1948-03-04"))
        #expect(parser.changeRequest("speak slower") == .command(.slower))
        #expect(parser.changeRequest("read numbers digit by digit") == .command(.digitsOn))
        // Not a change: no lead, no joining word, or an unknown field.
        #expect(parser.changeRequest("my weight is seventy kilos") == nil)
        #expect(parser.changeRequest("change my weight seventy") == nil)
        #expect(parser.changeRequest("change my hair to blue") == nil)
        #expect(UtteranceParser(table: Fixtures.english).parse("change my weight to 70 kg") == .change(.set(.weight, value: "70 kg")))
    }

    @Test func fieldsByTheirTypedNames() {
        #expect(parser.field(named: "weight") == .weight)
        #expect(parser.field(named: "birth") == .dateOfBirth)
        #expect(parser.field(named: "rate") == .speechRate)
        #expect(parser.field(named: "body-units") == .bodyUnits)
        #expect(parser.field(named: "colour") == nil)
    }

    @Test func valuesAreCheckedAsTheQuestionsCheckThem() {
        #expect(parser.change(.weight, "70kg", context: context, book: book) == .change(.answer(.weight(kg: 70))))
        #expect(parser.change(.height, "5 ft 7 in", context: context, book: book) == .change(.answer(.height(cm: 170.18))))
        #expect(parser.change(.country, "france", context: context, book: book) == .change(.answer(.country("FR"))))
        #expect(parser.change(.speech, "off", context: context, book: book) == .change(.speech(on: false)))
        #expect(parser.change(.speechRate, "120", context: context, book: book) == .change(.speechRate(wordsPerMinute: 120)))
        #expect(parser.change(.voice, "female", context: context, book: book) == .change(.voice(.female)))
        #expect(parser.change(.allergies, "penicillin, nuts", context: context, book: book) == .change(.allergies(["penicillin", "nuts"])))
        #expect(parser.change(.reminder, "24h", context: context, book: book) == .change(.answer(.reminder(.twentyFourHours))))

        func problem(_ field: ChangeField, _ value: String) -> String? {
            if case .problem(let m) = parser.change(field, value, context: context, book: book) { return m.display }
            return nil
        }
        #expect(problem(.height, "4 m")?.contains("doesn't sound right for a height") == true)
        #expect(problem(.dateOfBirth, "1850-01-01")?.contains("too long ago") == true)
        #expect(problem(.weight, "5 kg")?.contains("doesn't sound right for a weight") == true)
        #expect(problem(.speechRate, "500") == "Please give a whole number from 80 to 300.")
        #expect(problem(.speech, "maybe") == "Please say on or off.")
        #expect(problem(.weight, "") == "Please give a new value for Weight.")
    }

    /// Every value, as it is put on the editable line, reads back as the same change: Enter on
    /// the line saves exactly what was read back.
    @Test func everyEditableLineParsesBackToItsChange() throws {
        let profile = Profile(dateOfBirth: CalendarDay(year: 1948, month: 3, day: 4), heightCm: 170, weightKg: 70.5,
                              sex: .male, diabetesType: .gestational, country: "GB", name: "Li Wei",
                              address: "12 Main St", allergies: ["penicillin", "nuts"])
        let settings = Settings(glucoseUnit: .mgPerDL, reminder: .twelveHours, speechOn: false, speechRate: 130,
                                volume: 80, voiceVariant: "f3", numbersDigitByDigit: true, plainOutput: true)
        for field in ChangeField.allCases {
            let change = try #require(Phrasebook.currentValue(field, profile: profile, settings: settings))
            let line = book.editableChange(change, units: settings.bodyUnits)
            guard case .set(let parsedField, let value)? = parser.changeRequest(line) else {
                Issue.record("\(field): \(line) is not a change"); continue
            }
            #expect(parsedField == field, "\(line)")
            #expect(parser.change(parsedField, value, context: context, book: book) == .change(change), "\(line)")
        }
    }

    @Test func readBackNamesTheFieldAndTheValue() {
        let sentence = book.changeSentence(Fixtures.english.changes.readBack, .answer(.weight(kg: 70)), units: .metric)
        #expect(sentence.display == "Weight: 70 kg. Shall I save it?")
        #expect(sentence.spoken == "Weight: 70 kilograms. Shall I save it?")
        let slower = book.changeSentence(Fixtures.english.changes.saved, .speechRate(wordsPerMinute: 130), units: .metric)
        #expect(slower.display == "Saved. Speech rate: 130 words a minute.")
    }

    @Test func numbersDigitByDigitWhenAsked() {
        var digits = book
        digits.numbersDigitByDigit = true
        let reading = ReadingDescription(level: GlucoseLevel(120, .mgPerDL), unit: .mgPerDL, unitWasSaid: true,
                                         tag: nil, explicitTime: nil, numberAsSaid: "120")
        #expect(book.describe(reading, now: Fixtures.now).spoken.hasPrefix("one hundred twenty milligrams"))
        #expect(digits.describe(reading, now: Fixtures.now).spoken.hasPrefix("one two zero milligrams"))
        #expect(digits.describe(reading, now: Fixtures.now).display == book.describe(reading, now: Fixtures.now).display)
    }
}
