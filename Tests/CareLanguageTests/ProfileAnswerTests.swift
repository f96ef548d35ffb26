import CareModel
import Foundation
import Testing
@testable import CareLanguage

@Suite struct ProfileAnswerTests {
    let parse = ProfileAnswerParser(table: Fixtures.english)

    @Test(arguments: [
        ("March 4 1948", "1948-03-04"), ("March 4, 1948", "1948-03-04"), ("march fourth nineteen forty eight", "1948-03-04"),
        ("the fourth of March nineteen forty-eight", "1948-03-04"), ("4 March 1948", "1948-03-04"),
        ("4th March 1948", "1948-03-04"), ("1948-03-04", "1948-03-04"), ("I was born on March 4th, 1948", "1948-03-04"),
        ("march the fourth 1948", "1948-03-04"), ("Mar 4 1948", "1948-03-04"), ("1948 march 4", "1948-03-04"),
        ("december thirty first nineteen fifty", "1950-12-31"), ("the twenty first of june nineteen oh five", "1905-06-21"),
        ("june twenty one nineteen hundred and five", "1905-06-21"), ("january 1 two thousand", "2000-01-01"),
        ("may 5 two thousand and five", "2005-05-05"), ("july 9 twenty ten", "2010-07-09"),
        ("october second one thousand nine hundred forty eight", "1948-10-02"), ("february 29 1952", "1952-02-29"),
        ("february 30 1952", "1952-02-30"),   // read as said; ProfileLimits says the day does not exist
    ])
    func datesOfBirth(_ text: String, _ expected: String) {
        let parts = expected.split(separator: "-").map { Int($0)! }
        #expect(parse.dateOfBirth(text) == .day(CalendarDay(year: parts[0], month: parts[1], day: parts[2])), "\(text)")
    }

    @Test func datesThatCannotBeRead() {
        #expect(parse.dateOfBirth("04/03/1948") == .ambiguous)
        #expect(parse.dateOfBirth("4.3.1948") == .ambiguous)
        #expect(parse.dateOfBirth("march 1948") == .unreadable)
        #expect(parse.dateOfBirth("yesterday") == .unreadable)
        #expect(parse.dateOfBirth("") == .unreadable)
        #expect(ProfileLimits.check(birth: CalendarDay(year: 1952, month: 2, day: 30), today: CalendarDay(year: 2026, month: 11, day: 22)) == .noSuchDay)
        #expect(ProfileLimits.check(birth: CalendarDay(year: 1850, month: 1, day: 1), today: CalendarDay(year: 2026, month: 11, day: 22)) == .bornTooEarly)
        #expect(ProfileLimits.check(birth: CalendarDay(year: 2027, month: 1, day: 1), today: CalendarDay(year: 2026, month: 11, day: 22)) == .bornInTheFuture)
    }

    @Test(arguments: [
        ("170 cm", BodyUnits.metric, 170.0), ("one hundred seventy centimetres", .metric, 170), ("I'm 170 cm tall", .metric, 170),
        ("1.70 m", .metric, 170), ("one point seven metres", .metric, 170), ("170", .metric, 170), ("1.7", .metric, 170),
        ("5 feet 7", .imperial, 170.18), ("five foot seven", .metric, 170.18), ("five feet seven inches", .metric, 170.18),
        ("5'7\"", .metric, 170.18), ("5 ft 7 in", .metric, 170.18), ("5 7", .imperial, 170.18), ("six feet", .metric, 182.88),
        ("6", .imperial, 182.88), ("67 inches", .metric, 170.18), ("five feet and seven inches", .metric, 170.18),
    ])
    func heights(_ text: String, _ units: BodyUnits, _ cm: Double) throws {
        let value = try #require(parse.height(text, units: units), "\(text)")
        #expect(abs(value - cm) < 0.01, "\(text) -> \(value)")
    }

    @Test func heightsThatCannotBeRead() {
        #expect(parse.height("tall", units: .metric) == nil)
        #expect(parse.height("5 feet 14", units: .metric) == nil)
        #expect(parse.height("170 kg", units: .metric) == nil)
        #expect(ProfileLimits.check(height: 400) == .heightOutOfRange)
        #expect(ProfileLimits.check(height: 170) == nil)
    }

    @Test(arguments: [
        ("70 kg", BodyUnits.metric, 70.0), ("seventy kilos", .imperial, 70), ("I weigh 70 kilograms", .metric, 70),
        ("154 pounds", .metric, 69.853), ("154 lbs", .metric, 69.853), ("70", .metric, 70), ("154", .imperial, 69.853),
        ("11 stone", .metric, 69.853), ("eleven stone", .metric, 69.853), ("11 st 4", .metric, 71.668),
        ("eleven stone and four pounds", .metric, 71.668), ("70.5 kg", .metric, 70.5), ("seventy point five kilos", .metric, 70.5),
        ("one hundred fifty four pounds", .metric, 69.853),
    ])
    func weights(_ text: String, _ units: BodyUnits, _ kg: Double) throws {
        let value = try #require(parse.weight(text, units: units), "\(text)")
        #expect(abs(value - kg) < 0.001, "\(text) -> \(value)")
    }

    @Test func weightsThatCannotBeRead() {
        #expect(parse.weight("heavy", units: .metric) == nil)
        #expect(parse.weight("70 cm", units: .metric) == nil)
        #expect(ProfileLimits.check(weight: 5) == .weightOutOfRange)
    }

    @Test func choices() {
        let p = Fixtures.english.profile
        #expect(parse.choice("type two", in: p.diabetesTypes, as: DiabetesType.self) == .type2)
        #expect(parse.choice("I have type two diabetes", in: p.diabetesTypes, as: DiabetesType.self) == .type2)
        #expect(parse.choice("Type 1", in: p.diabetesTypes, as: DiabetesType.self) == .type1)
        #expect(parse.choice("pre-diabetes", in: p.diabetesTypes, as: DiabetesType.self) == .prediabetes)
        #expect(parse.choice("none", in: p.diabetesTypes, as: DiabetesType.self) == DiabetesType.none)
        #expect(parse.choice("type three", in: p.diabetesTypes, as: DiabetesType.self) == nil)
        #expect(parse.choice("a woman", in: p.sexes, as: Sex.self) == .female)
        #expect(parse.choice("prefer not to say", in: p.sexes, as: Sex.self) == .unspecified)
        #expect(parse.choice("feet and inches", in: p.bodyUnits, as: BodyUnits.self) == .imperial)
        #expect(parse.choice("twenty four hours", in: p.reminders, as: ReminderInterval.self) == .twentyFourHours)
        #expect(parse.choice("12", in: p.reminders, as: ReminderInterval.self) == .twelveHours)
        #expect(parse.choice("never", in: p.reminders, as: ReminderInterval.self) == .never)
        #expect(parse.choice("中文", in: p.languages, as: Language.self) == .chinese)
        #expect(parse.choice("English", in: p.languages, as: Language.self) == .english)
        #expect(parse.glucoseUnit("milligrams per deciliter") == .mgPerDL)
        #expect(parse.glucoseUnit("mmol/L") == .mmolPerL)
        #expect(parse.glucoseUnit("millimoles") == .mmolPerL)
        #expect(parse.glucoseUnit("pounds") == nil)
    }

    @Test func countries() {
        let codes = ["CA", "GB", "US", "CN", "CI", "IN", "HK"]
        #expect(parse.country("Canada", codes: codes) == "CA")
        #expect(parse.country("I live in the United Kingdom", codes: codes) == "GB")
        #expect(parse.country("england", codes: codes) == "GB")
        #expect(parse.country("the united states", codes: codes) == "US")
        #expect(parse.country("USA", codes: codes) == "US")
        #expect(parse.country("ca", codes: codes) == "CA")
        #expect(parse.country("IN", codes: codes) == "IN")
        #expect(parse.country("cote d'ivoire", codes: codes) == "CI")
        #expect(parse.country("Hong Kong", codes: codes) == "HK")
        #expect(parse.country("Atlantis", codes: codes) == nil)
    }

    @Test func phoneNumbers() {
        #expect(parse.phoneNumber("+1 (604) 555-0199") == "+1 (604) 555-0199")
        #expect(parse.phoneNumber("six oh four five five five zero one nine nine") == "6045550199")
        #expect(parse.phoneNumber("plus one six zero four five five five zero one nine nine") == "+16045550199")
        #expect(parse.phoneNumber("call my daughter") == nil)
    }

    @Test func navigation() {
        #expect(parse.navigation("go back") == .back)
        #expect(parse.navigation("Skip") == .skip)
        #expect(parse.navigation("skip to the end") == nil)
    }
}
