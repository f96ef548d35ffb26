import Testing
@testable import CareSpeech

/// Where words stand in a grammar: what decides whether a short pause may end an utterance.
struct GrammarShapeTests {
    @Test func wordsStandWhereTheGrammarPutsThem() throws {
        let shape = try #require(GrammarShape(jsgf: Grammars.sentence))
        #expect(shape.standing(of: "glucose six") == .partial)
        #expect(shape.standing(of: "glucose six point five") == .complete(goesOn: true))
        #expect(shape.standing(of: "glucose six point five before breakfast") == .complete(goesOn: false))
        #expect(shape.standing(of: "glucose  six point five\tbefore breakfast") == .complete(goesOn: false))
        #expect(shape.standing(of: "six point five") == .outside)
        #expect(shape.standing(of: "glucose nine") == .outside, "a word the grammar does not have")
        #expect(shape.standing(of: "") == .partial, "nothing yet is the start of every sentence")
    }

    /// Alternatives, optional words and rules within rules become null transitions in the
    /// finite-state form; every path through them counts.
    @Test func optionalWordsAndNestedRulesAreFollowed() throws {
        let source = "#JSGF V1.0; grammar a; public <s> = <yes> | no [thanks] | help [me]; <yes> = (yes | sure) [please];"
        let shape = try #require(GrammarShape(jsgf: source))
        #expect(shape.standing(of: "yes") == .complete(goesOn: true))
        #expect(shape.standing(of: "sure please") == .complete(goesOn: false))
        #expect(shape.standing(of: "no thanks") == .complete(goesOn: false))
        #expect(shape.standing(of: "help") == .complete(goesOn: true))
        #expect(shape.standing(of: "please") == .outside)
        let yesNo = try #require(GrammarShape(jsgf: Grammars.yesNo))
        #expect(yesNo.standing(of: "yes") == .complete(goesOn: false))
    }

    /// A short pause ends a sentence nothing can follow, or one that can be answered at once;
    /// a last word the search has only begun, of a longer sentence, does not count.
    @Test func whereAShortPauseMayEndASentence() throws {
        let source = "#JSGF V1.0; grammar a; public <s> = glucose <n> [point <n>] [before breakfast | on an empty stomach]; <n> = six | five;"
        let shape = try #require(GrammarShape(jsgf: source))
        let decimals: (String) -> Bool = { $0.contains("point") }
        func canEnd(_ words: String, _ answersAtOnce: ((String) -> Bool)? = decimals) -> Bool {
            SpeechRecognizer.sentenceCanEnd(words, standing: shape.standing(of:), answersAtOnce: answersAtOnce)
        }
        #expect(canEnd("glucose six point five before breakfast"))
        #expect(canEnd("glucose six point five"))
        #expect(!canEnd("glucose six point five", nil), "no sentence but a closed one ends early unless told")
        #expect(!canEnd("glucose six"), "six may still gain its decimal")
        #expect(canEnd("glucose six point five on"), "'on' only begins 'on an empty stomach'")
        #expect(!canEnd("glucose six on"), "without its last word it still waits")
        #expect(!canEnd("glucose six point five on an"))
        #expect(!canEnd("glucose"))
        #expect(!canEnd("five point five"), "outside the grammar")
    }

    @Test func notAGrammarHasNoShape() {
        #expect(GrammarShape(jsgf: "#JSGF V1.0; grammar x; <private> = a;") == nil)
        #expect(GrammarShape(jsgf: "#JSGF V1.0; grammar x; public <s> = (a | ;") == nil)
    }
}
