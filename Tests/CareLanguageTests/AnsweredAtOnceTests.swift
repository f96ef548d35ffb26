import Testing
@testable import CareLanguage

/// Whether words can be answered at the first short pause though more could follow them: what
/// lets a recognizer answer "yes" (which "please" may follow) or "glucose six point five" (which
/// its meal may follow) without waiting for a long pause.
struct AnsweredAtOnceTests {
    @Test(arguments: ["yes", "yes please", "no", "cancel", "repeat that", "help", "help me", "emergency"])
    func answersAndCallsForHelpMeanTheSameWhateverFollows(_ said: String) {
        let intent = UtteranceParser(table: Fixtures.english).parse(said)
        #expect(intent.meansTheSameWhateverFollows && intent.canBeAnsweredAtOnce)
    }

    /// Its unit or meal may still follow, but they can also be said after the read-back; they
    /// would change what it means, though (a noisy room waits for them).
    @Test(arguments: ["glucose six point five", "six point five millimoles", "my sugar is sixteen millimoles per litre",
                      "one hundred twenty milligrams per deciliter", "sugar one hundred ninety six", "glucose seventy eight",
                      "blood sugar two hundred five"])
    func aReadingWithAWholeNumberIsAnsweredAtOnce(_ said: String) {
        let intent = UtteranceParser(table: Fixtures.english).parse(said)
        #expect(intent.canBeAnsweredAtOnce)
        #expect(!intent.meansTheSameWhateverFollows)
    }

    /// A number may still gain a word ("twenty" ... "one", "six" ... "point five"), and other
    /// requests their object.
    @Test(arguments: ["glucose twenty", "glucose six", "glucose twenty five", "sugar one hundred twenty", "glucose seventy",
                      "sugar one hundred", "change my weight to seventy",
                      "add a note", "goodbye", "what did i record yesterday"])
    func anythingElseWaitsForALongPause(_ said: String) {
        #expect(!UtteranceParser(table: Fixtures.english).parse(said).canBeAnsweredAtOnce)
    }

    /// A reading's meal, unit or time said after its read-back: what may follow ("before
    /// breakfast" ... "this morning") is added to the reading in turn if said after a pause.
    @Test(arguments: ["before breakfast", "millimoles per litre", "this morning", "last night after dinner"])
    func aReadingsDetailsAreAnsweredAtOnce(_ said: String) {
        let intent = UtteranceParser(table: Fixtures.english).parse(said)
        #expect(intent.canBeAnsweredAtOnce)
        #expect(!intent.meansTheSameWhateverFollows)
    }

    @Test func chineseToo() {
        let parser = UtteranceParser(table: Fixtures.chinese)
        #expect(parser.parse("对").canBeAnsweredAtOnce)
        #expect(parser.parse("救命").canBeAnsweredAtOnce)
        #expect(parser.parse("血糖六点五").canBeAnsweredAtOnce)
        #expect(!parser.parse("血糖十五").canBeAnsweredAtOnce)
        #expect(parser.parse("血糖一百九十六").canBeAnsweredAtOnce)
        #expect(!parser.parse("血糖一百二十").canBeAnsweredAtOnce)
    }
}
