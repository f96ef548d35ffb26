/// A second opinion on what one grammar hears. A grammar forces whatever it hears onto its own
/// sentences: "my knee hurts when it rains" came out as the reading "my three hundred twenty
/// three". A third decoder hears the same audio with that grammar and, beside it, a loop of
/// other words (common English words, or a character for each Mandarin syllable, and the
/// grammar's own words spelled apart), each made
/// less likely than the grammar's words by `oddsPerPhone` for each of its phones. When the best
/// path goes through the loop, the grammar's words were not what was said
/// (`RecognitionResult.otherWords`).
///
/// Its own decoder, so that the grammar's fit (`RecognitionResult.grammarFit`), which every
/// floor was calibrated on, stays as it was: pocketsphinx scores each frame against the best
/// senone it evaluated, and with the loop in the grammar every fit fell by 20 to 26.
public struct OtherWordsCheck: Sendable {
    /// The name of the grammar it checks.
    public var grammar: String
    /// The words the loop may say (dictionary words; those it cannot pronounce are left out).
    public var words: [String]
    /// How much less likely than the grammar's words a loop word is, for each of its phones:
    /// a short word costs less than a long one, as it covers less of what was said.
    public var oddsPerPhone: Double
    /// The checked grammar with the loop beside it, given the loop's words (`loopWord`
    /// spellings): JSGF.
    public var source: @Sendable ([String]) -> String
    /// The most HMMs its search keeps in a frame (pocketsphinx's -maxhmmpf, which narrows the
    /// beams of a frame that has more); nil: as many as the beams let through. The loop is
    /// the costliest search a recognizer has: in noise it searched 11925 HMMs a frame, the
    /// grammar 2878.
    public var maxHMMsPerFrame: Int?

    public init(grammar: String, words: [String], oddsPerPhone: Double, maxHMMsPerFrame: Int? = nil,
                source: @escaping @Sendable ([String]) -> String) {
        self.grammar = grammar
        self.words = words
        self.oddsPerPhone = oddsPerPhone
        self.maxHMMsPerFrame = maxHMMsPerFrame
        self.source = source
    }

    /// A word in the loop, spelled apart from the same word in the grammar, so that odds can be
    /// put on the one and not the other: "other_glucose". No dictionary word has an underscore.
    public static func loopWord(_ word: String) -> String { loopPrefix + word }
    static let loopPrefix = "other_"

    /// The loop's words in a hypothesis of the check's decoder, spelled as themselves ("my knee
    /// hurts"), when it has any; nil when the grammar's words won.
    public func otherWords(in hypothesis: String) -> String? {
        let words = hypothesis.split(whereSeparator: \.isWhitespace)
        guard words.contains(where: { $0.hasPrefix(Self.loopPrefix) }) else { return nil }
        return words.map { $0.hasPrefix(Self.loopPrefix) ? String($0.dropFirst(Self.loopPrefix.count)) : String($0) }
            .joined(separator: " ")
    }
}
