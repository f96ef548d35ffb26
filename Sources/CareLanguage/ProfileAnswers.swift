import CareModel
import Foundation

/// What a date of birth answer turned out to be.
public enum DateAnswer: Sendable, Equatable {
    /// A day as said; whether it exists and is plausible is checked separately (ProfileLimits).
    case day(CalendarDay)
    /// Written with numbers only, day and month could be either way round ("04/03/1948").
    case ambiguous
    case unreadable
}

/// Reads answers to the profile questions from what was said or typed, with the words of one
/// locale table. Pure: no clock, no I/O.
public struct ProfileAnswerParser: Sendable {
    public let table: LocaleTable
    let numbers: NumberWords
    private let words: LocaleTable.ProfileWords

    public init(table: LocaleTable) {
        self.table = table
        self.numbers = NumberWords(table.numbers)
        self.words = table.profile
    }

    /// The tokens that carry meaning: fillers ("I am", "my", "the", "身高") dropped, the longest
    /// first where they overlap.
    func content(_ text: String) -> [String] {
        var tokens = Tokenizer.tokens(text)[...]
        var kept: [String] = []
        while let first = tokens.first {
            if let filler = words.fillers.longestPrefix(of: tokens) {
                tokens = tokens.dropFirst(filler)
            } else {
                kept.append(first)
                tokens = tokens.dropFirst()
            }
        }
        return kept
    }

    // MARK: Choices

    /// The choice whose spoken or written form is the whole answer ("type two diabetes").
    public func choice<T: RawRepresentable & CaseIterable>(_ text: String, in choices: [String: LocaleTable.Choice],
                                                          as type: T.Type) -> T? where T.RawValue == String {
        let said = content(text).joined(separator: " ")
        let raw = Tokenizer.tokens(text).joined(separator: " ")
        guard !said.isEmpty || !raw.isEmpty else { return nil }
        for value in T.allCases {
            guard let choice = choices[value.rawValue] else { continue }
            for phrase in choice.say + (choice.write ?? []) {
                let form = Tokenizer.tokens(phrase).joined(separator: " ")
                // Written forms such as "中文" are not split into words: compare the text too.
                if !form.isEmpty && (form == said || form == raw) { return value }
                if phrase == text.trimmingCharacters(in: .whitespaces) { return value }
            }
        }
        return nil
    }

    public func glucoseUnit(_ text: String) -> GlucoseUnit? {
        let said = Tokenizer.tokens(text).joined(separator: " ")
        for unit in GlucoseUnit.allCases {
            let phrases = table.phrases(for: unit)
            for phrase in phrases.say + phrases.write + [phrases.speak, phrases.symbol]
            where Tokenizer.tokens(phrase).joined(separator: " ") == said {
                return unit
            }
        }
        return nil
    }

    // MARK: Dates

    /// "March 4 1948", "the fourth of March nineteen forty-eight", "4 March 1948", "1948-03-04".
    public func dateOfBirth(_ text: String) -> DateAnswer {
        let tokens = content(text)
        if let marked = markedDate(tokens) { return marked }
        if tokens.count == 1 {
            let token = tokens[0]
            let parts = token.split(separator: "-")
            if parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) {
                return .day(CalendarDay(year: y, month: m, day: d))
            }
            if token.contains("/") || token.split(separator: ".").count == 3 { return .ambiguous }
        }
        guard let monthIndex = tokens.firstIndex(where: { month($0) != nil }), let month = month(tokens[monthIndex]) else {
            return tokens.contains(where: { $0.contains("/") }) ? .ambiguous : .unreadable
        }
        let rest = Array(tokens[..<monthIndex] + tokens[(monthIndex + 1)...])
            .filter { !words.ordinalSuffixes.contains($0) }
        // The day and the year, in either order. A day may be read more than one way ("twenty
        // two thousand four" is the 20th, then 2004): the reading that leaves a year wins.
        for (day, used) in dayReadings(rest[...]) {
            if let (year, yearUsed) = self.year(rest[used...]), used + yearUsed == rest.count {
                return .day(CalendarDay(year: year, month: month, day: day))
            }
        }
        if let (year, used) = self.year(rest[...]) {
            for (day, dayUsed) in dayReadings(rest[used...]) where used + dayUsed == rest.count {
                return .day(CalendarDay(year: year, month: month, day: day))
            }
        }
        return .unreadable
    }

    /// A date with a word after each part, year first: 1948年3月4日, 一九四八年三月四号.
    func markedDate(_ tokens: [String]) -> DateAnswer? {
        let markers = words.dateMarkers
        guard let y = tokens.firstIndex(where: markers.year.contains),
              let m = tokens[y...].firstIndex(where: markers.month.contains) else { return nil }
        let d = tokens[m...].firstIndex(where: markers.day.contains) ?? tokens.endIndex
        guard d >= tokens.count - 1 else { return .unreadable }
        let yearTokens = tokens[..<y]
        // A year is said digit by digit (一九四八) or written (1948).
        let year = yearTokens.count == 1 ? Int(yearTokens.first!)
            : numbers.chinese?.number(yearTokens.joined()).flatMap { $0.count == 4 ? Int($0) : nil }
        guard let year, let (month, monthUsed) = number(tokens[(y + 1)..<m]), monthUsed == m - y - 1,
              let (day, dayUsed) = number(tokens[(m + 1)..<d]), dayUsed == d - m - 1 else { return .unreadable }
        return .day(CalendarDay(year: year, month: month, day: day))
    }

    /// A whole number: digits or words.
    private func number(_ tokens: ArraySlice<String>) -> (Int, Int)? {
        if tokens.count == 1, let value = Int(tokens.first!) { return (value, 1) }
        return numbers.parseIntegerWords(tokens)
    }

    /// Every way the start of `tokens` reads as a day of the month, longest first.
    func dayReadings(_ tokens: ArraySlice<String>) -> [(Int, Int)] {
        guard let longest = dayOfMonth(tokens) else { return [] }
        var readings = [longest]
        if longest.1 == 2, let first = tokens.first, let tens = table.numbers.tens[first] { readings.append((tens, 1)) }
        return readings
    }

    func month(_ token: String) -> Int? {
        if let i = words.months.firstIndex(of: token) { return i + 1 }
        if let i = words.monthAbbreviations.firstIndex(of: token) { return i + 1 }
        return nil
    }

    /// 1-31: "4", "fourth", "twenty first", "twenty one".
    func dayOfMonth(_ tokens: ArraySlice<String>) -> (Int, Int)? {
        guard let first = tokens.first else { return nil }
        if let n = Int(first) { return (1...31).contains(n) ? (n, 1) : nil }
        if let n = words.ordinals[first] { return (n, 1) }
        if let tens = table.numbers.tens[first], tens <= 30 {
            let next = tokens.dropFirst().first
            if let next, let unit = words.ordinals[next], unit < 10 { return (tens + unit, 2) }
            if let next, let unit = table.numbers.digits[next], unit > 0 { return (tens + unit, 2) }
            return (tens, 1)
        }
        if let (n, used) = numbers.parseBelowHundred(tokens), (1...31).contains(n) { return (n, used) }
        return nil
    }

    /// A year: "1948", "nineteen forty eight", "nineteen oh five", "nineteen hundred and five",
    /// "two thousand five", "twenty ten", "one thousand nine hundred forty eight".
    func year(_ tokens: ArraySlice<String>) -> (Int, Int)? {
        guard let first = tokens.first else { return nil }
        if first.count == 4, let n = Int(first) { return (n, 1) }
        var i = tokens.startIndex
        func peek(_ k: Int = 0) -> String? { i + k < tokens.endIndex ? tokens[i + k] : nil }
        // "<digit> thousand [rest]"
        if let thousands = table.numbers.digits[first], thousands > 0, peek(1) == words.thousand {
            i += 2
            if peek() == table.numbers.conjunction { i += 1 }
            var rest = 0
            if i < tokens.endIndex, let (value, used) = numbers.parseIntegerWords(tokens[i...]) {
                rest = value
                i += used
            }
            return (thousands * 1000 + rest, i - tokens.startIndex)
        }
        // "<century> <two digits>": nineteen forty eight, twenty ten.
        guard let century = table.numbers.teens[first] ?? table.numbers.tens[first], (10...20).contains(century) else {
            return nil
        }
        i += 1
        if peek() == table.numbers.hundred {
            i += 1
            if peek() == table.numbers.conjunction { i += 1 }
            var rest = 0
            if i < tokens.endIndex, let (value, used) = numbers.parseBelowHundred(tokens[i...]) {
                rest = value
                i += used
            }
            return (century * 100 + rest, i - tokens.startIndex)
        }
        if let zero = peek(), table.numbers.zeroAlternatives.contains(zero) || table.numbers.digits[zero] == 0,
           let digit = peek(1).flatMap({ table.numbers.digits[$0] }) {
            return (century * 100 + digit, i + 2 - tokens.startIndex)
        }
        guard i < tokens.endIndex, let (value, used) = numbers.parseBelowHundred(tokens[i...]), value >= 10 else { return nil }
        return (century * 100 + value, i + used - tokens.startIndex)
    }

    // MARK: Body measures

    /// A height in centimetres: "170 cm", "one hundred seventy centimetres", "1.70 m", "5 feet 7",
    /// "five foot seven inches", "5'7\"". A bare number is read in `units`.
    public func height(_ text: String, units: BodyUnits) -> Double? {
        // 5'7" is feet and inches; the apostrophe of "I'm" is not.
        let marked = text.replacingOccurrences(of: #"(\d)\s*'"#, with: "$1 ft ", options: .regularExpression)
            .replacingOccurrences(of: #"(\d)\s*""#, with: "$1 in ", options: .regularExpression)
        let tokens = content(marked)
        guard let (first, used) = numbers.parse(tokens[...]), let value = Double(first) else { return nil }
        var rest = Array(tokens[used...])
        func unit(_ key: String) -> Bool { Self.take(words.lengthUnits[key], from: &rest) }
        if unit("cm") { return rest.isEmpty ? value : nil }
        if unit("m") {
            // 一米七 (1 m 7) is 1.7 m, 一米七五 1.75 m: the digits after the metre are its decimals.
            if let (decimals, used) = numbers.parse(rest[...]), used == rest.count, decimals.allSatisfy(\.isDigit),
               value == value.rounded(), let metres = Double("\(Int(value)).\(decimals)") {
                return metres * 100
            }
            return rest.isEmpty ? value * 100 : nil
        }
        let saidFeet = unit("ft")
        if rest.first == table.numbers.conjunction { rest.removeFirst() }
        if saidFeet || (units == .imperial && !rest.isEmpty) {
            var inches = 0.0
            if let (second, used) = numbers.parse(rest[...]), let n = Double(second) {
                inches = n
                rest.removeFirst(used)
                _ = unit("in")
            }
            return rest.isEmpty && inches < 12 ? BodyMeasure.centimetres(feet: value, inches: inches) : nil
        }
        if unit("in") { return rest.isEmpty ? value * BodyMeasure.centimetresPerInch : nil }
        guard rest.isEmpty else { return nil }
        // A bare number: the person's own units, or what the size makes plain (1.7 is metres).
        switch units {
        case .metric: return value < 3 ? value * 100 : value
        case .imperial: return value < 9 ? BodyMeasure.centimetres(feet: value, inches: 0) : value * BodyMeasure.centimetresPerInch
        }
    }

    /// Takes a unit's words ("kilos", "公斤") off the start of `tokens`; whether they were there.
    private static func take(_ unit: LocaleTable.SpokenAndWritten?, from tokens: inout [String]) -> Bool {
        guard let unit, let used = (unit.say + unit.write).longestPrefix(of: tokens) else { return false }
        tokens.removeFirst(used)
        return true
    }

    /// A weight in kilograms: "70 kg", "seventy kilos", "154 pounds", "11 stone 4", "一百四十斤".
    /// A bare number is read in `units`.
    public func weight(_ text: String, units: BodyUnits) -> Double? {
        let tokens = content(text)
        guard let (first, used) = numbers.parse(tokens[...]), let value = Double(first) else { return nil }
        var rest = Array(tokens[used...])
        func unit(_ key: String) -> Bool { Self.take(words.weightUnits[key], from: &rest) }
        if unit("kg") { return rest.isEmpty ? value : nil }
        if unit("lb") { return rest.isEmpty ? BodyMeasure.kilograms(pounds: value) : nil }
        if unit("jin") { return rest.isEmpty ? value * BodyMeasure.kilogramsPerJin : nil }
        if unit("st") {
            if rest.first == table.numbers.conjunction { rest.removeFirst() }
            var pounds = 0.0
            if let (second, used) = numbers.parse(rest[...]), let n = Double(second) {
                pounds = n
                rest.removeFirst(used)
                _ = unit("lb")
            }
            return rest.isEmpty && pounds < 14 ? BodyMeasure.kilograms(pounds: value * BodyMeasure.poundsPerStone + pounds) : nil
        }
        guard rest.isEmpty else { return nil }
        return units == .metric ? value : BodyMeasure.kilograms(pounds: value)
    }

    // MARK: Country and phone

    /// An ISO code from a country's name in this language, a common other name ("England",
    /// "USA"), or the code itself. `codes` are the countries that may be answered.
    public func country(_ text: String, codes: [String]) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.count == 2, codes.contains(trimmed.uppercased()) { return trimmed.uppercased() }
        let said = Self.folded(Tokenizer.tokens(text))
        guard !said.isEmpty else { return nil }
        var names: [(tokens: [String], code: String)] = words.countryAliases.map { (Self.folded(Tokenizer.tokens($0.key)), $0.value) }
        let locale = Locale(identifier: table.id)
        for code in codes {
            if let name = locale.localizedString(forRegionCode: code) {
                names.append((Self.folded(Tokenizer.tokens(name)), code))
            }
        }
        // The longest name found anywhere in the answer: "I live in the United Kingdom".
        var best: (length: Int, code: String)?
        for (tokens, code) in names where !tokens.isEmpty && tokens.count <= said.count {
            for start in 0...(said.count - tokens.count) where Array(said[start..<(start + tokens.count)]) == tokens {
                if tokens.count > (best?.length ?? 0) { best = (tokens.count, code) }
            }
        }
        return best?.code
    }

    /// Lower case without accents, so "cote d'ivoire" finds "Côte d’Ivoire".
    static func folded(_ tokens: [String]) -> [String] {
        tokens.map { $0.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
            .replacingOccurrences(of: "’", with: "'") }
    }

    /// A phone number from digits typed or said one by one ("six oh four, five five five...",
    /// "plus one 604"). Typed numbers are kept as typed. nil when there are no digits.
    public func phoneNumber(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || " +()-.".contains($0)) }) {
            return trimmed
        }
        var digits = ""
        for token in Tokenizer.tokens(text) {
            if token == table.phoneDigits.plus, digits.isEmpty { digits = "+"; continue }
            if let d = table.numbers.digits[token] { digits += String(d); continue }
            if table.numbers.zeroAlternatives.contains(token) { digits += "0"; continue }
            if token.allSatisfy(\.isDigit) { digits += token; continue }
            return nil
        }
        return digits.filter(\.isDigit).isEmpty ? nil : digits
    }

    // MARK: Moving through the questions

    public enum Navigation: Sendable, Equatable { case back, skip }

    public func navigation(_ text: String) -> Navigation? {
        let said = Tokenizer.tokens(text)
        if words.back.containsPhrase(said) { return .back }
        if words.skip.containsPhrase(said) { return .skip }
        return nil
    }
}
