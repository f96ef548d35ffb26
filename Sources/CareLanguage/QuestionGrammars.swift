import CareModel
import Foundation

/// The grammars of the onboarding questions, from the same locale words the answer parser reads.
extension GrammarBuilder {
    static func ruleName(_ question: ProfileQuestion) -> String { "q_\(question.rawValue)" }

    var questionRules: [(name: String, body: String)] {
        let n = table.numbers
        let p = table.profile
        let words = NumberWords(n)
        let zero = n.zeroAlternatives.first ?? "zero"
        func spoken(_ choices: [String: LocaleTable.Choice]) -> String {
            alternatives(choices.keys.sorted().flatMap { choices[$0]!.say })
        }
        /// A unit's spoken forms, grouped so they bind as one item in a sequence.
        func unitWords(_ key: String, in units: [String: LocaleTable.SpokenAndWritten]) -> String {
            "(" + alternatives(units[key]?.say ?? []) + ")"
        }
        // 1-31 as ordinals ("fourth", "twenty first") and as numbers ("four").
        let ordinalByValue = Dictionary(p.ordinals.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
        let days = (1...31).flatMap { day -> [String] in
            let ordinal = ordinalByValue[day] ?? (ordinalByValue[day % 10].map { "\(words.spellInteger(day / 10 * 10).joined(separator: " ")) \($0)" })
            return [ordinal, words.spell(String(day))].compactMap { $0 }
        }
        // Numbers bounded by what an answer can be (ProfileLimits), as with glucose values: an
        // implausible path in the grammar is one a mishearing can take ("twenty forty eight").
        let cm = ProfileLimits.heightCm, kg = ProfileLimits.weightKg
        let pounds = Int(BodyMeasure.pounds(kg.lowerBound).rounded(.up))...Int(BodyMeasure.pounds(kg.upperBound))
        let stones = Int(BodyMeasure.pounds(kg.lowerBound) / BodyMeasure.poundsPerStone)...Int(BodyMeasure.pounds(kg.upperBound) / BodyMeasure.poundsPerStone)
        let years = ProfileLimits.earliestBirthYear...latestBirthYear
        // 斤 where the language says it; nothing where it does not.
        let jin = p.weightUnits["jin"]?.say ?? []
        let jins = Int((kg.lowerBound / BodyMeasure.kilogramsPerJin).rounded(.up))...Int(kg.upperBound / BodyMeasure.kilogramsPerJin)
        // Sorted: the countries and aliases come unordered, and one grammar's text should not
        // change from one run to the next.
        let countryNames = pronounceable((countries.compactMap { Locale(identifier: table.id).localizedString(forRegionCode: $0)?.lowercased() }
            + Array(p.countryAliases.keys)).sorted())

        let rules: [(name: String, body: String)] = [
            ("back", alternatives(p.back)),
            ("skip", alternatives(p.skip)),
            (Self.ruleName(.language), spoken(p.languages)),
            (Self.ruleName(.glucoseUnit), "<unit>"),
            (Self.ruleName(.bodyUnits), spoken(p.bodyUnits)),
            (Self.ruleName(.sex), spoken(p.sexes)),
            (Self.ruleName(.diabetesType), spoken(p.diabetesTypes)),
            (Self.ruleName(.reminder), spoken(p.reminders)),
            (Self.ruleName(.dateOfBirth), "[the] <day_of_month> [of] <month> <year> | <month> [the] <day_of_month> <year>"),
            ("day_of_month", alternatives(days)),
            ("month", alternatives(p.months)),
            ("year", alternatives(years.flatMap { spokenYear($0, words) })),
            (Self.ruleName(.height), "<height_cm> [\(unitWords("cm", in: p.lengthUnits))]"
                + " | <metres_whole> \(n.point) <digit> [<digit>] \(unitWords("m", in: p.lengthUnits))"
                + " | <feet_count> \(unitWords("ft", in: p.lengthUnits)) [[\(n.conjunction)] <inches_count> [\(unitWords("in", in: p.lengthUnits))]]"),
            ("height_cm", alternatives(spokenNumbers(Int(cm.lowerBound)...Int(cm.upperBound), words))),
            ("metres_whole", alternatives((Int(cm.lowerBound / 100)...Int(cm.upperBound / 100)).map { words.spell(String($0)) })),
            ("feet_count", alternatives((3...7).map { words.spell(String($0)) })),
            ("inches_count", alternatives((1...11).map { words.spell(String($0)) })),
            (Self.ruleName(.weight), "<weight_kg> [\(n.point) <digit>] [\(unitWords("kg", in: p.weightUnits))]"
                + " | <weight_lb> [\(unitWords("lb", in: p.weightUnits))]"
                + " | <weight_st> \(unitWords("st", in: p.weightUnits)) [[\(n.conjunction)] <pounds_count> [\(unitWords("lb", in: p.weightUnits))]]"
                + (jin.isEmpty ? "" : " | <weight_jin> \(unitWords("jin", in: p.weightUnits))")),
            ("weight_kg", alternatives(spokenNumbers(Int(kg.lowerBound)...Int(kg.upperBound), words))),
            ("weight_jin", jin.isEmpty ? "" : alternatives(spokenNumbers(jins, words))),
            ("weight_lb", alternatives(spokenNumbers(pounds, words))),
            ("weight_st", alternatives(stones.map { words.spell(String($0)) })),
            ("pounds_count", alternatives((1...13).map { words.spell(String($0)) })),
            (Self.ruleName(.country), alternatives(countryNames)),
            // The optional "plus" keeps the digit loop apart: a loop that starts an alternative
            // returns, in sphinxbase's finite-state form, to where every alternative starts, and
            // "one two go back" would be heard (GrammarLoopTests).
            (Self.ruleName(.contactPhone), "[\(table.phoneDigits.plus)] <phone_digit>+"),
            ("phone_digit", "<digit> | \(zero)"),
        ]
        return isChinese ? Self.replacing(rules, with: chineseQuestionRules) : rules
    }

    /// Every whole number in `range` as people say it: "seventy", "one hundred seventy", and
    /// "one hundred and seventy".
    func spokenNumbers(_ range: ClosedRange<Int>, _ words: NumberWords) -> [String] {
        if isChinese { return chineseSpokenNumbers(range) }
        return range.flatMap { value -> [String] in
            let plain = words.spell(String(value))
            guard value > 100, value % 100 != 0 else { return [plain] }
            let hundreds = words.spell(String(value / 100 * 100)), rest = words.spell(String(value % 100))
            return [plain, "\(hundreds) \(table.numbers.conjunction) \(rest)"]
        }
    }

    /// A year as people say it: 1948 "nineteen forty eight"; 1905 "nineteen oh five", "nineteen
    /// hundred and five"; 2005 "two thousand five", "two thousand and five", "twenty oh five";
    /// 2010 "twenty ten", "two thousand ten".
    func spokenYear(_ year: Int, _ words: NumberWords) -> [String] {
        let n = table.numbers
        let century = year / 100, rest = year % 100
        let zero = n.zeroAlternatives.first ?? "zero"
        var forms: [String] = []
        let lead = words.spell(String(century))
        switch rest {
        case 0: forms.append("\(lead) \(n.hundred)")
        case 1...9: forms += ["\(lead) \(zero) \(words.spell(String(rest)))", "\(lead) \(n.hundred) \(n.conjunction) \(words.spell(String(rest)))"]
        default: forms.append("\(lead) \(words.spell(String(rest)))")
        }
        if year >= 2000 {
            let thousands = "\(words.spell(String(year / 1000))) \(table.profile.thousand)"
            if rest == 0 && century == 20 { forms = [thousands] } else if century == 20 {
                forms += ["\(thousands) \(words.spell(String(rest)))", "\(thousands) \(n.conjunction) \(words.spell(String(rest)))"]
            }
        }
        return forms
    }

    /// The phrases whose every word the recognizer can say.
    func pronounceable(_ phrases: [String]) -> [String] {
        phrases.map { Tokenizer.tokens($0).joined(separator: " ") }
            .filter { !$0.isEmpty && $0.split(separator: " ").allSatisfy { isPronounceable(String($0)) } }
    }
}
