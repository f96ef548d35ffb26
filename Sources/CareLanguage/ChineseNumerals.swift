import Foundation

/// Numbers written and said in Chinese characters, both ways: 六点五 <-> 6.5, 一百二十 <-> 120,
/// 一百零五 <-> 105, 两百 <-> 200, 十五 <-> 15, 零点八 <-> 0.8, and digit by digit (一二零 <-> 120).
///
/// The Chinese system is positional with unit characters (十, 百, 千) rather than number words
/// joined by spaces, so it is an algorithm of its own rather than a table like English's
/// `NumberWords`. Numbers are kept as digit strings, never as Doubles, so a decimal cannot be
/// lost or invented (as in `GlucoseDraft.number`).
public struct ChineseNumerals: Sendable, Equatable {
    /// 零 to 九, with 两 (the 2 said before a unit: 两百) and 〇 (the zero of digit strings).
    public let digits: [Character: Int]
    /// 十, 百, 千.
    public let units: [Character: Int]
    /// 点, the decimal point.
    public let point: Character
    /// How 2 is said before 百 and 千 (两); before 十 and alone it is 二.
    public let twoBeforeUnit: Character

    public init(digits: [Character: Int], units: [Character: Int], point: Character, twoBeforeUnit: Character) {
        self.digits = digits
        self.units = units
        self.point = point
        self.twoBeforeUnit = twoBeforeUnit
    }

    /// Mandarin as written in Simplified Chinese.
    public static let mandarin = ChineseNumerals(
        digits: ["零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9],
        units: ["十": 10, "百": 100, "千": 1000], point: "点", twoBeforeUnit: "两")

    // MARK: Reading

    /// The number at the start of `text`, as digits ("6.5"), and how many characters it takes;
    /// nil when it does not start with one, or with one that is not well formed ("十十").
    public func parse(_ text: Substring) -> (number: String, used: Int)? {
        let run = text.prefix { digits[$0] != nil || units[$0] != nil || $0 == point }
        // A trailing 点 belongs to what follows ("三点" is three o'clock), not to the number.
        let integerPart = run.prefix { $0 != point }
        var used = integerPart.count
        guard !integerPart.isEmpty, let whole = integer(integerPart) else { return nil }
        var number = whole
        let afterWhole = run.dropFirst(integerPart.count)
        if afterWhole.first == point {
            let decimals = afterWhole.dropFirst().prefix { digits[$0] != nil }
            if !decimals.isEmpty {
                number += "." + decimals.map { String(digits[$0]!) }.joined()
                used += 1 + decimals.count
            }
        }
        return (number, used)
    }

    /// The whole of `text` as a number, or nil.
    public func number(_ text: String) -> String? {
        guard let (number, used) = parse(Substring(text)), used == text.count else { return nil }
        return number
    }

    /// An integer written with units (一百零五) or digit by digit (一二零).
    private func integer(_ text: Substring) -> String? {
        if !text.contains(where: { units[$0] != nil }) {
            let values = text.map { digits[$0]! }
            // Digit by digit: no leading zero except zero itself, and 二 rather than 两 (两 is
            // said alone or before a unit).
            guard values.count == 1 || (values.first != 0 && !text.contains(twoBeforeUnit)) else { return nil }
            return values.map(String.init).joined()
        }
        var total = 0
        var pending: Int?          // a digit waiting for its unit
        var lastUnit = Int.max     // units only ever get smaller: 一百二十, never 十百
        var afterZero = false      // 一百零五: the 五 is ones
        for character in text {
            if let digit = digits[character] {
                guard pending == nil else { return nil }   // two digits in a row: 五五十
                if digit == 0 {
                    guard total > 0, !afterZero else { return nil }
                    afterZero = true
                } else {
                    pending = digit
                }
            } else if let unit = units[character] {
                guard unit < lastUnit else { return nil }
                // 十 alone or first is 一十 (十五 = 15); every other unit needs its digit.
                guard let digit = pending ?? (unit == 10 ? 1 : nil) else { return nil }
                total += digit * unit
                lastUnit = unit
                pending = nil
                afterZero = false
            }
        }
        if afterZero && pending == nil { return nil }   // 一百零: the zero stands before nothing
        if let digit = pending {
            // After 零 or 十 a last digit is ones; right after 百 or 千 it is the next place down,
            // as people say it: 一百二 = 120, 两千五 = 2500.
            total += afterZero || lastUnit == 10 ? digit : digit * (lastUnit / 10)
        }
        return String(total)
    }

    // MARK: Saying

    /// How the number (digits, with at most one point) is said: 6.5 -> 六点五, 120 -> 一百二十.
    public func spell(_ number: String) -> String {
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = Int(parts[0]), whole >= 0, whole < 10000 else { return number }
        var said = spellInteger(whole)
        if parts.count == 2 { said += String(point) + spellDigits(String(parts[1])) }
        return said
    }

    /// Each digit on its own, the point as 点: 120 -> 一二零, 6.5 -> 六点五.
    public func spellDigits(_ number: String) -> String {
        String(number.map { character -> Character in
            if character == "." { return point }
            guard let value = character.wholeNumberValue else { return character }
            return plainDigit(value)
        })
    }

    private func plainDigit(_ value: Int) -> Character {
        // 二 and 零 as written in digit strings and before 十; 两 only before 百 and 千.
        let preferred: [Int: Character] = [0: "零", 2: "二"]
        if let c = preferred[value], digits[c] == value { return c }
        return digits.first { $0.value == value && $0.key != twoBeforeUnit && $0.key != "〇" }!.key
    }

    private func spellInteger(_ n: Int) -> String {
        let unitCharacters = Dictionary(uniqueKeysWithValues: units.map { ($0.value, $0.key) })
        if n < 10 { return String(plainDigit(n)) }
        if n < 20 { return String(unitCharacters[10]!) + (n % 10 == 0 ? "" : String(plainDigit(n % 10))) }
        var said = ""
        var zeroPending = false
        for unit in [1000, 100, 10, 1] where unit <= n {
            let digit = n / unit % 10
            if digit == 0 {
                zeroPending = !said.isEmpty
                continue
            }
            if zeroPending { said.append(plainDigit(0)); zeroPending = false }
            said.append(unit >= 100 && digit == 2 ? twoBeforeUnit : plainDigit(digit))
            if unit > 1 { said.append(unitCharacters[unit]!) }
        }
        return said
    }
}
