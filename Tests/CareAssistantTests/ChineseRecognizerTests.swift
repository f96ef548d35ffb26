import CareLanguage
import CareSpeech
import Foundation
import Testing
@testable import CareAssistant

/// The Chinese recognizer as the benchmarks build it, on Debian's real English model: every
/// dialog state's grammar compiles, and every Chinese character is a word the decoder can say.
@Suite struct ChineseRecognizerTests {
    static let resources = ResourceLocator(root: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent())

    @Test func everyChineseCharacterIsAWordTheDecoderCanSay() throws {
        // Builds every grammar of every state (make throws on a grammar pocketsphinx rejects or
        // a word it cannot spell).
        let recognizer = try RecognizerFactory.make(table: chinese, resources: Self.resources, countries: ["CN", "HK", "TW", "CA"])
        let table = try String(contentsOf: Self.resources.modelsDirectory.appendingPathComponent("zh-Hans/pinyin.txt"), encoding: .utf8)
        let characters = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(characters.count == 6763)
        // ps_add_word refuses phones the acoustic model lacks, so this checks the phone table too.
        let unsayable = characters.filter { recognizer.pronunciation(of: $0) == nil }
        #expect(unsayable.isEmpty, "\(unsayable.count) characters, e.g. \(unsayable.prefix(5))")
        #expect(recognizer.pronunciation(of: "血糖") == "SH Y EH T AA NG")
    }
}

/// The assistant's Chinese prompts said by its own voice and recognized back with a grammar
/// of all of them (`carevoice bench prompts` runs every one; here, a few long ones).
// Serialized: the tests share one recognizer, which is not thread-safe.
@Suite(.serialized) struct SpokenPromptCheckTests {
    static let check = Result { try SpokenPromptCheck(table: chinese, resources: ChineseRecognizerTests.resources) }

    /// Placeholders are left out; only what is then wholly Chinese is checked: a digit or Latin
    /// word is something the grammar of prompts could not hold.
    @Test func thePromptsAreTheFixedChineseOnes() throws {
        let prompts = SpokenPromptCheck.prompts(chinese)
        #expect(prompts.count > 170)
        let cancelled = try #require(prompts.first { $0.text == "已取消，什么都没有保存。" })
        #expect(cancelled.words == ["已取消", "什么都没有保存"])
        let saved = try #require(prompts.first { $0.text == "已保存：，。" }, "已保存：{reading}。")
        #expect(saved.words == ["已保存"])
        #expect(!prompts.contains { $0.words.joined().count < 3 }, "no fragment such as 和 alone")
        #expect(!prompts.contains { $0.text.contains("{") || $0.text.contains("CareVoice") || $0.text.contains { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        #expect(Set(prompts.map(\.text)).count == prompts.count)
    }

    @Test(arguments: ["已取消，什么都没有保存。", "按回车键保存；修改这一行可以更正；把这一行清空就取消。",
                      "输入“对”保存，输入“不对”不保存，或者直接输入正确的读数。"])
    func aPromptSaidByTheVoiceIsRecognizedBack(_ text: String) throws {
        let check = try Self.check.get()
        let prompt = try #require(check.prompts.first { $0.text == text })
        let outcome = try check.check(prompt)
        #expect(outcome.isRight, "\(text) came back as \(outcome.heard)")
    }

    /// A prompt whose words are not what the voice says is caught (the check can fail).
    @Test func wordsTheVoiceDoesNotSayAreCaught() throws {
        let check = try Self.check.get()
        let outcome = try check.check(SpokenPromptCheck.Prompt(text: "已取消，什么都没有保存。", words: ["没有保存"]))
        #expect(!outcome.isRight)
        #expect(outcome.heard == "已取消 什么都没有保存")
    }
}
