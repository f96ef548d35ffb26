import Foundation

/// Chinese words spelled in the phones of Debian's English acoustic model, syllable by syllable
/// ("血糖" -> "SH Y EH T AA NG"). Debian has no Mandarin model; this is how the recognizer can
/// listen for Chinese at all. The phones of each initial and final are in
/// `models/zh-Hans/pinyin-phones.txt`, which says why they are what they are.
public struct PinyinPhones: Sendable {
    private let initials: [String: String]
    private let finals: [String: String]
    private let wholeSyllables: [String: String]

    public struct MalformedLine: Error, CustomStringConvertible {
        public var line: String
        public var description: String { "pinyin-phones.txt: not \"initial|final|syllable PINYIN PHONES\": \(line)" }
    }

    public init(text: String) throws {
        var tables: [String: [String: String]] = ["initial": [:], "final": [:], "syllable": [:]]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.allSatisfy(\.isWhitespace) {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count >= 3, tables[parts[0]] != nil else { throw MalformedLine(line: String(line)) }
            tables[parts[0]]![parts[1]] = parts.dropFirst(2).joined(separator: " ")
        }
        initials = tables["initial"]!
        finals = tables["final"]!
        wholeSyllables = tables["syllable"]!
    }

    /// The table in `directory` (`models/zh-Hans`).
    public static func load(from directory: URL) throws -> PinyinPhones {
        try PinyinPhones(text: String(contentsOf: directory.appendingPathComponent("pinyin-phones.txt"), encoding: .utf8))
    }

    /// "xue4" -> "SH Y EH"; nil for what is no pinyin syllable the table can spell.
    public func phones(ofSyllable syllable: String) -> String? {
        let plain = String(syllable.lowercased().filter { !$0.isNumber }).replacingOccurrences(of: "ü", with: "v")
        if let whole = wholeSyllables[plain] { return whole }
        let (initial, final) = Self.split(plain)
        guard let finalPhones = finals[final] else { return nil }
        guard !initial.isEmpty else { return finalPhones }
        return initials[initial].map { $0 + " " + finalPhones }
    }

    /// A word of Chinese characters as phones, through each character's reading (words read
    /// otherwise, such as 睡觉, as the speller reads them). Nil when the word has anything else
    /// in it or a character without a reading.
    public func pronunciation(of word: String, speller: PinyinSpeller) -> String? {
        guard !word.isEmpty, word.allSatisfy(Tokenizer.isChinese) else { return nil }
        let syllables = speller.syllables(word)
        guard syllables.count == word.count else { return nil }
        let phones = syllables.compactMap(phones(ofSyllable:))
        return phones.count == syllables.count ? phones.joined(separator: " ") : nil
    }

    /// A toneless syllable as its initial and the final it stands for: "yue" -> ("", "ve"),
    /// "xu" -> ("x", "v"), "shi" -> ("sh", "-ri"), "gui" -> ("g", "uei").
    static func split(_ syllable: String) -> (initial: String, final: String) {
        if syllable.hasPrefix("y") {
            let rest = syllable.dropFirst()
            if rest.hasPrefix("u") { return ("", "v" + rest.dropFirst()) }
            return ("", rest.hasPrefix("i") ? String(rest) : "i" + rest)
        }
        if syllable.hasPrefix("w") {
            let rest = syllable.dropFirst()
            return ("", rest == "u" ? "u" : "u" + rest)
        }
        let initial = ["zh", "ch", "sh"].first { syllable.hasPrefix($0) }
            ?? (syllable.first.map(String.init).flatMap { "bpmfdtnlgkhjqxrzcs".contains($0) ? $0 : nil } ?? "")
        var final = String(syllable.dropFirst(initial.count))
        if ["j", "q", "x"].contains(initial), final.hasPrefix("u") { final = "v" + final.dropFirst() }
        if final == "i", ["z", "c", "s"].contains(initial) { final = "-i" }
        if final == "i", ["zh", "ch", "sh", "r"].contains(initial) { final = "-ri" }
        final = ["iu": "iou", "ui": "uei", "un": "uen"][final] ?? final
        return (initial, final)
    }
}
