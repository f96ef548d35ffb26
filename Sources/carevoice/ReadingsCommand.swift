import ArgumentParser
import CareLanguage
import CareModel
import CareStore
import CareTerminal
import Foundation

struct ReadingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readings", abstract: "Your glucose readings: list them, change one, delete one.",
        subcommands: [ReadingsList.self, ReadingsEdit.self, ReadingsDelete.self], defaultSubcommand: ReadingsList.self)
}

struct ReadingsList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List saved glucose readings, newest first.")

    @OptionGroup var common: CommonOptions
    @Flag(help: "Print a JSON array instead of lines.") var json = false
    @Option(help: "Show at most this many.") var limit: Int?
    @Option(help: "Unit to show: mmol/L or mg/dL.") var unit: String?

    func run() throws {
        let env = try AppEnvironment.make(common)
        let store = try openStore(env)
        let readings = try store.readings(limit: limit)
        if json {
            print(try ReadingsJSON.encode(readings))
            return
        }
        guard !readings.isEmpty else { return Console.line(env.phrasebook.text(.noReadings)) }
        let shownUnit = try unit.flatMap(GlucoseUnit.parse) ?? store.settings().glucoseUnit
        for reading in readings {
            let tag = reading.tag.map { env.table.lists.clause + env.table.phrases(for: $0).speak } ?? ""
            Console.line(env.phrasebook.text(.readingLine, [
                "id": reading.id.map(String.init) ?? "",
                "date": ISO8601.localMinutes(reading.takenAt, offset: reading.utcOffsetSeconds),
                "value": reading.level.displayValue(in: shownUnit),
                "unit": env.table.phrases(for: shownUnit).symbol,
                "tag": tag,
            ]))
        }
    }
}

/// Changes a reading's value, unit, tag or time: read back, done after a yes unless --yes.
struct ReadingsEdit: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a reading (read back; changed after your yes).")

    @OptionGroup var common: CommonOptions
    @Argument(help: "The reading's number, as carevoice readings shows it.") var id: Int64
    @Option(help: "The new value, with or without its unit (\"7.1\", \"128 mg/dL\").") var value: String?
    @Option(help: "The new tag: before breakfast, after lunch, fasting, bedtime...") var tag: String?
    @Option(help: "When it was taken: \"yesterday at 9 pm\", \"2026-05-01 07:30\".") var when: String?
    @Flag(help: "Change it without asking.") var yes = false

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let store = try openStore(env)
        let reading = try existingReading(id, in: store, env: env)
        let unit = try store.settings().glucoseUnit
        let parser = UtteranceParser(table: env.table)
        var changed = reading
        if let value {
            // The value is understood as a typed reading is: the unit said, or inferred from the number.
            guard case .glucose(let draft) = parser.parse(value), draft.tag == nil, draft.time == nil else {
                throw CommandFailure(book.text(.readingBadValue, ["value": value]))
            }
            switch GlucoseUnitInference.interpret(draft.value, explicit: draft.unit, preferred: unit) {
            case .level(let level, _): changed.level = level
            case .implausible: throw CommandFailure(book.message(.implausible, ["value": Message(draft.number)]).display)
            }
        }
        if let tag {
            guard case .glucose(let draft) = parser.parse("0 " + tag), let meal = draft.tag else {
                throw CommandFailure(book.text(.readingBadTag, ["tag": tag]))
            }
            changed.tag = meal
        }
        if let when { (changed.takenAt, changed.utcOffsetSeconds) = try resolveWhen(when, env: env) }
        guard changed != reading else { return Console.line(book.text(.editNotChanged)) }
        let before = book.readingSummary(reading, unit: unit), after = book.readingSummary(changed, unit: unit)
        guard confirmed(book.text(.readingAskChange, ["id": String(id), "old": before, "new": after]), unlessYes: yes, env: env) else {
            return Console.line(book.text(.editNotChanged))
        }
        _ = try store.apply(.changeReading(changed, was: reading))
        Console.line(book.text(.readingChanged, ["id": String(id), "reading": after]))
    }
}

struct ReadingsDelete: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a reading (read back; deleted after your yes).")

    @OptionGroup var common: CommonOptions
    @Argument(help: "The reading's number, as carevoice readings shows it.") var id: Int64
    @Flag(help: "Delete it without asking.") var yes = false

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let store = try openStore(env)
        let reading = try existingReading(id, in: store, env: env)
        let summary = book.readingSummary(reading, unit: try store.settings().glucoseUnit)
        guard confirmed(book.text(.readingAskDelete, ["id": String(id), "reading": summary]), unlessYes: yes, env: env) else {
            return Console.line(book.text(.editNotChanged))
        }
        _ = try store.apply(.deleteReading(reading))
        Console.line(book.text(.readingDeleted, ["id": String(id), "reading": summary]))
    }
}

/// The reading with this number, or the message that there is none.
func existingReading(_ id: Int64, in store: Store, env: AppEnvironment) throws -> GlucoseReading {
    guard let reading = try store.reading(id: id) else { throw CommandFailure(env.phrasebook.text(.readingNoSuch, ["id": String(id)])) }
    return reading
}

/// True when --yes was given; otherwise the question is shown and a yes typed on the next line
/// of standard input is awaited.
func confirmed(_ question: String, unlessYes yes: Bool, env: AppEnvironment) -> Bool {
    if yes { return true }
    Console.line(question)
    guard let answer = readLine() else { return false }
    return UtteranceParser(table: env.table).parse(answer) == .answer(.yes)
}

/// The moment a --when option names, on this machine's clock, with its UTC offset.
func resolveWhen(_ text: String, env: AppEnvironment, now: Date = Date()) throws -> (Date, Int) {
    let book = env.phrasebook
    guard let time = UtteranceParser(table: env.table).time(text) else { throw CommandFailure(book.text(.whenNotUnderstood, ["when": text])) }
    do {
        let date = try time.resolve(now: now, calendar: book.calendar)
        return (date, book.calendar.timeZone.secondsFromGMT(for: date))
    } catch TimeExpression.ResolutionError.inFuture {
        throw CommandFailure(book.message(.futureTime).display)
    } catch {
        throw CommandFailure(book.text(.whenNotUnderstood, ["when": text]))
    }
}

/// The JSON shape of `carevoice readings --json`, also used by tests and exports.
enum ReadingsJSON {
    struct Item: Encodable {
        var id: Int64?
        var takenAt: String
        var mmolPerL: Double
        var mgPerDL: Double
        var tag: String?
        var source: String

        enum CodingKeys: String, CodingKey { case id, takenAt, mmolPerL, mgPerDL, tag, source }

        init(_ r: GlucoseReading) {
            id = r.id
            takenAt = ISO8601.withOffset(r.takenAt, offset: r.utcOffsetSeconds)
            mmolPerL = r.level.mmolPerL
            mgPerDL = r.level.mgPerDL
            tag = r.tag?.rawValue
            source = r.source.rawValue
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(takenAt, forKey: .takenAt)
            try c.encode(mmolPerL, forKey: .mmolPerL)
            try c.encode(mgPerDL, forKey: .mgPerDL)
            try c.encode(tag, forKey: .tag)  // null when untagged, not missing
            try c.encode(source, forKey: .source)
        }
    }

    static func encode(_ readings: [GlucoseReading]) throws -> String {
        let items = readings.map(Item.init)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(items), as: UTF8.self)
    }
}

/// Times as the person's clock showed them, with the UTC offset of that moment.
enum ISO8601 {
    static func withOffset(_ date: Date, offset: Int) -> String {
        format(date, offset: offset, pattern: "yyyy-MM-dd'T'HH:mm:ssxxx")
    }

    static func localMinutes(_ date: Date, offset: Int) -> String {
        format(date, offset: offset, pattern: "yyyy-MM-dd HH:mm")
    }

    /// One formatter per offset and pattern: making one costs far more than using it, and an
    /// export formats thousands of times.
    private static let cache = FormatterCache()

    private static func format(_ date: Date, offset: Int, pattern: String) -> String {
        cache.formatter(offset: offset, pattern: pattern).string(from: date)
    }

    private final class FormatterCache: @unchecked Sendable {
        private let lock = NSLock()
        private var formatters: [String: DateFormatter] = [:]

        func formatter(offset: Int, pattern: String) -> DateFormatter {
            lock.withLock {
                let key = "\(offset) \(pattern)"
                if let known = formatters[key] { return known }
                let f = DateFormatter()
                f.locale = Locale(identifier: "en_US_POSIX")
                f.timeZone = TimeZone(secondsFromGMT: offset)
                f.dateFormat = pattern
                formatters[key] = f
                return f
            }
        }
    }
}
