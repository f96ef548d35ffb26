import CareModel
import Foundation

/// "Add a note", "note: porridge with banana", "I had rice and fish for dinner".
public enum NoteRequest: Sendable, Equatable {
    /// The note itself is asked for next.
    case start
    /// The note, as it was said or typed (without "note:").
    case text(String)
}

/// Changing what is on record, by voice or typed.
public enum EditRequest: Sendable, Equatable {
    case deleteLastReading
    case deleteLastNote
    /// "Change the last reading to 7.1": the new value (its unit, tag and time if said).
    case changeLastReading(GlucoseDraft)
    case undo
}

/// A note understood: its words, when it happened and its tags. Pure; the time is resolved
/// against the clock by whoever saves it.
public struct NoteDraft: Sendable, Equatable {
    /// The note as given: what the editable line shows, and gives back when unchanged.
    public var text: String
    /// The text without the time said at its start or end and without "tags ...".
    public var body: String
    public var title: String
    /// Preset tag keys or the person's own tags, each once.
    public var tags: [String]
    public var time: TimeExpression?
}

extension UtteranceParser {
    /// "add a note" alone, or followed by the note; with `narrations`, also a sentence that is a
    /// note as it stands ("I had ...").
    func noteRequest(_ text: String, narrations: Bool) -> NoteRequest? {
        let words = NoteWords(text)
        let diary = table.diary
        if let used = words.longestPrefix(diary.add) {
            let rest = words.text(from: used)
            return rest.isEmpty ? .start : .text(rest)
        }
        if narrations, words.longestPrefix(diary.narrations) != nil { return .text(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return nil
    }

    /// Whether `text` is one of `phrases`, word for word (case and punctuation aside).
    public func matches(_ text: String, _ phrases: [String]) -> Bool {
        let said = Tokenizer.tokens(text)
        return phrases.containsPhrase(said)
    }

    /// "delete the last reading", "change the last reading to seven point one", "undo".
    func editRequest(_ tokens: [String]) -> EditRequest? {
        let e = table.edits
        if e.undo.containsPhrase(tokens) { return .undo }
        if e.deleteLastReading.containsPhrase(tokens) { return .deleteLastReading }
        if e.deleteLastNote.containsPhrase(tokens) { return .deleteLastNote }
        let leads = e.changeLastReading.splitPhrases.sorted { $0.count > $1.count }
        if let lead = leads.first(where: { tokens.starts(with: $0) && tokens.count > $0.count }),
           let draft = parseReading(Array(tokens.dropFirst(lead.count))) {
            return .changeLastReading(draft)
        }
        return nil
    }

    /// Understands a note's text: a time said at its start or end ("yesterday at dinner", "at 7
    /// pm", "on 2026-05-01 at 12:30") gives its time and leaves the body; "tags a and b" at the
    /// end gives tags; a meal or another preset named in it is a tag too. nil when no words are left.
    public func note(_ text: String) -> NoteDraft? {
        let given = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var words = NoteWords(given)
        var tags: [String] = []

        // "..., tags exercise and stress" at the end, perhaps more than once ("tags a, tags b").
        while let (start, used) = words.lastOccurrence(of: table.diary.tagWords),
              let named = tagNames(Array(words.normalized[(start + used)...])) {
            tags.insert(contentsOf: named, at: 0)
            words.removeSubrange(start..<words.count)
        }

        // The time: spans at either end, taken off one by one.
        var time = TimeExpression()
        var hasTime = false
        while let span = timeSpan(in: words, at: 0) ?? timeSpanEnding(in: words) {
            merge(span.time, into: &time)
            hasTime = true
            words.removeSubrange(span.range)
            if let meal = span.meal { tags.append(meal) }
        }

        // Presets named in the words: their own names, and meals by any of theirs.
        let said = words.normalized.flatMap { $0.split(separator: " ").map(String.init) }
        for tag in table.diary.tags {
            let names = ([tag.speak] + (tag.hour != nil ? tag.say : [])).splitPhrases
            if names.contains(where: { name in said.indices.contains { said[$0...].starts(with: name) } }) { tags.append(tag.key) }
        }
        let body = words.originalText.trimmingCharacters(in: NoteWords.joiners)
        guard !body.isEmpty else { return nil }
        return NoteDraft(text: given, body: body, title: DiaryEntry.title(fromBody: body), tags: DiaryEntry.normalizedTags(tags),
                         time: hasTime ? time : nil)
    }

    /// "tag breakfast", "tags exercise and stress", "tag three": tags to add to a note waiting
    /// for its yes; nil when the text is not that.
    public func tagAddition(_ text: String) -> [String]? {
        let tokens = Tokenizer.tokens(text)
        let leads = table.diary.tagWords.splitPhrases
        guard let lead = leads.filter({ tokens.starts(with: $0) }).max(by: { $0.count < $1.count }) else { return nil }
        return tagNames(Array(tokens.dropFirst(lead.count)))
    }

    /// Tag names after "tags": presets by name, synonym or number (in digits or words), the rest
    /// as the person's own; separated by "and" (words that are all presets are one tag each).
    /// nil when there are none.
    private func tagNames(_ tokens: [String]) -> [String]? {
        let and = table.lists.and.trimmingCharacters(in: .whitespaces)
        var groups: [[String]] = [[]]
        for token in tokens where !token.isEmpty {
            if token == and { groups.append([]) } else { groups[groups.count - 1].append(token) }
        }
        let names = groups.filter { !$0.isEmpty }.flatMap { group -> [String] in
            // "three" is tag 3; several words that are all tags are several tags ("lunch stress").
            if let (number, used) = numbers.parse(group[...]), used == group.count, let n = Int(number) { return [String(n)] }
            let presets = Set(table.diary.tags.flatMap { [$0.key] + $0.say })
            if group.count > 1, group.allSatisfy(presets.contains) { return group }
            return [Tokenizer.joined(group)]
        }
        let tags = names.compactMap(table.diary.canonicalTag)
        return tags.isEmpty ? nil : tags
    }

    /// A time and nothing else ("yesterday at dinner", "at 7 pm", "2026-05-01 12:30"), as for
    /// `carevoice diary add --when`; nil when any word is not part of it.
    public func time(_ text: String) -> TimeExpression? {
        let words = NoteWords(text)
        guard !words.isEmpty, let span = timeSpan(in: words, at: 0), span.range.upperBound == words.count else { return nil }
        return span.time
    }

    /// A time said in a note, the words it takes, and the meal it named ("at dinner").
    private struct TimeSpan {
        var time = TimeExpression()
        var range: Range<Int>
        var meal: String?
    }

    /// A time expression that starts at word `index`, and where it ends.
    private func timeSpan(in words: NoteWords, at index: Int) -> TimeSpan? {
        var time = TimeExpression()
        var meal: String?
        var i = index
        var found = false
        let tokens = words.normalized
        while i < tokens.count {
            let rest = tokens[i...]
            if let day = Self.isoDate(tokens[i]) {
                time.day = day; i += 1; found = true; continue
            }
            if let (meaning, used) = phrases.longestMatch(rest), meaning == .on, i + used < tokens.count,
               let day = Self.isoDate(tokens[i + used]) {
                time.day = day; i += used + 1; found = true; continue
            }
            if let (clock, used) = parseClock(rest, requireMarker: true) {
                time.hour = clock.hour; time.minute = clock.minute
                if let m = clock.meridiem { time.meridiem = m }
                i += used; found = true; continue
            }
            // "at dinner": the meal's hour.
            if let (meaning, used) = phrases.longestMatch(rest), meaning == .at, i + used < tokens.count,
               let mealTag = table.diary.tags.first(where: { $0.hour != nil && $0.say.longestPrefix(of: tokens[(i + used)...]) != nil }),
               let mealUsed = mealTag.say.longestPrefix(of: tokens[(i + used)...]) {
                time.defaultHour = mealTag.hour; meal = mealTag.key
                i += used + mealUsed; found = true; continue
            }
            if let (meaning, used) = phrases.longestMatch(rest) {
                switch meaning {
                case .today: time.day = .today
                case .yesterday: time.day = .yesterday
                case .partOfDay(let day, let hour, let meridiem):
                    if time.day == nil { time.day = day }
                    time.defaultHour = hour
                    if time.meridiem == nil { time.meridiem = meridiem }
                default:
                    return found ? TimeSpan(time: time, range: index..<i, meal: meal) : nil
                }
                i += used; found = true; continue
            }
            break
        }
        return found ? TimeSpan(time: time, range: index..<i, meal: meal) : nil
    }

    /// The longest time expression that ends the words.
    private func timeSpanEnding(in words: NoteWords) -> TimeSpan? {
        for start in words.normalized.indices {
            if let span = timeSpan(in: words, at: start), span.range.upperBound == words.count { return span }
        }
        return nil
    }

    private func merge(_ part: TimeExpression, into time: inout TimeExpression) {
        if let day = part.day { time.day = day }
        if let hour = part.hour { time.hour = hour; time.minute = part.minute }
        if let meridiem = part.meridiem { time.meridiem = meridiem }
        if let hour = part.defaultHour { time.defaultHour = hour }
    }
}

/// A text as words, each with its tokenized form beside it, so phrases are matched on tokens
/// while what is kept is what the person wrote (case, punctuation, line breaks).
struct NoteWords {
    private(set) var original: [Substring]
    private(set) var normalized: [String]

    init(_ text: String) {
        original = []
        normalized = []
        for word in text.split(whereSeparator: \.isWhitespace) {
            for unit in Self.units(word) {
                // A word that is only punctuation ("-", ":", "，") stays with the text but matches nothing.
                original.append(unit)
                normalized.append(Tokenizer.tokens(String(unit)).joined(separator: " "))
            }
        }
        // Keep line breaks: the original is cut out of the text, not re-joined, where possible.
        source = text
    }

    private var source: String
    var count: Int { original.count }

    /// A word as the tokenizer sees it: each Chinese character on its own (Chinese has no
    /// spaces), other characters together ("porridge,", "：").
    private static func units(_ word: Substring) -> [Substring] {
        var units: [Substring] = []
        var start = word.startIndex
        for index in word.indices where Tokenizer.isChinese(word[index]) {
            if start < index { units.append(word[start..<index]) }
            units.append(word[index...index])
            start = word.index(after: index)
        }
        if start < word.endIndex { units.append(word[start...]) }
        return units
    }
    var isEmpty: Bool { original.isEmpty }

    /// How many words the longest of `phrases` at the start takes.
    func longestPrefix(_ phrases: [String]) -> Int? {
        phrases.longestPrefix(of: normalized)
    }

    /// Where the last of `phrases` stands, and how many words it takes.
    func lastOccurrence(of phrases: [String]) -> (Int, Int)? {
        let keys = phrases.splitPhrases.filter { !$0.isEmpty }
        for start in normalized.indices.reversed() {
            guard let key = keys.first(where: { normalized[start...].starts(with: $0) }) else { continue }
            // A longer phrase that ends where this one does wins: "添加标签" rather than its "标签".
            let end = start + key.count
            let longer = keys.filter { $0.count > key.count && end - $0.count >= 0 && normalized[(end - $0.count)...].starts(with: $0) }
            let chosen = longer.max { $0.count < $1.count } ?? key
            return (end - chosen.count, chosen.count)
        }
        return nil
    }

    mutating func removeSubrange(_ range: Range<Int>) {
        original.removeSubrange(range)
        normalized.removeSubrange(range)
    }

    /// The text from word `index` on, as written, without the colon or comma that joined it to
    /// what came before ("日记：早饭…").
    func text(from index: Int) -> String {
        guard index < original.count else { return "" }
        return String(source[original[index].startIndex...]).trimmingCharacters(in: Self.joiners)
    }

    /// What may stand between a lead and a note, or end a body's words: kept out of both.
    static let joiners = CharacterSet(charactersIn: ",;:-，；：、").union(.whitespacesAndNewlines)

    /// The words left, as written: the stretch of the source from the first to the last, so line
    /// breaks and spacing inside it survive (words removed are only ever at the ends).
    var originalText: String {
        guard let first = original.first, let last = original.last else { return "" }
        return String(source[first.startIndex..<last.endIndex])
    }
}
