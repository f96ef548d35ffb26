/// Numbers in words, both ways, from a locale's number table.
public struct NumberWords: Sendable {
    let table: LocaleTable.Numbers
    private let digitWords: [String: Int]
    /// Set when the table's numbers are Chinese characters: they are read and said by its rules.
    let chinese: ChineseNumerals?

    public init(_ table: LocaleTable.Numbers) {
        self.table = table
        var digits = table.digits
        for alternative in table.zeroAlternatives { digits[alternative] = 0 }
        digitWords = digits
        chinese = table.system == .chinese ? .mandarin : nil
    }

    /// Whether numbers are said in Chinese characters, by their rules.
    public var isChinese: Bool { chinese != nil }

    /// All words that can appear inside a spoken number.
    public var vocabulary: Set<String> {
        if let chinese {
            return Set(chinese.digits.keys.map(String.init)).union(chinese.units.keys.map(String.init)).union([String(chinese.point)])
        }
        return Set(table.digits.keys).union(table.zeroAlternatives).union(table.teens.keys).union(table.tens.keys)
            .union([table.hundred, table.point])
    }

    // MARK: Reading numbers

    /// Parses a number at the start of `tokens`: words ("one hundred and twenty",
    /// "six point five", "one twenty", "one oh five"), numerals ("6.5", "120"),
    /// or a mix ("6 point 5"). Returns the number as a digit string and how many
    /// tokens it used, or nil when no number starts here.
    public func parse(_ tokens: ArraySlice<String>) -> (number: String, consumed: Int)? {
        guard let first = tokens.first else { return nil }
        if chinese != nil, Self.numeral(first) == nil { return parseChinese(tokens) }
        var index = tokens.startIndex
        var integer: String

        if let numeral = Self.numeral(first) {
            integer = numeral
            index += 1
            if numeral.contains(".") { return (numeral, 1) }
        } else if let (value, used) = parseIntegerWords(tokens) {
            integer = String(value)
            index += used
        } else if first == table.point {
            integer = "0"
        } else {
            return nil
        }

        // A fraction: "point" followed by single digits.
        if index < tokens.endIndex, tokens[index] == table.point {
            var fraction = ""
            var j = index + 1
            while j < tokens.endIndex {
                if let d = digitWords[tokens[j]] {
                    fraction += String(d)
                } else if tokens[j].allSatisfy(\.isDigit), !tokens[j].isEmpty {
                    fraction += tokens[j]
                } else {
                    break
                }
                j += 1
            }
            if !fraction.isEmpty {
                return (integer + "." + fraction, j - tokens.startIndex)
            }
        }
        return (integer, index - tokens.startIndex)
    }

    /// A number in Chinese characters, one token each (the tokenizer splits them): 六 点 五.
    private func parseChinese(_ tokens: ArraySlice<String>, wholeOnly: Bool = false) -> (number: String, consumed: Int)? {
        guard let chinese else { return nil }
        let run = tokens.prefix { $0.count == 1 && !(wholeOnly && $0 == String(chinese.point)) }.joined()
        guard let (number, used) = chinese.parse(Substring(run)) else { return nil }
        return (number, used)
    }

    /// Whole numbers up to 999 in words.
    func parseIntegerWords(_ tokens: ArraySlice<String>) -> (Int, Int)? {
        if chinese != nil {
            guard let (number, used) = parseChinese(tokens, wholeOnly: true), let value = Int(number) else { return nil }
            return (value, used)
        }
        var i = tokens.startIndex
        func peek(_ k: Int = 0) -> String? { i + k < tokens.endIndex ? tokens[i + k] : nil }

        // "[a | one..nine] hundred [and] [rest]"
        var hundreds: Int?
        if peek() == table.article, peek(1) == table.hundred {
            hundreds = 1; i += 2
        } else if let d = peek().flatMap({ table.digits[$0] }), d > 0, peek(1) == table.hundred {
            hundreds = d; i += 2
        } else if peek() == table.hundred {
            hundreds = 1; i += 1
        }
        if let h = hundreds {
            var rest = 0
            var afterAnd = i
            if peek() == table.conjunction { afterAnd = i + 1 }
            let save = i
            i = afterAnd
            if let (value, used) = parseBelowHundred(tokens[i...]) {
                rest = value; i += used
            } else {
                i = save
            }
            return (h * 100 + rest, i - tokens.startIndex)
        }

        guard let (value, used) = parseBelowHundred(tokens) else { return nil }
        i += used
        // "one twenty" = 120, "two oh five" = 205: a digit, then a two-digit group.
        if used == 1, let d = table.digits[tokens[tokens.startIndex]], d > 0 {
            if let zero = peek(), table.zeroAlternatives.contains(zero) || zero == "zero",
               let unit = peek(1).flatMap({ table.digits[$0] }) {
                return (d * 100 + unit, i + 2 - tokens.startIndex)
            }
            if let next = peek(), table.teens[next] != nil || table.tens[next] != nil,
               let (group, groupUsed) = parseBelowHundred(tokens[i...]) {
                return (d * 100 + group, i + groupUsed - tokens.startIndex)
            }
        }
        return (value, i - tokens.startIndex)
    }

    /// 0-99 in words: a digit, a teen, or tens with an optional digit.
    func parseBelowHundred(_ tokens: ArraySlice<String>) -> (Int, Int)? {
        if chinese != nil {
            guard let (value, used) = parseIntegerWords(tokens), value < 100 else { return nil }
            return (value, used)
        }
        guard let first = tokens.first else { return nil }
        if let d = table.digits[first] { return (d, 1) }
        if let t = table.teens[first] { return (t, 1) }
        if let t = table.tens[first] {
            let next = tokens.dropFirst().first
            if let n = next, let d = table.digits[n], d > 0 { return (t + d, 2) }
            return (t, 1)
        }
        return nil
    }

    /// "120", "6.5", ".5" as typed.
    static func numeral(_ token: String) -> String? {
        guard !token.isEmpty, token.allSatisfy({ $0.isDigit || $0 == "." }),
              token.filter({ $0 == "." }).count <= 1, token.contains(where: \.isDigit) else { return nil }
        var t = token
        if t.hasPrefix(".") { t = "0" + t }
        if t.hasSuffix(".") { t.removeLast() }
        return t
    }

    // MARK: Saying numbers

    /// Words for a digit string: "6.5" -> "six point five", "120" -> "one hundred twenty",
    /// "0.299" -> "zero point two nine nine".
    public func spell(_ number: String) -> String {
        if let chinese { return chinese.spell(number) }
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var words = spellInteger(Int(parts[0]) ?? 0)
        if parts.count == 2, !parts[1].isEmpty {
            words.append(table.point)
            words += parts[1].compactMap { Int(String($0)) }.map { digitName($0) }
        }
        return words.joined(separator: " ")
    }

    /// Digit by digit: "120" -> "one two zero", "6.5" -> "six point five", "六点五".
    public func spellDigits(_ number: String) -> String {
        digitWords(number).joined(separator: chinese == nil ? " " : "")
    }

    /// A word for each digit and the point: "6.5" -> ["six", "point", "five"], ["六", "点", "五"];
    /// "7" -> ["seven"].
    public func digitWords(_ number: String) -> [String] {
        if let chinese { return chinese.spellDigits(number).map(String.init) }
        return number.map { $0 == "." ? table.point : digitName(Int(String($0)) ?? 0) }
    }

    func spellInteger(_ n: Int) -> [String] {
        if let chinese { return [chinese.spell(String(n))] }
        if n >= 1000 { return String(n).map { digitName(Int(String($0)) ?? 0) } }
        var words: [String] = []
        var rest = n
        if rest >= 100 {
            words += [digitName(rest / 100), table.hundred]
            rest %= 100
            if rest == 0 { return words }
        }
        if rest >= 20 {
            words.append(name(in: table.tens, for: rest / 10 * 10))
            if rest % 10 > 0 { words.append(digitName(rest % 10)) }
        } else if rest >= 10 {
            words.append(name(in: table.teens, for: rest))
        } else {
            words.append(digitName(rest))
        }
        return words
    }

    func digitName(_ d: Int) -> String {
        if let chinese { return chinese.spellDigits(String(d)) }
        return name(in: table.digits, for: d)
    }

    private func name(in map: [String: Int], for value: Int) -> String {
        map.first(where: { $0.value == value })?.key ?? String(value)
    }
}
