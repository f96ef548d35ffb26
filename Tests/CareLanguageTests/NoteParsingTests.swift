import CareModel
import Foundation
import Testing
@testable import CareLanguage

@Suite struct NoteParsingTests {
    let parser = UtteranceParser(table: Fixtures.english)

    func resolved(_ draft: NoteDraft?) throws -> Date? {
        try draft?.time?.resolve(now: Fixtures.now, calendar: Fixtures.calendar)
    }

    @Test func aNoteIsStartedAloneOrGivenAtOnce() {
        #expect(parser.parse("add a diary note") == .note(.start))
        #expect(parser.parse("Add a note.") == .note(.start))
        #expect(parser.parse("note: Porridge with banana") == .note(.text("Porridge with banana")))
        #expect(parser.parse("I had rice and fish for dinner") == .note(.text("I had rice and fish for dinner")))
    }

    @Test func aReadingStaysAReadingAndALedNoteStaysANote() {
        #expect(parser.parse("I had 6.5") == .glucose(GlucoseDraft(number: "6.5")))
        #expect(parser.parse("note: my sugar was 6.5") == .note(.text("my sugar was 6.5")))
        #expect(parser.parse("I have three cats") == .unknown)
    }

    @Test func presetTagsComeFromTheWordsAndFromTagsAtTheEnd() throws {
        let draft = try #require(parser.note("Porridge with banana for breakfast"))
        #expect(draft.tags == ["breakfast"])
        #expect(draft.body == "Porridge with banana for breakfast")
        #expect(draft.title == "Porridge with banana for breakfast")
        #expect(draft.time == nil)

        let tagged = try #require(parser.note("Walked to the park, tags exercise and Friends"))
        #expect(tagged.body == "Walked to the park")
        #expect(tagged.tags == ["exercise", "friends"])
        #expect(parser.note("Lunch out, tag 2")?.tags == ["lunch"])
        // A synonym of a tag that is not a meal is not taken from free words ("a drink of water").
        #expect(parser.note("I had a drink of water")?.tags == [])
    }

    @Test func tagsAreAddedByNameOrNumber() throws {
        #expect(parser.tagAddition("tag three") == ["dinner"])
        #expect(parser.tagAddition("Tags exercise and stress") == ["exercise", "stress"])
        #expect(parser.tagAddition("tags lunch stress") == ["lunch", "stress"])
        #expect(parser.tagAddition("add tag Family dinner") == ["family dinner"])
        #expect(parser.tagAddition("tag 11") == nil, "there are ten presets")
        #expect(parser.tagAddition("tag") == nil)
        #expect(parser.tagAddition("yes") == nil)
        // A line that gained tags twice keeps both.
        #expect(parser.note("Walked to the park, tags family, tags exercise")?.tags == ["family", "exercise"])
    }

    @Test func aTimeAtEitherEndIsTakenOffTheBody() throws {
        let dinner = try #require(parser.note("I had rice and fish yesterday at dinner"))
        #expect(dinner.body == "I had rice and fish")
        #expect(dinner.tags == ["dinner"])
        #expect(try resolved(dinner) == Fixtures.date("2026-11-21 19:00"))

        let morning = try #require(parser.note("this morning walked to the shop"))
        #expect(morning.body == "walked to the shop")
        #expect(try resolved(morning) == Fixtures.date("2026-11-22 08:00"))

        let dated = try #require(parser.note("Party at the club on 2026-05-01 at 12:30"))
        #expect(dated.body == "Party at the club")
        #expect(try resolved(dated) == Fixtures.date("2026-05-01 12:30"))

        let morningClock = try #require(parser.note("Felt dizzy at 9 am"))
        #expect(morningClock.body == "Felt dizzy")
        #expect(try resolved(morningClock) == Fixtures.date("2026-11-22 09:00"))
        // At 14:00, 7 pm today has not come yet: refused, never moved to another day.
        #expect(throws: TimeExpression.ResolutionError.inFuture) { try resolved(parser.note("Felt dizzy at 7 pm")) }
    }

    @Test func wordsInTheMiddleAreNotATime() throws {
        let draft = try #require(parser.note("Went at noon-ish to see Anna at home"))
        #expect(draft.time == nil)
        #expect(draft.body == "Went at noon-ish to see Anna at home")
    }

    @Test func theBodyKeepsItsCaseAndLineBreaks() throws {
        let draft = try #require(parser.note("Dinner with Mei\nToo much rice!\nyesterday"))
        #expect(draft.body == "Dinner with Mei\nToo much rice!")
        #expect(draft.title == "Dinner with Mei Too much rice")
        #expect(draft.text == "Dinner with Mei\nToo much rice!\nyesterday")
    }

    @Test func aNoteOfOnlyATimeOrTagsHasNoWords() {
        #expect(parser.note("yesterday at dinner") == nil)
        #expect(parser.note("   ") == nil)
    }

    @Test func editsAndUndo() {
        #expect(parser.parse("delete the last reading") == .edit(.deleteLastReading))
        #expect(parser.parse("Remove the last note") == .edit(.deleteLastNote))
        #expect(parser.parse("undo") == .edit(.undo))
        #expect(parser.parse("change the last reading to seven point one") == .edit(.changeLastReading(GlucoseDraft(number: "7.1"))))
        #expect(parser.parse("change the last reading to 128 mg/dL after lunch")
                == .edit(.changeLastReading(GlucoseDraft(number: "128", unit: .mgPerDL, tag: .afterLunch))))
        #expect(parser.parse("change the last reading to banana") == .unknown)
    }

    @Test func aWhenOptionIsATimeAndNothingElse() throws {
        #expect(try parser.time("yesterday at lunch")?.resolve(now: Fixtures.now, calendar: Fixtures.calendar) == Fixtures.date("2026-11-21 12:00"))
        #expect(try parser.time("2026-05-01 12:30")?.resolve(now: Fixtures.now, calendar: Fixtures.calendar) == Fixtures.date("2026-05-01 12:30"))
        #expect(parser.time("yesterday with Anna") == nil)
        #expect(parser.time("tomorrow") == nil)
    }

    @Test func theEditCommandsAreSpokenInTheReadingGrammar() {
        let jsgf = GrammarBuilder(table: Fixtures.english).jsgf(for: .reading)
        #expect(jsgf.contains("(delete the last reading)"))
        #expect(jsgf.contains("(change the last reading to)"))
        #expect(jsgf.contains("(add a diary note)"))
        #expect(jsgf.contains("public <utterance> = <reading> | <answer> | <change> | <contacts> | <overview> | <recall> | <note> | <edit>"))
    }
}
