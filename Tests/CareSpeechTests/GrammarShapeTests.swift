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

    @Test func notAGrammarHasNoShape() {
        #expect(GrammarShape(jsgf: "#JSGF V1.0; grammar x; <private> = a;") == nil)
        #expect(GrammarShape(jsgf: "#JSGF V1.0; grammar x; public <s> = (a | ;") == nil)
    }
}
