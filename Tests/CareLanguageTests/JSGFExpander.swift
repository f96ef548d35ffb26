import Foundation

/// Reads back the JSGF text that GrammarBuilder gives the recognizer, and lists or samples
/// the sentences it allows, so tests can hold the parser to every one of them.
/// Understands what GrammarBuilder writes: rules, `|`, `( )`, `[ ]`, `<rule>` and words.
struct JSGFExpander {
    indirect enum Node {
        case word(String)
        case rule(String)
        case sequence([Node])
        case alternatives([Node])
        case optional(Node)
        /// `<rule>+`: once or more.
        case repeated(Node)
    }

    private(set) var rules: [String: Node] = [:]

    init(_ jsgf: String) {
        for line in jsgf.split(separator: "\n") {
            var text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasSuffix(";"), let equals = text.range(of: " = ") else { continue }
            text.removeLast()
            let head = text[..<equals.lowerBound].replacingOccurrences(of: "public ", with: "")
            guard head.hasPrefix("<"), head.hasSuffix(">") else { continue }
            var parser = Parser(tokens: Self.tokens(String(text[equals.upperBound...])))
            rules[String(head.dropFirst().dropLast())] = parser.alternatives()
        }
    }

    /// Every sentence of a rule. Only for rules with few sentences (the numbers, say).
    func all(_ rule: String) -> [String] {
        expand(.rule(rule)).map { $0.joined(separator: " ") }
    }

    /// A random sentence of a rule: each alternative and each optional part equally likely.
    func sample<G: RandomNumberGenerator>(_ rule: String, using generator: inout G) -> String {
        var words: [String] = []
        walk(.rule(rule), into: &words, using: &generator)
        return words.joined(separator: " ")
    }

    private func expand(_ node: Node) -> [[String]] {
        switch node {
        case .word(let w): return [[w]]
        case .rule(let name): return expand(rules[name]!)
        case .alternatives(let options): return options.flatMap(expand)
        case .optional(let inner): return [[]] + expand(inner)
        case .repeated: preconditionFailure("a repeated rule has no end: sample it instead")
        case .sequence(let parts):
            return parts.reduce([[]]) { prefixes, part in
                let tails = expand(part)
                return prefixes.flatMap { p in tails.map { p + $0 } }
            }
        }
    }

    private func walk<G: RandomNumberGenerator>(_ node: Node, into words: inout [String], using g: inout G) {
        switch node {
        case .word(let w): words.append(w)
        case .rule(let name): walk(rules[name]!, into: &words, using: &g)
        case .alternatives(let options): walk(options.randomElement(using: &g)!, into: &words, using: &g)
        case .optional(let inner): if Bool.random(using: &g) { walk(inner, into: &words, using: &g) }
        case .repeated(let inner): for _ in 0..<Int.random(in: 1...12, using: &g) { walk(inner, into: &words, using: &g) }
        case .sequence(let parts): for part in parts { walk(part, into: &words, using: &g) }
        }
    }

    private static func tokens(_ body: String) -> [String] {
        var out: [String] = []
        var current = ""
        for c in body {
            if "()[]|".contains(c) || c == " " {
                if !current.isEmpty { out.append(current); current = "" }
                if c != " " { out.append(String(c)) }
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// alternatives := sequence ('|' sequence)* ; sequence := item* ; item := word | <rule> | (alt) | [alt]
    private struct Parser {
        var tokens: [String]
        var index = 0

        mutating func alternatives() -> Node {
            var options = [sequence()]
            while index < tokens.count, tokens[index] == "|" {
                index += 1
                options.append(sequence())
            }
            return options.count == 1 ? options[0] : .alternatives(options)
        }

        mutating func sequence() -> Node {
            var parts: [Node] = []
            while index < tokens.count, ![")", "]", "|"].contains(tokens[index]) {
                let token = tokens[index]
                index += 1
                switch token {
                case "(":
                    parts.append(alternatives()); index += 1   // ")"
                case "[":
                    parts.append(.optional(alternatives())); index += 1   // "]"
                default:
                    if token.hasPrefix("<") && token.hasSuffix(">+") {
                        parts.append(.repeated(.rule(String(token.dropFirst().dropLast(2)))))
                    } else {
                        parts.append(token.hasPrefix("<") ? .rule(String(token.dropFirst().dropLast())) : .word(token))
                    }
                }
            }
            return parts.count == 1 ? parts[0] : .sequence(parts)
        }
    }
}
