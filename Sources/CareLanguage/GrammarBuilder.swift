import CareModel

/// What the recognizer listens for in each state of the dialog. A smaller
/// grammar per state is both faster and more accurate.
public enum ListeningContext: String, Sendable, CaseIterable {
    /// Waiting for something new: a reading, a command, an emergency word.
    case reading
    /// A read-back was given: yes / no / cancel / repeat, or a corrected reading.
    case answer
}

/// Generates JSGF grammars from a locale table: the same phrases the parser
/// understands, so speech and typing cannot drift apart.
public struct GrammarBuilder: Sendable {
    public let table: LocaleTable

    public init(table: LocaleTable) { self.table = table }

    public func jsgf(for context: ListeningContext) -> String {
        let top: String
        switch context {
        case .reading: top = "<reading> | <emergency> | <quit>"
        case .answer: top = "<answer> | <reading> | <emergency> | <quit>"
        }
        var lines = [
            "#JSGF V1.0;",
            "grammar carevoice_\(context.rawValue);",
            "public <utterance> = \(top);",
        ]
        lines += rules.map { "<\($0.name)> = \($0.body);" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every word any grammar can produce, for checking against the dictionary.
    public var words: Set<String> {
        var words = Set<String>()
        for rule in rules {
            for token in rule.body.split(whereSeparator: { " |()[];".contains($0) }) where !token.hasPrefix("<") {
                words.insert(String(token))
            }
        }
        return words
    }

    private var rules: [(name: String, body: String)] {
        let n = table.numbers
        let digits = sortedKeys(n.digits)
        let nonzero = digits.filter { n.digits[$0] != 0 }
        let hours = (digits + sortedKeys(n.teens)).filter { (1...12).contains(n.digits[$0] ?? n.teens[$0] ?? 0) }
        let zero = n.zeroAlternatives.first ?? digits[0]
        let t = table.time
        let unitPhrases = GlucoseUnit.allCases.flatMap { table.phrases(for: $0).say }
        let tagPhrases = MealTag.allCases.flatMap { table.phrases(for: $0).say }
        let answerPhrases = Answer.allCases.flatMap { table.answers[$0.rawValue] ?? [] }

        return [
            ("reading", table.reading.templates.map { "(\($0))" }.joined(separator: " | ")),
            ("number", "<integer> [\(n.point) <fraction>] | \(n.point) <fraction>"),
            ("integer", "<below_hundred> | (<nonzero> | \(n.article)) \(n.hundred) [[\(n.conjunction)] <below_hundred>]"
                + " | <nonzero> (<teen> | <tens> [<nonzero>] | \(zero) <digit>)"),
            ("below_hundred", "<digit> | <teen> | <tens> [<nonzero>]"),
            ("fraction", "<digit> [<digit> [<digit>]]"),
            ("digit", alternatives(digits)),
            ("nonzero", alternatives(nonzero)),
            ("teen", alternatives(sortedKeys(n.teens))),
            ("tens", alternatives(sortedKeys(n.tens))),
            ("lead", alternatives(table.reading.lead)),
            ("unit", alternatives(unitPhrases)),
            ("tag", alternatives(tagPhrases)),
            ("time", alternatives(t.now) + " | <day> [<at> <clock>] | <at> <clock> [<day> | <part_of_day>]"
                + " | <part_of_day> [<at> <clock>]"),
            ("day", alternatives(t.today + t.yesterday)),
            ("part_of_day", alternatives(t.partsOfDay.flatMap(\.say))),
            ("at", alternatives(t.at)),
            ("clock", "<hour> [<minute>] [<meridiem> | \(alternatives(t.oclock))] | \(alternatives(t.noon + t.midnight))"),
            ("hour", alternatives(hours)),
            ("minute", "\(zero) <nonzero> | <teen> | <tens> [<nonzero>]"),
            ("meridiem", alternatives(t.am.say + t.pm.say)),
            ("answer", alternatives(answerPhrases)),
            ("emergency", alternatives(table.emergency)),
            ("quit", alternatives(table.commands["quit"] ?? [])),
        ]
    }

    private func alternatives(_ phrases: [String]) -> String {
        var seen = Set<String>()
        return phrases.filter { seen.insert($0).inserted }.map { phrase in
            phrase.contains(" ") ? "(\(phrase))" : phrase
        }.joined(separator: " | ")
    }

    private func sortedKeys(_ map: [String: Int]) -> [String] {
        map.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
    }
}
