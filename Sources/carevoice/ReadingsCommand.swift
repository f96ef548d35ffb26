import ArgumentParser
import CareLanguage
import CareModel
import CareStore
import CareTerminal
import Foundation

struct ReadingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "readings", abstract: "List saved glucose readings, newest first.")

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
            let tag = reading.tag.map { ", " + env.table.phrases(for: $0).speak } ?? ""
            Console.line(env.phrasebook.text(.readingLine, [
                "date": ISO8601.localMinutes(reading.takenAt, offset: reading.utcOffsetSeconds),
                "value": reading.level.displayValue(in: shownUnit),
                "unit": env.table.phrases(for: shownUnit).symbol,
                "tag": tag,
            ]))
        }
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
