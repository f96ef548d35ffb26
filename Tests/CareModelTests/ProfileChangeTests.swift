import CareModel
import Foundation
import Testing

@Suite struct ProfileChangeTests {
    let profile = Profile(dateOfBirth: CalendarDay(year: 1948, month: 3, day: 4), heightCm: 170, weightKg: 72,
                          sex: .female, diabetesType: .type2, country: "CA")

    @Test func profileChangesTouchOnlyTheirField() {
        let heavier = ProfileChange.answer(.weight(kg: 70)).applied(to: profile)
        #expect(heavier.weightKg == 70)
        #expect(heavier.heightCm == 170 && heavier.country == "CA")
        #expect(ProfileChange.name("  Mary Chen ").applied(to: profile).name == "Mary Chen")
        #expect(ProfileChange.address("").applied(to: profile).address == nil)
        #expect(ProfileChange.allergies(["penicillin", " ", "nuts"]).applied(to: profile).allergies == ["penicillin", "nuts"])
        // A settings change leaves the profile as it was, and the other way round.
        #expect(ProfileChange.volume(50).applied(to: profile) == profile)
        #expect(ProfileChange.answer(.weight(kg: 70)).applied(to: Settings()) == Settings())
    }

    @Test func settingsAreKeptWithinTheirRanges() {
        let s = Settings()
        #expect(ProfileChange.speechRate(wordsPerMinute: 999).applied(to: s).speechRate == 300)
        #expect(ProfileChange.volume(-20).applied(to: s).volume == 0)
        #expect(SettingCommandCheck.slower(from: Settings(speechRate: 90)) == 80)
        #expect(SettingCommandCheck.slower(from: Settings(speechRate: 150)) == 130)
        #expect(ProfileChange.voice(.female).applied(to: s).voice == .female)
        #expect(ProfileChange.voice(.standard).applied(to: s).voiceVariant == nil)
        #expect(ProfileChange.answer(.glucoseUnit(.mgPerDL)).applied(to: s).glucoseUnit == .mgPerDL)
    }

    @Test func whichChangesNeedAProfile() {
        #expect(ProfileChange.answer(.height(cm: 160)).changesProfile)
        #expect(ProfileChange.allergies([]).changesProfile)
        #expect(!ProfileChange.answer(.reminder(.never)).changesProfile)
        #expect(!ProfileChange.plainOutput(true).changesProfile)
    }
}

/// "Slower" from 90 words a minute: one step down, but not below the slowest rate.
private enum SettingCommandCheck {
    static func slower(from settings: Settings) -> Int {
        ProfileChange.speechRate(wordsPerMinute: settings.speechRate - Settings.rateStep).applied(to: settings).speechRate
    }
}

@Suite struct ReadingReminderTests {
    let last = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func dueTheIntervalAfterTheLastReading() {
        let hour = 3600.0
        #expect(ReadingReminder.status(interval: .twelveHours, lastReading: last, now: last + 11.9 * hour)
            == .notDue(until: last + 12 * hour))
        #expect(ReadingReminder.status(interval: .twelveHours, lastReading: last, now: last + 12 * hour)
            == .due(since: last + 12 * hour, lastReading: last))
        #expect(ReadingReminder.status(interval: .twentyFourHours, lastReading: last, now: last + 13 * hour)
            == .notDue(until: last + 24 * hour))
    }

    @Test func noReadingYetIsDueAndNeverIsOff() {
        #expect(ReadingReminder.status(interval: .twelveHours, lastReading: nil, now: last) == .due(since: last, lastReading: nil))
        #expect(ReadingReminder.status(interval: .never, lastReading: last, now: last + 1e6) == .off)
    }
}
