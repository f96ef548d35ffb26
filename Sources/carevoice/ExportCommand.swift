import ArgumentParser
import CareLanguage
import CareModel
import CareStore
import CareTerminal
import Foundation

/// Readings for a doctor or a spreadsheet: CSV with a header row, or JSON, times in ISO 8601
/// with the UTC offset where each reading was taken.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write your readings to a CSV or JSON file.")

    @OptionGroup var common: CommonOptions
    @Option(help: "Write a CSV file (header row; one reading a line).") var csv: String?
    @Option(help: "Write a JSON file.") var json: String?
    @Option(help: "Which readings: the last 30d, 2w, 3m, 1y, or all.") var range = "all"

    func validate() throws {
        if csv == nil && json == nil { throw ValidationError("say where to write: --csv FILE and/or --json FILE") }
        if ReportRange(range) == nil { throw ValidationError("--range must look like 30d, 2w, 3m, 1y or all") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let period = ReportRange(range)!
        let now = Date()
        let readings = try openStore(env).readings(in: period.interval(endingAt: now, calendar: .current))
        var written: [(String, Data)] = []
        if let csv { written.append((csv, Data(ReadingsExport.csv(readings).utf8))) }
        if let json { written.append((json, try ReadingsExport.json(readings, range: period, generated: now))) }
        for (path, data) in written {
            do {
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CommandFailure(book.text(.exportFailed, ["path": path, "reason": error.localizedDescription]))
            }
            Console.line(book.text(.exportDone, ["readings": book.count(readings.count, one: .readingOne, many: .readingMany).display, "path": path]))
        }
    }
}

/// The file formats of `carevoice export`. Pure.
enum ReadingsExport {
    static let csvHeader = ["id", "taken_at", "mmol_per_l", "mg_per_dl", "tag", "source"]

    /// Values as a meter shows them (one decimal in mmol/L, whole mg/dL), so that either unit's
    /// column reads back what was said.
    static func csv(_ readings: [GlucoseReading]) -> String {
        CSV.document(header: csvHeader, rows: readings.map { r in
            [r.id.map(String.init) ?? "", ISO8601.withOffset(r.takenAt, offset: r.utcOffsetSeconds),
             r.level.displayValue(in: .mmolPerL), r.level.displayValue(in: .mgPerDL), r.tag?.rawValue ?? "", r.source.rawValue]
        })
    }

    struct Document: Encodable {
        var generated: String
        var range: String
        var readings: [ReadingsJSON.Item]
    }

    static func json(_ readings: [GlucoseReading], range: ReportRange, generated: Date) throws -> Data {
        let document = Document(generated: ISO8601.withOffset(generated, offset: TimeZone.current.secondsFromGMT(for: generated)),
                                range: range.description, readings: readings.map(ReadingsJSON.Item.init))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }
}
