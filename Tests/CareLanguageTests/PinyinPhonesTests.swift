import Foundation
import Testing
@testable import CareLanguage

/// Chinese words in the English acoustic model's phones: every syllable CareVoice can meet is
/// spelled, and the spelling follows pinyin's own rules.
@Suite struct PinyinPhonesTests {
    static let folder = Fixtures.resources.modelsDirectory.appendingPathComponent("zh-Hans")
    let phones = try! PinyinPhones.load(from: Self.folder)
    let speller = try! Fixtures.resources.pinyinSpeller(for: Fixtures.chinese)!
    /// y, w and ü as pinyin writes them; the two buzzed i; iu, ui, un written short.
    @Test(arguments: [
        ("yue", "", "ve"), ("yuan", "", "van"), ("yu", "", "v"), ("yi", "", "i"), ("ying", "", "ing"), ("you", "", "iou"),
        ("ya", "", "ia"), ("wu", "", "u"), ("wei", "", "uei"), ("wo", "", "uo"), ("xu", "x", "v"), ("jun", "j", "vn"),
        ("quan", "q", "van"), ("lv", "l", "v"), ("lu", "l", "u"), ("shi", "sh", "-ri"), ("ri", "r", "-ri"), ("zi", "z", "-i"),
        ("ci", "c", "-i"), ("ji", "j", "i"), ("gui", "g", "uei"), ("liu", "l", "iou"), ("dun", "d", "uen"), ("zhang", "zh", "ang"),
    ])
    func syllablesSplitAsPinyinSays(_ syllable: String, _ initial: String, _ final: String) {
        #expect(PinyinPhones.split(syllable) == (initial, final))
    }

    @Test func wordsAreSpelledSyllableBySyllable() {
        #expect(phones.pronunciation(of: "血糖", speller: speller) == "SH Y EH T AA NG")
        #expect(phones.pronunciation(of: "是", speller: speller) == phones.pronunciation(of: "十", speller: speller),
                "the tones the model cannot hear: why 血糖是 is no lead of a spoken reading")
        #expect(phones.pronunciation(of: "睡觉", speller: speller) == "SH W EY JH Y AW", "睡觉 is shui4 jiao4, not jue2")
        #expect(phones.pronunciation(of: "女", speller: speller) == "N Y UW")
        #expect(phones.pronunciation(of: "help", speller: speller) == nil, "English words are the dictionary's")
        #expect(phones.pronunciation(of: "血糖6", speller: speller) == nil)
        #expect(phones.phones(ofSyllable: "xyz1") == nil)
    }

    /// Every reading of the character table and the word list has phones. (That the decoder
    /// takes them, phone by phone, is ChineseRecognizerTests' check, on the real model.)
    @Test func everySyllableHasPhones() throws {
        var syllables = Set<String>()
        for file in ["pinyin.txt", "pinyin-words.txt"] {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                syllables.formUnion(line.split(separator: " ").dropFirst().map(String.init))
            }
        }
        #expect(syllables.count > 1000, "tone-numbered syllables read: \(syllables.count)")
        let unspelled = syllables.sorted().filter { phones.phones(ofSyllable: $0) == nil }
        #expect(unspelled.isEmpty, "no phones for \(unspelled)")
    }

    @Test func aMistakeInTheTableIsNamed() {
        #expect(throws: PinyinPhones.MalformedLine.self) { try PinyinPhones(text: "initial b B\nfinnal a AA\n") }
        #expect(throws: PinyinPhones.MalformedLine.self) { try PinyinPhones(text: "final a\n") }
    }
}
