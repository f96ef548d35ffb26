import CareLanguage
import CareSpeech
import Foundation

/// What the assistant says in a language its voice reads through pinyin (Chinese), checked by
/// machine: each fixed prompt is synthesized exactly as the assistant speaks it, then recognized
/// back with a grammar of all the prompts. A prompt that comes back as another one, or not at
/// all, is one the voice says wrongly or unclearly: a character read with the wrong pinyin, or
/// text the voice cannot read (espeak-ng reads stray digits and tone numbers as English).
public struct SpokenPromptCheck {
    /// A prompt as shown, and the words its grammar alternative is made of: its runs of Chinese
    /// characters, each spelled as the voice says it in context (睡觉 as shui4 jiao4).
    public struct Prompt: Sendable, Equatable {
        public var text: String
        public var words: [String]
    }

    public struct Outcome: Sendable {
        public var prompt: Prompt
        public var heard: String
        public var isRight: Bool { heard == prompt.words.joined(separator: " ") }
    }

    public let prompts: [Prompt]
    private let recognizer: SpeechRecognizer
    private let style: SpeechOutputStyle
    private let synthesizer: SpeechSynthesizer

    static let grammarName = "prompts"

    /// - Parameter voice: the espeak-ng voice that says them (default: the locale's own).
    public init(table: LocaleTable, resources: ResourceLocator, voice: String? = nil) throws {
        guard let speller = try resources.pinyinSpeller(for: table) else {
            throw SpeechError.badGrammar("\(table.id): its voice reads the language itself; there is no pinyin to check")
        }
        prompts = Self.prompts(table)
        recognizer = try SpeechRecognizer(RecognizerFactory.configuration(table: table, resources: resources),
                                          grammars: [Self.grammarName: Self.grammar(prompts)])
        style = SpeechOutputStyle(voice: voice ?? table.speech.voice, pinyin: speller)
        synthesizer = try SpeechSynthesizer.shared()
    }

    /// The table's messages and onboarding questions, their placeholders left out (a pause in
    /// their place): those wholly Chinese, without digits or Latin words, whose words the
    /// grammar could not hold, and of at least three characters (what is left of "{a}和{b}" is
    /// said only inside a longer sentence). Each once.
    public static func prompts(_ table: LocaleTable) -> [Prompt] {
        let book = Phrasebook(table: table)
        let templates = MessageKey.allCases.map { book.text($0) } + OnboardingKey.allCases.compactMap { table.onboarding[$0.rawValue] }
        let texts = templates.map { $0.replacingOccurrences(of: #"\{[A-Za-z]+\}"#, with: "，", options: .regularExpression) }
        var seen = Set<String>()
        return texts.compactMap { text in
            guard seen.insert(text).inserted, text.allSatisfy({ Tokenizer.isChinese($0) || $0.isPunctuation || $0.isWhitespace }) else {
                return nil
            }
            let words = text.split { !Tokenizer.isChinese($0) }.map(String.init)
            return words.joined().count < 3 ? nil : Prompt(text: text, words: words)
        }
    }

    /// One public rule with every prompt as an alternative.
    static func grammar(_ prompts: [Prompt]) -> String {
        let alternatives = Set(prompts.map { "(" + $0.words.joined(separator: " ") + ")" }).sorted()
        return "#JSGF V1.0;\ngrammar carevoice_prompts;\npublic <prompt> = " + alternatives.joined(separator: " | ") + ";\n"
    }

    /// The prompt said by the voice and decoded as one utterance.
    public func check(_ prompt: Prompt) throws -> Outcome {
        let spoken = try style.synthesize(prompt.text, with: synthesizer)
        return Outcome(prompt: prompt, heard: recognizer.decode(spoken).text)
    }
}
