/// Turns typed or recognized text into lowercase tokens the phrase tables can match.
///
/// Keeps what carries meaning in typed text: decimal points between digits
/// ("6.5", and "6,5" as written in much of Europe), clock times ("7:30"),
/// ISO dates ("2026-05-01") and unit symbols ("mmol/l"). Splits a number from
/// letters stuck to it ("6.5mmol", "9pm").
enum Tokenizer {
    static func tokens(_ text: String) -> [String] {
        let chars = Array(text.lowercased())
        var out = ""
        for (i, c) in chars.enumerated() {
            let prev: Character? = i > 0 ? chars[i - 1] : nil
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            let betweenDigits = (prev?.isNumber ?? false) && (next?.isNumber ?? false)
            switch c {
            case ".":
                // A decimal point survives (also a leading one: ".8"); a full stop or the dots of "a.m." do not.
                let startsNumber = (next?.isNumber ?? false) && !(prev?.isLetter ?? false)
                out.append(betweenDigits || startsNumber ? "." : (next == nil || next == " " ? " " : ""))
            case ",":
                out.append(betweenDigits ? "." : " ")
            case ":", "-":
                out.append(betweenDigits ? c : " ")
            case "/":
                out.append(c)
            case "'", "’":
                out.append((prev?.isLetter ?? false) && (next?.isLetter ?? false) ? "'" : " ")
            case "!", "?", ";", "\"", "(", ")", "[", "]", "“", "”", "…":
                out.append(" ")
            default:
                if c.isWhitespace { out.append(" "); continue }
                // Split "6.5mmol" and "9pm", but not "mmol/l" or "2026-05-01".
                if let p = prev, (p.isNumber && c.isLetter) || (p.isLetter && c.isNumber) { out.append(" ") }
                out.append(c)
            }
        }
        return out.split(separator: " ").map(String.init).filter { !$0.isEmpty }
    }
}
