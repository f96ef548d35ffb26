import Testing
@testable import CareLanguage

/// Whether more words could change what was said: what lets a recognizer answer a sentence
/// that could still go on ("yes", which "please" may follow) after a short pause.
struct SettledMeaningTests {
    @Test(arguments: ["yes", "yes please", "no", "cancel", "repeat that", "help", "help me", "emergency"])
    func answersAndCallsForHelpAreSettled(_ said: String) {
        #expect(UtteranceParser(table: Fixtures.english).parse(said).meansTheSameWhateverFollows)
    }

    /// A reading may still gain its meal ("six point five" ... "before breakfast"), a number its
    /// last word ("twenty" ... "one").
    @Test(arguments: ["glucose six point five", "glucose twenty", "six point five millimoles", "change my weight to seventy",
                      "add a note", "goodbye", "what did i record yesterday"])
    func anythingElseMayStillChange(_ said: String) {
        #expect(!UtteranceParser(table: Fixtures.english).parse(said).meansTheSameWhateverFollows)
    }

    @Test func chineseAnswersAndCallsForHelpAreSettledToo() {
        let parser = UtteranceParser(table: Fixtures.chinese)
        #expect(parser.parse("对").meansTheSameWhateverFollows)
        #expect(parser.parse("救命").meansTheSameWhateverFollows)
        #expect(!parser.parse("血糖六点五").meansTheSameWhateverFollows)
    }
}
