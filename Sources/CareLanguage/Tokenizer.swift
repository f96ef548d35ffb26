import Foundation
/// Turns typed or recognized text into lowercase tokens the phrase tables can match.
///
/// Keeps what carries meaning in typed text: decimal points between digits
/// ("6.5", and "6,5" as written in much of Europe), clock times ("7:30"),
/// ISO dates ("2026-05-01") and unit symbols ("mmol/l"). Splits a number from
/// letters stuck to it ("6.5mmol", "9pm").
///
/// Chinese is written without spaces, so each Chinese character is a token of its own:
/// "血糖六点五早餐前" gives 血 糖 六 点 五 早 餐 前, and a phrase in the locale table
/// ("早餐前") is matched character by character, whatever spacing a recognizer or
/// input method produced. Full-width letters and digits (６．５) are read as their
/// ASCII forms, and Chinese punctuation separates like its Western counterpart.
public enum Tokenizer {
    /// Whether the dot at `index` is one of two or more in a row with a digit on each side.
    private static func isInDotRunBetweenDigits(_ chars: [Character], at index: Int) -> Bool {
        var start = index, end = index
        while start > 0, chars[start - 1] == "." { start -= 1 }
        while end + 1 < chars.count, chars[end + 1] == "." { end += 1 }
        guard end > start, start > 0, end + 1 < chars.count else { return false }
        return chars[start - 1].isNumber && chars[end + 1].isNumber
    }

    static func tokens(_ text: String) -> [String] {
        let chars = Array(text.lowercased()).map(halfWidth)
        var out = ""
        for (i, c) in chars.enumerated() {
            let prev: Character? = i > 0 ? chars[i - 1] : nil
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            let betweenDigits = (prev?.isNumber ?? false) && (next?.isNumber ?? false)
            switch c {
            case ".":
                // A decimal point survives (also a leading one: ".8"); a full stop or the dots of "a.m." do not.
                // Dots doubled between digits ("6..5") stay, so that no number is read from a typo.
                let startsNumber = (next?.isNumber ?? false) && !(prev?.isLetter ?? false)
                let doubledInNumber = Self.isInDotRunBetweenDigits(chars, at: i)
                out.append(betweenDigits || startsNumber || doubledInNumber ? "." : (next == nil || next == " " ? " " : ""))
            case ",":
                out.append(betweenDigits ? "." : " ")
            case ":", "-":
                out.append(betweenDigits ? c : " ")
            case "/":
                out.append(c)
            case "'", "’":
                out.append((prev?.isLetter ?? false) && (next?.isLetter ?? false) ? "'" : " ")
            case "!", "?", ";", "\"", "(", ")", "[", "]", "“", "”", "…", "。", "、", "《", "》", "「", "」", "·", "～":
                out.append(" ")
            default:
                if c.isWhitespace { out.append(" "); continue }
                if isChinese(c) { out.append(" \(c) "); continue }
                // Split "6.5mmol" and "9pm", but not "mmol/l" or "2026-05-01".
                if let p = prev, (p.isNumber && c.isLetter) || (p.isLetter && c.isNumber) { out.append(" ") }
                out.append(c)
            }
        }
        return out.split(separator: " ").map(String.init).filter { !$0.isEmpty }
    }

    /// Tokens back into text: words apart, Chinese characters together ("运动", "my club").
    public static func joined(_ tokens: [String]) -> String {
        var text = ""
        for token in tokens {
            let bothChinese = text.last.map(isChinese) == true && token.first.map(isChinese) == true
            if !text.isEmpty && !bothChinese { text += " " }
            text += token
        }
        return text
    }

    /// A CJK ideograph (the unified block and its first extension, where every character
    /// CareVoice's tables use lies), or 〇, the zero of written digit strings.
    public static func isChinese(_ c: Character) -> Bool {
        guard let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1 else { return false }
        return (0x4E00...0x9FFF).contains(scalar.value) || (0x3400...0x4DBF).contains(scalar.value) || c == "〇"
    }

    /// Full-width ASCII forms (ＡＢＣ１２３，．：) as the ASCII they stand for, and the
    /// ideographic space as a space. Typed with a Chinese input method, "６．５" is 6.5.
    static func halfWidth(_ c: Character) -> Character {
        guard let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1 else { return c }
        switch scalar.value {
        case 0x3000: return " "
        case 0xFF01...0xFF5E: return Character(Unicode.Scalar(scalar.value - 0xFEE0)!)
        default: return c
        }
    }
}

/// The locale table's phrases, split once: the parser compares every sentence with the same
/// phrase lists, and splitting them anew each time was most of its work (perf, GrammarCoverageTests).
/// Bounded: only table phrases come here (the receivers of `containsPhrase` and `longestPrefix`).
private final class PhraseTokens: @unchecked Sendable {
    static let shared = PhraseTokens()
    private let lock = NSLock()
    private var split: [String: [String]] = [:]

    func tokens(_ phrase: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        if let known = split[phrase] { return known }
        let tokens = Tokenizer.tokens(phrase)
        split[phrase] = tokens
        return tokens
    }
}

extension Array where Element == String {
    /// Whether one of these phrases is exactly `tokens` once split like them: "不对" is 不 对,
    /// "that's right" is that's right.
    func containsPhrase<Tokens: Collection<String>>(_ tokens: Tokens) -> Bool {
        contains { PhraseTokens.shared.tokens($0).elementsEqual(tokens) }
    }

    /// The longest of these phrases that `tokens` starts with, as its number of tokens.
    func longestPrefix<Tokens: Collection<String>>(of tokens: Tokens) -> Int? {
        splitPhrases.filter { !$0.isEmpty && tokens.starts(with: $0) }.map(\.count).max()
    }

    /// Each of these phrases split into tokens.
    var splitPhrases: [[String]] { map(PhraseTokens.shared.tokens) }
}

extension Character {
    /// 0-9. (`isNumber` is also true of 六 and ½, which `Int` does not read.)
    var isDigit: Bool { isASCII && isNumber }
}
