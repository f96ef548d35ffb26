import Foundation

/// Chinese text as tone-numbered pinyin ("血糖六点五" -> "xue4 tang2 liu4 dian3 wu3"), for
/// espeak-ng's `cmn-latn-pinyin` voice. espeak-ng 1.51's own Chinese-character voice misreads
/// (it says tone numbers as English digits: espeak-ng issues #1028 and #1236); its pinyin voice
/// reads pinyin well, with the third-tone sandhi.
///
/// Readings come from `models/zh-Hans/pinyin.txt` (each character's usual one) and
/// `pinyin-words.txt` (words read otherwise, the longest first: 睡觉 shui4 jiao4). Digits are said
/// as Chinese numbers first (6.5 -> 六点五, 07:30 -> 七点三十分, 1948年 -> 一九四八年).
public struct PinyinSpeller: Sendable, Equatable {
    private let readings: [Character: String]
    private let words: [String: [String]]
    private let longestWord: Int
    private let numerals = ChineseNumerals.mandarin

    public init(characters: String, words: String) {
        var readings: [Character: String] = [:]
        var table: [String: [String]] = [:]
        for (text, target) in [(characters, 0), (words, 1)] {
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let parts = line.split(separator: " ").map(String.init)
                guard parts.count >= 2 else { continue }
                if target == 0, parts[0].count == 1 { readings[Character(parts[0])] = parts[1] }
                if target == 1, parts[0].count == parts.count - 1 { table[parts[0]] = Array(parts.dropFirst()) }
            }
        }
        self.readings = readings
        self.words = table
        longestWord = table.keys.map(\.count).max() ?? 1
    }

    /// The tables in `directory` (`models/zh-Hans`).
    public static func load(from directory: URL) throws -> PinyinSpeller {
        PinyinSpeller(characters: try String(contentsOf: directory.appendingPathComponent("pinyin.txt"), encoding: .utf8),
                      words: try String(contentsOf: directory.appendingPathComponent("pinyin-words.txt"), encoding: .utf8))
    }

    /// Chinese characters that have no reading (they would be left out when spoken).
    public func unknownCharacters(in text: String) -> Set<Character> {
        Set(sayingNumbers(text).filter { Tokenizer.isChinese($0) && readings[$0] == nil && words[String($0)] == nil })
    }

    /// The syllables each Chinese character of `text` is read as, in order (for checking).
    public func syllables(_ text: String) -> [String] {
        spell(text).split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init).filter { $0.last?.isNumber == true }
    }

    /// What espeak-ng's pinyin voice is given: syllables separated by spaces, Chinese punctuation
    /// as its Western counterpart (so pauses stay), Latin text as it is.
    public func spell(_ text: String) -> String {
        let characters = Array(sayingNumbers(text))
        var out: [String] = []
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if Tokenizer.isChinese(c) {
                var matched = false
                for length in stride(from: min(longestWord, characters.count - i), through: 1, by: -1) {
                    if let syllables = words[String(characters[i..<(i + length)])] {
                        out += syllables
                        i += length
                        matched = true
                        break
                    }
                }
                if !matched {
                    if let reading = readings[c] { out.append(reading) }
                    i += 1
                }
                continue
            }
            if let pause = Self.pauses[c] {
                out.append(pause)
            } else if c.isWhitespace {
                out.append(" ")
            } else {
                out.append(String(c))
            }
            i += 1
        }
        return Self.joined(Self.withToneSandhiOfBu(out))
    }

    private static let pauses: [Character: String] = ["，": ", ", "、": ", ", "。": ". ", "？": "? ", "！": "! ", "：": ": ",
                                                       "；": "; ", "（": " (", "）": ") ", "“": " ", "”": " ", "《": " ", "》": " "]

    /// 不 is said bu2 before a fourth tone (不对 bu2 dui4); espeak-ng does not know.
    private static func withToneSandhiOfBu(_ pieces: [String]) -> [String] {
        var pieces = pieces
        for i in pieces.indices.dropLast() where pieces[i] == "bu4" && pieces[i + 1].hasSuffix("4") {
            pieces[i] = "bu2"
        }
        return pieces
    }

    /// Syllables apart, Latin letters together ("CareVoice"), no doubled spaces.
    private static func joined(_ pieces: [String]) -> String {
        var text = ""
        for piece in pieces {
            let isSyllable = piece.last?.isNumber == true && piece.first?.isLetter == true
            if isSyllable, let last = text.last, !last.isWhitespace { text += " " }
            // A pause mark sits on the syllable before it: "sheng1, zao3".
            if let first = piece.first, first.isPunctuation, first != "(" {
                while text.last?.isWhitespace == true { text.removeLast() }
            }
            text += piece
            if isSyllable { text += " " }
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    // MARK: Numbers

    /// Digits as Chinese numbers: "07:30" -> 七点三十分, "1948年" -> 一九四八年, "6.5" -> 六点五, "36%" -> 百分之三十六,
    /// a long number (a phone number) digit by digit.
    func sayingNumbers(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let start = rest.firstIndex(where: \.isDigit) {
            out += rest[..<start]
            rest = rest[start...]
            let digits = rest.prefix { $0.isDigit || $0 == "." || $0 == ":" }
            var number = String(digits)
            // A full stop after a number ends the sentence, it is no decimal point.
            while number.last == "." || number.last == ":" { number.removeLast() }
            rest = rest.dropFirst(number.count)
            if let colon = number.firstIndex(of: ":"), let hour = Int(number[..<colon]),
               let minute = Int(number[number.index(after: colon)...]) {
                out += numerals.spell(String(hour)) + "点" + (minute == 0 ? "" : (minute < 10 ? "零" : "") + numerals.spell(String(minute)) + "分")
            } else if rest.first == "%" || rest.first == "％" {
                out += "百分之" + numerals.spell(number)
                rest = rest.dropFirst()
            } else if number.count == 4, rest.first == "年" {
                out += numerals.spellDigits(number)
            } else if number.filter(\.isDigit).count > 4 || number.hasPrefix("0") && number.count > 1 && !number.hasPrefix("0.") {
                out += numerals.spellDigits(number)
            } else {
                out += numerals.spell(number)
            }
        }
        return out + rest
    }
}
