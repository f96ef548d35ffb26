import CareModel
import Foundation

/// What the recognizer listens for in each state of the dialog. A smaller
/// grammar per state is both faster and more accurate.
public enum ListeningContext: Sendable, Hashable, CaseIterable, RawRepresentable {
    /// Waiting for something new: a reading, a command, an emergency word, or an answer with
    /// nothing to answer (told so).
    case reading
    /// A read-back was given: yes / no / cancel / repeat, a corrected reading, or the reading's
    /// unit, meal or time (`GrammarBuilder.hearsMealAfterReadBack`).
    case answer
    /// A plain yes or no (the onboarding summary, the offer of help), with back and repeat.
    case confirmation
    /// One onboarding question: its answers, yes and no, back, repeat and skip.
    case question(ProfileQuestion)
    /// Who a new emergency contact is to the person: daughter, neighbour, doctor...
    case contactRelation
    /// A note read back: yes, no, "read it back", tags to add, "attach a picture".
    case noteAnswer
    /// Free words (a diary note): the locale's language model, not a grammar.
    case dictation

    public static var allCases: [ListeningContext] { grammarContexts + [.dictation] }

    /// The contexts heard with a grammar of ours (all but dictation).
    public static var grammarContexts: [ListeningContext] {
        [.reading, .answer, .confirmation, .contactRelation, .noteAnswer] + ProfileQuestion.allCases.map { .question($0) }
    }

    /// The grammar's name: "reading", "answer", "confirmation", "question-height".
    public var rawValue: String {
        switch self {
        case .reading: return "reading"
        case .answer: return "answer"
        case .confirmation: return "confirmation"
        case .question(let q): return "question-\(q.rawValue)"
        case .contactRelation: return "contact-relation"
        case .noteAnswer: return "note-answer"
        case .dictation: return "dictation"
        }
    }

    public init?(rawValue: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = match
    }
}

/// Generates JSGF grammars from a locale table: the same phrases the parser
/// understands, so speech and typing cannot drift apart.
public struct GrammarBuilder: Sendable {
    public let table: LocaleTable
    /// Countries that may be named (ISO codes), for the country question.
    public let countries: [String]
    /// Whether the recognizer can say a word: phrases with other words are left out of the
    /// grammar (they can still be typed).
    public let isPronounceable: @Sendable (String) -> Bool

    /// The latest year a date of birth may name (this year).
    public let latestBirthYear: Int

    /// Whether a reading's unit, meal or time may be said alone after its read-back: only where
    /// readings are answered at the first pause (`RecognizerFactory.readingsAnsweredAtOnce`), as
    /// answers are heard a little worse beside them (`locales/en.yaml`, `mealAfterReadBack`).
    public let hearsMealAfterReadBack: Bool

    public init(table: LocaleTable, countries: [String] = [], latestBirthYear: Int = CalendarDay.today().year,
                hearsMealAfterReadBack: Bool = true,
                isPronounceable: @escaping @Sendable (String) -> Bool = { _ in true }) {
        self.table = table
        self.countries = countries
        self.latestBirthYear = latestBirthYear
        self.hearsMealAfterReadBack = hearsMealAfterReadBack
        self.isPronounceable = isPronounceable
    }

    public func jsgf(for context: ListeningContext) -> String {
        jsgf(for: [context])[0]
    }

    /// Several grammars at once: their shared rules are written out only once (a start-up cost).
    public func jsgf(for contexts: [ListeningContext]) -> [String] {
        let shared = sharedRules
        return contexts.map { jsgf(for: $0, sharedRules: shared) }
    }

    /// Every rule the grammars share, written out.
    private var sharedRules: String { allRules.map { "<\($0.name)> = \($0.body);" }.joined(separator: "\n") + "\n" }

    /// The grammar of `context` with a loop of other words as one more way to say something
    /// (`OtherWordsCheck` in CareSpeech): `<other_word> <other_word>*`. A loop that starts an
    /// alternative (`<other_word>+`) leads, in sphinxbase's finite-state form, back into every
    /// other alternative: "children two hundred and eight after breakfast" was one sentence.
    public func jsgf(for context: ListeningContext, besideOtherWords otherWords: [String]) -> String {
        [
            "#JSGF V1.0;",
            "grammar carevoice_\(context.rawValue)_beside_other_words;",
            "public <utterance> = \(topRule(for: context)) | <other_words>;",
            "<other_words> = <other_word> <other_word>*;",
            "<other_word> = \(otherWords.joined(separator: " | "));",
            sharedRules,
        ].joined(separator: "\n")
    }

    /// The words `context`'s grammar can produce.
    public func words(for context: ListeningContext) -> Set<String> {
        let bodies = Dictionary(allRules.map { ($0.name, $0.body) }, uniquingKeysWith: { first, _ in first })
        var words = Set<String>(), visited = Set<String>(), pending = [topRule(for: context)]
        while let body = pending.popLast() {
            for token in body.split(whereSeparator: { " |()[]*+;".contains($0) }) {
                guard token.hasPrefix("<") else { words.insert(String(token)); continue }
                let name = String(token.dropFirst().dropLast())
                if visited.insert(name).inserted, let referenced = bodies[name] { pending.append(referenced) }
            }
        }
        return words
    }

    private func jsgf(for context: ListeningContext, sharedRules: String) -> String {
        [
            "#JSGF V1.0;",
            "grammar carevoice_\(context.rawValue);",
            "public <utterance> = \(topRule(for: context));",
            sharedRules,
        ].joined(separator: "\n")
    }

    /// The alternatives of `context`'s public rule.
    private func topRule(for context: ListeningContext) -> String {
        let top: String
        switch context {
        // Answers too: a reading turned away ("I didn't catch that") is often answered "yes", as
        // if it had been read back, and without answers here that yes was forced onto a number
        // ("eighty eight") and read back as a reading to save. The 123 yes, no, cancel and
        // repeat answers of ec41, dv91 and lv92 (models/README.md) heard here, at 10 dB pink
        // noise: as an answer 0 -> 92, as a reading or command 53 -> 14, as a call for help
        // 27 -> 10; clean: 0 -> 97 (6 more below the floor), 18 -> 5, 9 -> 3. Readings heard
        // right, with `bench recognition --grammar-file` (at 10 dB: ec41 93 -> 93, dv91 119 ->
        // 119; clean: ec41 84 -> 84, Chinese `--seed 33` 74 -> 74), and unrelated sentences
        // turned away (62 -> 64 of 80, 14 -> 15 of 20; 66 -> 66, 12 -> 12) lost none.
        case .reading: top = "<reading> | <answer> | <change> | <contacts> | <overview> | <recall> | <note> | <edit> | <forget_voice> | <learn_voice> | <emergency> | <quit>"
        case .answer: top = "<answer> | <correction> | " + (hearsMealAfterReadBack ? "\(Self.readingDetails) | " : "") + "<emergency> | <quit>"
        case .confirmation: top = "<answer> | <back> | <emergency> | <quit>"
        // Only relations, skip, back and help: with the answers and goodbye in it, "my son" was
        // heard as "stop" and "my brother" as "pardon". "Skip", then "no", still leaves.
        case .contactRelation: top = "[<relation_lead>] <relation> | <back> | <skip> | <emergency>"
        // Digits are short words: one-word commands ("again", "pardon", "bye", "yep") took 4 in
        // 10 of real speakers' single digits. Here commands have two words or more (goodbye
        // stands for quit) and there are no answers: 37 % -> 43 % on FSDD digits, 60 % with the
        // grammar's own insertion penalty (ListeningContext.searchOptions).
        case .question(.contactPhone):
            let navigation = [table.profile.back, table.answers[Answer.repeat.rawValue] ?? [],
                              ProfileQuestion.contactPhone.isOptional ? table.profile.skip : []].flatMap { $0 }.filter { Tokenizer.tokens($0).count > 1 }
            let quit = (table.commands["quit"] ?? []).max { $0.count < $1.count }.map { [$0] } ?? []
            top = "<q_contactPhone> | \(alternatives(navigation + quit)) | <emergency>"
        case .question(let q):
            let navigation = q.isOptional ? "<back> | <skip>" : "<back>"
            top = (q == .contactName ? "" : "<\(Self.ruleName(q))> | ") + "<answer> | \(navigation) | <emergency> | <quit>"
        case .noteAnswer: top = "<answer> | <note_tags> | <attach_picture> | <emergency> | <quit>"
        // The recognizer hears dictation with the locale's language model (RecognizerFactory);
        // as a grammar it is what may be said instead of a note.
        case .dictation: top = "<answer> | <emergency> | <quit>"
        }
        return top
    }

    /// What may be said alone after a read-back to complete the reading (`hearsMealAfterReadBack`):
    /// its unit, its meal, when it was taken, or some of these.
    static let readingDetails = "<unit> [<tag>] | <tag> [<when_taken>] | <when_taken> [<tag>]"

    /// Every word any grammar can produce, for checking against the dictionary.
    public var words: Set<String> {
        var words = Set<String>()
        for rule in allRules {
            for token in rule.body.split(whereSeparator: { " |()[];".contains($0) }) where !token.hasPrefix("<") {
                words.insert(String(token))
            }
        }
        return words
    }

    /// Every rule the grammars share. A rule the locale has no words for (Chinese says no "a.m.")
    /// is left out: JSGF has no empty rule, and no rule of that locale refers to it.
    private var allRules: [(name: String, body: String)] {
        (rules + questionRules).filter { !$0.body.allSatisfy(\.isWhitespace) }
    }

    private var rules: [(name: String, body: String)] {
        let n = table.numbers
        let words = NumberWords(n)
        let digits = sortedKeys(n.digits)
        let nonzero = digits.filter { n.digits[$0] != 0 }
        let hours = (digits + sortedKeys(n.teens)).filter { (1...12).contains(n.digits[$0] ?? n.teens[$0] ?? 0) }
        let minuteTens = sortedKeys(n.tens).filter { n.tens[$0]! < 60 }
        let zero = n.zeroAlternatives.first ?? digits[0]
        let t = table.time
        let unitPhrases = GlucoseUnit.allCases.flatMap { table.phrases(for: $0).say }
        let tagPhrases = MealTag.allCases.flatMap { table.phrases(for: $0).say }
        let answerPhrases = Answer.allCases.flatMap { table.answers[$0.rawValue] ?? [] }
        let c = table.changes
        let spokenFields = ChangeField.allCases.compactMap { field -> String? in
            guard let names = c.fields[field.rawValue]?.say, !names.isEmpty else { return nil }
            // A field with a question is named alone ("change my weight") and its question asked
            // next, in that question's grammar: every value in this one slowed decoding 2.5-fold.
            if field.question != nil { return "(\(alternatives(names)))" }
            guard field == .voice else { return nil }
            return "(\(alternatives(names))) (\(alternatives(c.joins))) <voice_choice>"
        }

        // Spoken numbers are bounded by what a reading can be (CareModel's plausible ranges):
        // a decimal is a mmol/L value with the one decimal a meter shows; a whole number goes
        // up to the highest mg/dL hundred. Fewer paths, fewer insertions ("nine" heard as
        // "nine three"). Typed text is not limited this way: the parser takes any number.
        let mmolCeiling = Int(GlucoseUnit.mmolPerL.plausibleRange.upperBound)
        let hundredsCeiling = Int(GlucoseUnit.mgPerDL.plausibleRange.upperBound) / 100
        let wholeMmol = (1...mmolCeiling).map { words.spell(String($0)) }
        let decimalWhole = (1..<mmolCeiling).map { words.spell(String($0)) }
        let hundredsDigits = nonzero.filter { n.digits[$0]! <= hundredsCeiling }
        let mgTeens = (Int(GlucoseUnit.mgPerDL.plausibleRange.lowerBound)..<20).map { words.spell(String($0)) }

        let rules: [(name: String, body: String)] = [
            ("reading", table.reading.templates.map { "(\($0))" }.joined(separator: " | ")),
            ("correction", table.reading.correctionTemplates.map { "(\($0))" }.joined(separator: " | ")),
            ("number", "<integer> | <decimal>"),
            ("decimal", "<decimal_whole> \(n.point) <digit>"),
            // A number said with its unit is one that unit allows: "fifty millimoles per litre"
            // cannot be heard, so "fifteen millimoles per litre" is, where it was said.
            ("measure", "<number> | (<whole_mmol> | <decimal>) <mmol_unit> | <mg_integer> <mg_unit>"),
            ("integer", "<below_hundred> | <hundreds>"),
            ("hundreds", "(<hundreds_digit> | \(n.article)) \(n.hundred) [[\(n.conjunction)] <below_hundred>]"),
            ("mg_integer", (mgTeens.isEmpty ? "" : alternatives(mgTeens) + " | ") + "<tens> [<nonzero>] | <hundreds>"),
            ("below_hundred", "<nonzero> | <teen> | <tens> [<nonzero>]"),
            ("whole_mmol", alternatives(wholeMmol)),
            ("decimal_whole", alternatives(decimalWhole)),
            ("hundreds_digit", alternatives(hundredsDigits)),
            ("digit", alternatives(digits)),
            ("nonzero", alternatives(nonzero)),
            ("teen", alternatives(sortedKeys(n.teens))),
            ("tens", alternatives(sortedKeys(n.tens))),
            ("lead", alternatives(table.reading.lead)),
            ("unit", alternatives(unitPhrases)),
            ("mmol_unit", alternatives(table.phrases(for: .mmolPerL).say)),
            ("mg_unit", alternatives(table.phrases(for: .mgPerDL).say)),
            ("tag", alternatives(tagPhrases)),
            // When a reading was taken, said alone after its read-back ("this morning",
            // "yesterday"; `readingDetails`). Not "today", which took a lone "help" (en-029's, 3 of
            // 5), nor a clock time, which took answers ("yes" as "at noon") and was itself heard
            // wrong ("yesterday at nine" as "yesterday at two oh nine"). README, "How well it hears".
            ("when_taken", "<part_of_day> | \(alternatives(t.yesterday))"),
            ("day", alternatives(t.today + t.yesterday)),
            ("part_of_day", alternatives(t.partsOfDay.flatMap(\.say))),
            ("at", alternatives(t.at)),
            ("clock", "<hour> [<minute>] [<meridiem> | \(alternatives(t.oclock))] | \(alternatives(t.noon + t.midnight))"),
            ("hour", alternatives(hours)),
            ("minute", "\(zero) <nonzero> | <teen> | \(alternatives(minuteTens)) [<nonzero>]"),
            ("meridiem", alternatives(t.am.say + t.pm.say)),
            ("answer", alternatives(answerPhrases)),
            // "change my weight to seventy kilos": a spoken field takes its question's answers.
            ("change", "<change_lead> <change_field> | \(alternatives(SettingCommand.allCases.flatMap { c.commands[$0.rawValue] ?? [] }))"),
            ("change_lead", alternatives(c.leads)),
            ("change_field", spokenFields.joined(separator: " | ")),
            ("voice_choice", alternatives(VoiceChoice.allCases.flatMap { c.voices[$0.rawValue]?.say ?? [] })),
            ("contacts", alternatives(table.contacts.add + table.contacts.list)
                + " | (\(alternatives(table.contacts.remove))) (\(alternatives(table.contacts.number))) <nonzero>"),
            // Typed relations may be anything; said ones are these (all in the dictionary, as
            // every word of these rules must be: LocaleTableTests checks).
            ("relation", alternatives(table.contacts.relations)),
            ("relation_lead", alternatives(table.contacts.relationLeads)),
            ("overview", "(\(alternatives(table.overview.asks))) [\(alternatives(table.overview.periods.keys.sorted().flatMap { table.overview.periods[$0]! }))]"),
            ("recall", "(\(alternatives(table.overview.recall))) [<day>]"),
            // A note's words are free: "add a note" is heard here, the note itself by dictation.
            ("note", alternatives(table.diary.add.filter { Tokenizer.tokens($0).count > 1 })),
            // Tags said to a note: presets by name or number ("tag three").
            ("note_tags", "(\(alternatives(table.diary.tagWords))) <diary_tag> [\(table.lists.and.trimmingCharacters(in: .whitespaces)) <diary_tag>]"),
            ("diary_tag", alternatives(table.diary.tags.flatMap(\.say)
                + (1...table.diary.tags.count).map { words.spell(String($0)) })),
            ("attach_picture", alternatives(table.diary.attachPicture)),
            ("edit", alternatives(table.edits.deleteLastReading + table.edits.deleteLastNote + table.edits.undo)
                + " | (\(alternatives(table.edits.changeLastReading))) <measure> [<tag>]"),
            ("emergency", alternatives(table.spokenCallsForHelp)),
            ("quit", alternatives(table.commands["quit"] ?? [])),
            ("forget_voice", alternatives(table.commands["forgetVoice"] ?? [])),
            ("learn_voice", alternatives(table.commands["learnVoice"] ?? [])),
        ]
        return isChinese ? Self.replacing(rules, with: chineseNumberRules) : rules
    }

    /// Phrases as alternatives of a rule, without those the locale understands only typed.
    func alternatives(_ phrases: [String]) -> String {
        var seen = Set(table.speech.unsaid)
        return phrases.filter { seen.insert($0).inserted }.map { phrase in
            phrase.contains(" ") ? "(\(phrase))" : phrase
        }.joined(separator: " | ")
    }

    func sortedKeys(_ map: [String: Int]) -> [String] {
        map.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
    }
}
