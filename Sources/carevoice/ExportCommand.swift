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
    @Option(help: "Write a JSON file (readings and diary notes).") var json: String?
    @Option(name: .customLong("diary-csv"), help: "Write the diary notes to this CSV file.") var diaryCSV: String?
    @Option(help: "Which readings: the last 30d, 2w, 3m, 1y, or all.") var range = "all"

    func validate() throws {
        if csv == nil && json == nil && diaryCSV == nil {
            throw ValidationError("say where to write: --csv FILE, --json FILE and/or --diary-csv FILE")
        }
        if ReportRange(range) == nil { throw ValidationError("--range must look like 30d, 2w, 3m, 1y or all") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let period = ReportRange(range)!
        let now = Date()
        let store = try openStore(env)
        let interval = period.interval(endingAt: now, calendar: .current)
        let readings = try store.readings(in: interval)
        let notes = try store.diaryEntries().filter { interval?.contains($0.takenAt) ?? true }.reversed()
        let library = PictureLibrary(dataDirectory: env.dataDirectory)
        func readingCount() -> Message { book.count(readings.count, one: .readingOne, many: .readingMany) }
        func noteCount() -> Message { book.count(notes.count, one: .noteOne, many: .noteMany) }
        // Each file with what it holds, for the sentence that says it was written.
        var written: [(path: String, data: Data, holds: Message)] = []
        if let csv { written.append((csv, Data(ExportFormat.csv(readings).utf8), readingCount())) }
        if let diaryCSV { written.append((diaryCSV, Data(ExportFormat.diaryCSV(Array(notes), library: library).utf8), noteCount())) }
        if let json {
            written.append((json, try ExportFormat.json(readings, diary: Array(notes), library: library, range: period, generated: now),
                            notes.isEmpty ? readingCount() : book.message(.readingsAndNotes, ["readings": readingCount(), "notes": noteCount()])))
        }
        for (path, data, holds) in written {
            do {
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CommandFailure(book.text(.exportFailed, ["path": path, "reason": error.localizedDescription]))
            }
            Console.line(book.text(.exportDone, ["readings": holds.display, "path": path]))
        }
    }
}

/// The file formats of `carevoice export`. Pure.
enum ExportFormat {
    static let csvHeader = ["id", "taken_at", "mmol_per_l", "mg_per_dl", "tag", "source"]

    /// Values as a meter shows them (one decimal in mmol/L, whole mg/dL), so that either unit's
    /// column reads back what was said.
    static func csv(_ readings: [GlucoseReading]) -> String {
        CSV.document(header: csvHeader, rows: readings.map { r in
            [r.id.map(String.init) ?? "", ISO8601.withOffset(r.takenAt, offset: r.utcOffsetSeconds),
             r.level.displayValue(in: .mmolPerL), r.level.displayValue(in: .mgPerDL), r.tag?.rawValue ?? "", r.source.rawValue]
        })
    }

    static let diaryHeader = ["id", "taken_at", "title", "body", "tags", "pictures"]

    /// Tags and picture paths separated by semicolons within their field.
    static func diaryCSV(_ notes: [DiaryEntry], library: PictureLibrary) -> String {
        CSV.document(header: diaryHeader, rows: notes.map { n in
            [n.id.map(String.init) ?? "", ISO8601.withOffset(n.takenAt, offset: n.utcOffsetSeconds), n.title, n.body,
             n.tags.joined(separator: ";"), n.pictures.map { library.url(of: $0).path }.joined(separator: ";")]
        })
    }

    /// A diary note in JSON (`carevoice diary --json` and the export), pictures as full paths.
    struct Note: Encodable {
        var id: Int64?
        var takenAt: String
        var title: String
        var body: String
        var tags: [String]
        var pictures: [String]

        init(_ entry: DiaryEntry, library: PictureLibrary) {
            id = entry.id
            takenAt = ISO8601.withOffset(entry.takenAt, offset: entry.utcOffsetSeconds)
            title = entry.title
            body = entry.body
            tags = entry.tags
            pictures = entry.pictures.map { library.url(of: $0).path }
        }
    }

    struct Document: Encodable {
        var generated: String
        var range: String
        var readings: [ReadingsJSON.Item]
        var diary: [Note]
    }

    static func json(_ readings: [GlucoseReading], diary: [DiaryEntry], library: PictureLibrary, range: ReportRange,
                     generated: Date) throws -> Data {
        let notes = diary.map { Note($0, library: library) }
        let document = Document(generated: ISO8601.withOffset(generated, offset: TimeZone.current.secondsFromGMT(for: generated)),
                                range: range.description, readings: readings.map(ReadingsJSON.Item.init), diary: notes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }
}
