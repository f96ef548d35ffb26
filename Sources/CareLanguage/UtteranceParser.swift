import CareModel
import Foundation

/// Text -> Intent, for typed lines and recognizer transcripts alike, driven
/// entirely by a locale table.
///
/// Strict on purpose: every word must be one the table knows, so another
/// person's sentence in the room ("I have three cats") is not taken for a reading.
public struct UtteranceParser: Sendable {
    public let table: LocaleTable
    public let numbers: NumberWords
    let phrases: PhraseMatcher<Meaning>
    private let changes: ProfileAnswerParser

    enum Meaning: Sendable, Equatable {
        case unit(GlucoseUnit)
        case tag(MealTag)
        case lead, filler
        case at, on, now, today, yesterday, oclock, noon, midnight
        case meridiem(TimeExpression.Meridiem)
        case partOfDay(TimeExpression.Day, hour: Int, TimeExpression.Meridiem)
        case emergency
    }

    public init(table: LocaleTable) {
        self.table = table
        numbers = NumberWords(table.numbers)
        changes = ProfileAnswerParser(table: table)
        var entries: [(String, Meaning)] = []
        for unit in GlucoseUnit.allCases {
            let p = table.phrases(for: unit)
            entries += (p.say + p.write).map { ($0, .unit(unit)) }
        }
        for tag in MealTag.allCases {
            let p = table.phrases(for: tag)
            entries += (p.say + (p.write ?? [])).map { ($0, .tag(tag)) }
        }
        entries += table.reading.lead.map { ($0, .lead) }
        entries += table.reading.fillers.map { ($0, .filler) }
        let t = table.time
        entries += t.at.map { ($0, .at) } + t.on.map { ($0, .on) } + t.now.map { ($0, .now) }
        entries += t.today.map { ($0, .today) } + t.yesterday.map { ($0, .yesterday) }
        entries += t.oclock.map { ($0, .oclock) } + t.noon.map { ($0, .noon) } + t.midnight.map { ($0, .midnight) }
        entries += (t.am.say + t.am.write).map { ($0, .meridiem(.am)) }
        entries += (t.pm.say + t.pm.write).map { ($0, .meridiem(.pm)) }
        for part in t.partsOfDay {
            let day: TimeExpression.Day = part.day == "yesterday" ? .yesterday : .today
            let meridiem: TimeExpression.Meridiem = part.meridiem == "pm" ? .pm : .am
            entries += part.say.map { ($0, .partOfDay(day, hour: part.hour, meridiem)) }
        }
        entries += table.callsForHelp.map { ($0, .emergency) }
        phrases = PhraseMatcher(entries)
    }

    public func parse(_ text: String) -> Intent {
        let tokens = Tokenizer.tokens(text)
        guard !tokens.isEmpty else { return .unknown }

        // Safety first: an emergency word anywhere wins over everything else.
        if containsEmergency(tokens) { return .emergency }
        for answer in Answer.allCases where (table.answers[answer.rawValue] ?? []).containsPhrase(tokens) {
            return .answer(answer)
        }
        if (table.commands["quit"] ?? []).containsPhrase(tokens) { return .quit }
        if (table.commands["forgetVoice"] ?? []).containsPhrase(tokens) { return .forgetVoice }
        if (table.commands["learnVoice"] ?? []).containsPhrase(tokens) { return .learnVoice }
        if let request = editRequest(tokens) { return .edit(request) }
        // "Note: my sugar was high" is a note, whatever its words; "I had ..." only when it is no reading.
        if let request = noteRequest(text, narrations: false) { return .note(request) }
        if let request = changes.changeRequest(text) { return .change(request) }
        if let request = contactRequest(tokens) { return .contacts(request) }
        if let range = overviewRequest(tokens) { return .overview(range) }
        if let daysAgo = recallRequest(tokens) { return .recall(daysAgo: daysAgo) }
        if let draft = parseReading(tokens) { return .glucose(draft) }
        if let details = parseReadingDetails(tokens) { return .readingDetails(details) }
        if let request = noteRequest(text, narrations: true) { return .note(request) }
        return .unknown
    }

    /// A question from `overview.asks` with one of its periods anywhere in it, or none: "how am
    /// I doing this week", "这周我的血糖怎么样".
    func overviewRequest(_ tokens: [String]) -> ReportRange? {
        let words = table.overview
        let periods = words.periods.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return Self.question(tokens, asks: words.asks, naming: periods, otherwise: words.defaultPeriod).flatMap(ReportRange.init)
    }

    /// A question from `overview.recall` with today or yesterday anywhere in it, or neither
    /// (today): "what did I record yesterday", "我昨天记录了什么". The number of days ago.
    func recallRequest(_ tokens: [String]) -> Int? {
        let days = [(0, table.time.today), (1, table.time.yesterday)]
        return Self.question(tokens, asks: table.overview.recall, naming: days, otherwise: 0)
    }

    /// The option a question names: the tokens are one of `asks` once one of the `options`
    /// phrases (the longest found, at any place: English says the period last, Chinese mostly
    /// first) is taken out, or `otherwise` when they are one of `asks` as they stand. nil when
    /// they are no such question.
    static func question<Option>(_ tokens: [String], asks: [String], naming options: [(Option, [String])],
                                 otherwise: Option) -> Option? {
        if asks.containsPhrase(tokens) { return otherwise }
        var best: (option: Option, start: Int, length: Int)?
        for (option, phrases) in options {
            for start in tokens.indices {
                if let length = phrases.longestPrefix(of: tokens[start...]), length > (best?.length ?? 0) {
                    best = (option, start, length)
                }
            }
        }
        guard let best else { return nil }
        let rest = tokens[..<best.start] + tokens[(best.start + best.length)...]
        return asks.containsPhrase(rest) ? best.option : nil
    }

    private func containsEmergency(_ tokens: [String]) -> Bool {
        var i = 0
        while i < tokens.count {
            if let (meaning, used) = phrases.longestMatch(tokens[i...]) {
                if meaning == .emergency { return true }
                i += used
            } else {
                i += 1
            }
        }
        return false
    }

    /// Exactly one glucose number plus optional unit, tag and time.
    func parseReading(_ tokens: [String]) -> GlucoseDraft? {
        guard let parts = readingParts(tokens), let number = parts.number else { return nil }
        return GlucoseDraft(number: number, unit: parts.unit, tag: parts.tag, time: parts.time)
    }

    /// A unit, a meal, a time, or some of these, and no number: what is said after a read-back
    /// to complete the reading ("before breakfast", "this morning").
    func parseReadingDetails(_ tokens: [String]) -> ReadingDetails? {
        guard let parts = readingParts(tokens), parts.number == nil,
              parts.unit != nil || parts.tag != nil || parts.time != nil else { return nil }
        return ReadingDetails(unit: parts.unit, tag: parts.tag, time: parts.time)
    }

    /// Scans the words of a reading: at most one number, unit and tag, an optional time, and
    /// words that carry no meaning. Nil when a word is none of these, or one comes twice.
    private func readingParts(_ tokens: [String]) -> (number: String?, unit: GlucoseUnit?, tag: MealTag?, time: TimeExpression?)? {
        var number: String?
        var unit: GlucoseUnit?
        var tag: MealTag?
        var time = TimeExpression()
        var hasTime = false
        var i = 0

        while i < tokens.count {
            let rest = tokens[i...]
            // An ISO date, with or without "on".
            if let date = Self.isoDate(tokens[i]) {
                time.day = date; hasTime = true; i += 1; continue
            }
            // A clock time: "7:30", "9 pm", "at seven thirty", "at 9".
            if let (clock, used) = parseClock(rest, requireMarker: true) {
                time.hour = clock.hour; time.minute = clock.minute
                if let m = clock.meridiem { time.meridiem = m }
                hasTime = true; i += used; continue
            }
            if let (meaning, used) = phrases.longestMatch(rest) {
                switch meaning {
                case .unit(let u):
                    guard unit == nil else { return nil }
                    unit = u
                case .tag(let t):
                    guard tag == nil else { return nil }
                    tag = t
                case .lead, .filler:
                    break
                case .on:
                    guard i + 1 < tokens.count, Self.isoDate(tokens[i + 1]) != nil else { return nil }
                case .now:
                    time.isNow = true; hasTime = true
                case .today:
                    time.day = .today; hasTime = true
                case .yesterday:
                    time.day = .yesterday; hasTime = true
                case .partOfDay(let day, let hour, let meridiem):
                    if time.day == nil { time.day = day }
                    time.defaultHour = hour
                    if time.meridiem == nil { time.meridiem = meridiem }
                    hasTime = true
                case .meridiem(let m):
                    // "in the morning" after a clock time.
                    guard time.hour != nil else { return nil }
                    time.meridiem = m
                case .at, .oclock, .noon, .midnight, .emergency:
                    return nil
                }
                i += used
                continue
            }
            if let (n, used) = numbers.parse(rest) {
                guard number == nil else { return nil }
                number = n
                i += used
                continue
            }
            return nil
        }
        return (number, unit, tag, hasTime ? time : nil)
    }

    struct Clock: Equatable { var hour: Int; var minute: Int?; var meridiem: TimeExpression.Meridiem? }

    /// A clock time at the start of `tokens`. With `requireMarker`, a bare number
    /// counts only after "at" or when followed by am/pm/o'clock, so it is not
    /// mistaken for the glucose value.
    func parseClock(_ tokens: ArraySlice<String>, requireMarker: Bool) -> (Clock, Int)? {
        var i = tokens.startIndex
        var marked = false
        if let (meaning, used) = phrases.longestMatch(tokens), meaning == .at {
            marked = true
            i += used
        }
        guard i < tokens.endIndex else { return nil }
        var clock: Clock
        if let (meaning, used) = phrases.longestMatch(tokens[i...]), meaning == .noon || meaning == .midnight {
            return (Clock(hour: meaning == .noon ? 12 : 0, minute: 0, meridiem: nil), i + used - tokens.startIndex)
        }
        let token = tokens[i]
        if numbers.chinese != nil, !token.contains(":") {
            guard let (clock, used) = chineseClock(tokens[i...]) else { return nil }
            return (clock, i + used - tokens.startIndex)
        }
        if let colon = token.firstIndex(of: ":") {
            guard let h = Int(token[..<colon]), let m = Int(token[token.index(after: colon)...]) else { return nil }
            clock = Clock(hour: h, minute: m)
            marked = true
            i += 1
        } else if let h = Int(token), (0...23).contains(h) {
            clock = Clock(hour: h)
            i += 1
        } else if let h = numbers.table.digits[token] ?? numbers.table.teens[token], (1...12).contains(h) {
            clock = Clock(hour: h)
            i += 1
            // Minutes in words: "thirty", "forty five", "oh five", "fifteen".
            if i < tokens.endIndex {
                let next = tokens[i]
                if numbers.table.zeroAlternatives.contains(next), i + 1 < tokens.endIndex,
                   let d = numbers.table.digits[tokens[i + 1]] {
                    clock.minute = d; i += 2
                } else if numbers.table.teens[next] != nil || numbers.table.tens[next] != nil,
                          let (m, used) = numbers.parseBelowHundred(tokens[i...]), m < 60 {
                    clock.minute = m; i += used
                }
            }
        } else {
            return nil
        }
        if i < tokens.endIndex, let (meaning, used) = phrases.longestMatch(tokens[i...]) {
            switch meaning {
            case .meridiem(let m): clock.meridiem = m; marked = true; i += used
            case .oclock: marked = true; i += used
            default: break
            }
        }
        if requireMarker && !marked { return nil }
        return (clock, i - tokens.startIndex)
    }

    /// A clock time said the Chinese way: the hour, 点, then 半, 整, minutes with 分, or minutes
    /// with 十 (七点十五); 七点, 七点半, 七点零五分, 下午三点 (the part of the day comes first and is
    /// its own phrase). 六点五 is not a clock: it is the reading 6.5, as 点 is also the decimal point.
    func chineseClock(_ tokens: ArraySlice<String>) -> (Clock, Int)? {
        guard let (hour, hourUsed) = integer(tokens), (0...24).contains(hour) else { return nil }
        var i = tokens.startIndex + hourUsed
        guard i < tokens.endIndex, let (meaning, used) = phrases.longestMatch(tokens[i...]), meaning == .oclock else { return nil }
        i += used
        var clock = Clock(hour: hour % 24, minute: nil, meridiem: nil)
        let time = table.time
        guard i < tokens.endIndex else { return (clock, i - tokens.startIndex) }
        if time.half.contains(tokens[i]) {
            clock.minute = 30; i += 1
        } else if time.exactly.contains(tokens[i]) {
            clock.minute = 0; i += 1
        } else if let (minute, minuteUsed) = minutes(tokens[i...]) {
            let end = i + minuteUsed
            if end < tokens.endIndex, time.minutes.contains(tokens[end]) {
                clock.minute = minute; i = end + 1
            } else if tokens[i..<end].contains(where: { $0.count == 1 && numbers.chinese?.units[Character($0)] != nil }) {
                clock.minute = minute; i = end
            } else {
                return nil
            }
        }
        return (clock, i - tokens.startIndex)
    }

    /// The minutes of a Chinese clock: 十五, 30, or 零五 (a zero before a single digit).
    private func minutes(_ tokens: ArraySlice<String>) -> (Int, Int)? {
        if let first = tokens.first, numbers.table.digits[first] == 0, tokens.count > 1,
           let (minute, used) = integer(tokens.dropFirst()), minute < 10 {
            return (minute, used + 1)
        }
        guard let (minute, used) = integer(tokens), minute < 60 else { return nil }
        return (minute, used)
    }

    /// A whole number at the start: typed digits ("7") or words.
    private func integer(_ tokens: ArraySlice<String>) -> (Int, Int)? {
        if let first = tokens.first, let value = Int(first) { return (value, 1) }
        return numbers.parseIntegerWords(tokens)
    }

    static func isoDate(_ token: String) -> TimeExpression.Day? {
        let parts = token.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        return .date(year: y, month: m, day: d)
    }
}

/// Longest-match lookup of multi-word phrases.
struct PhraseMatcher<Value: Sendable>: Sendable {
    private var entries: [[String]: Value] = [:]
    private var longest = 1

    init(_ pairs: [(String, Value)]) {
        for (phrase, value) in pairs {
            let key = Tokenizer.tokens(phrase)
            guard !key.isEmpty, entries[key] == nil else { continue }
            entries[key] = value
            longest = max(longest, key.count)
        }
    }

    func longestMatch(_ tokens: ArraySlice<String>) -> (Value, Int)? {
        for length in stride(from: min(longest, tokens.count), through: 1, by: -1) {
            let key = Array(tokens.prefix(length))
            if let value = entries[key] { return (value, length) }
        }
        return nil
    }
}
