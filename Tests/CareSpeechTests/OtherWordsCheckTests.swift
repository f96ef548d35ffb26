import Testing
@testable import CareSpeech

/// The check's decoder spells its loop words apart ("other_knee"); a hypothesis is read back in
/// plain words, and only when the loop won.
@Test func otherWordsAreReadFromTheLoopsSpelling() {
    let check = OtherWordsCheck(grammar: "reading", words: ["knee"], oddsPerPhone: 0.1) { _ in "" }
    #expect(OtherWordsCheck.loopWord("knee") == "other_knee")
    #expect(check.otherWords(in: "other_my other_knee other_it's") == "my knee it's")
    #expect(check.otherWords(in: "glucose six point five") == nil)
    #expect(check.otherWords(in: "") == nil)
}
