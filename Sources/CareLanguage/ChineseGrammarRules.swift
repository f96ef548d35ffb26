import CareModel

/// The grammar rules whose shape is Chinese rather than English: numbers built with 十 and 百
/// (三十八, 一百零五, 一百二), clocks (七点半, 七点十五分, 七点整), years said digit by digit
/// (一九四八年), dates with 年 and 号, heights as 一米七. They replace the English rules of the
/// same name when the table's number system is Chinese; their words come from the table and
/// `ChineseNumerals`, and each number character is a word of its own, as the tokenizer reads it.
extension GrammarBuilder {
    var isChinese: Bool { table.numbers.system == .chinese }

    /// `value` as said, one character per word: 38 -> "三 十 八".
    private func said(_ value: Int) -> String {
        NumberWords(table.numbers).spell(String(value)).map(String.init).joined(separator: " ")
    }

    /// The other words for a digit ("两" for 2 before 百, "幺" for 1 in a phone number).
    private func otherWords(for digit: Int) -> [String] {
        table.numbers.digits.filter { $0.value == digit && $0.key != said(digit) }.keys.sorted()
    }

    var chineseNumberRules: [(name: String, body: String)] {
        let n = table.numbers, t = table.time
        let ten = said(10)
        let mmolCeiling = Int(GlucoseUnit.mmolPerL.plausibleRange.upperBound)
        let hundredsCeiling = Int(GlucoseUnit.mgPerDL.plausibleRange.upperBound) / 100
        return [
            ("digit", alternatives((0...9).map(said))),
            ("nonzero", alternatives((1...9).map(said))),
            ("teen", "\(ten) [<nonzero>]"),
            ("tens", "(\(alternatives((2...9).map(said)))) \(ten)"),
            ("below_hundred", "<nonzero> | <teen> | <tens> [<nonzero>]"),
            ("hundreds_digit", alternatives((1...hundredsCeiling).map(said) + otherWords(for: 2))),
            ("integer", "<below_hundred> | <hundreds>"),
            // 一百零五, 一百二十五, and 一百二 (120) as it is often said.
            ("hundreds", "<hundreds_digit> \(n.hundred) [\(n.conjunction) <nonzero> | <nonzero> [\(ten) [<nonzero>]]]"),
            ("mg_integer", alternatives((Int(GlucoseUnit.mgPerDL.plausibleRange.lowerBound)..<20).map(said)) + " | <tens> [<nonzero>] | <hundreds>"),
            ("whole_mmol", alternatives((1...mmolCeiling).map(said) + otherWords(for: 2))),
            ("decimal_whole", alternatives((1..<mmolCeiling).map(said) + otherWords(for: 2))),
            ("hour", alternatives((1...12).map(said) + otherWords(for: 2))),
            ("minute", "\(n.conjunction) <nonzero> | <teen> | (\(alternatives((2...5).map(said)))) \(ten) [<nonzero>]"),
            ("clock", "<hour> (\(alternatives(t.oclock))) [\(alternatives(t.half + t.exactly)) | <minute> [\(alternatives(t.minutes))]]"
                + " | \(alternatives(t.noon + t.midnight))"),
        ]
    }

    var chineseQuestionRules: [(name: String, body: String)] {
        let n = table.numbers, p = table.profile, markers = p.dateMarkers
        func unit(_ key: String, in units: [String: LocaleTable.SpokenAndWritten]) -> String { "(" + alternatives(units[key]?.say ?? []) + ")" }
        let metre = unit("m", in: p.lengthUnits)
        return [
            ("phone_digit", alternatives(["<digit>"] + otherWords(for: 1))),
            ("year", alternatives((ProfileLimits.earliestBirthYear...latestBirthYear).map { year in
                String(year).compactMap(\.wholeNumberValue).map(said).joined(separator: " ")
            })),
            (Self.ruleName(.dateOfBirth), "<year> (\(alternatives(markers.year))) <month> <day_of_month> (\(alternatives(markers.day)))"),
            // 一米七, 一米七五, 一点七五米, 一百七十厘米, 五英尺七英寸.
            (Self.ruleName(.height), "<height_cm> [\(unit("cm", in: p.lengthUnits))]"
                + " | <metres_whole> \(metre) <nonzero> [<digit>] | <metres_whole> \(n.point) <digit> [<digit>] \(metre)"
                + " | <feet_count> \(unit("ft", in: p.lengthUnits)) [<inches_count> [\(unit("in", in: p.lengthUnits))]]"),
        ]
    }

    /// Whole numbers as said in Chinese: 170 一百七十, and 一百七 as it is often said.
    func chineseSpokenNumbers(_ range: ClosedRange<Int>) -> [String] {
        range.flatMap { value -> [String] in
            let plain = said(value)
            guard value > 100, value % 10 == 0, value % 100 != 0, plain.hasSuffix(" " + said(10)) else { return [plain] }
            return [plain, String(plain.dropLast(said(10).count + 1))]
        }
    }

    /// `base` with each rule of `overrides` in place of the one of the same name.
    static func replacing(_ base: [(name: String, body: String)], with overrides: [(name: String, body: String)]) -> [(name: String, body: String)] {
        let replaced = Dictionary(overrides, uniquingKeysWith: { a, _ in a })
        let names = Set(base.map(\.name))
        return base.map { ($0.name, replaced[$0.name] ?? $0.body) } + overrides.filter { !names.contains($0.name) }
    }
}
