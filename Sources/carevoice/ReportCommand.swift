import ArgumentParser
import CareLanguage
import CareModel
import CareReport
import CareStore
import CareTerminal
import Foundation

/// A PDF for the doctor: who and which period, the summary, a chart of the readings against
/// the target band, the time-of-day pattern and every reading, in the person's language.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Write a PDF report of your readings for your doctor.")

    @OptionGroup var common: CommonOptions
    @Option(help: "Where to write the PDF.") var pdf: String
    @Option(help: "Period: the last 30d, 3m, 6m, 1y, or all.") var range = "3m"
    @Flag(help: "Landscape pages (the chart takes half the width).") var landscape = false
    @Option(help: "Unit to show: mmol/L or mg/dL (default: your setting).") var unit: String?

    func validate() throws {
        if ReportRange(range) == nil { throw ValidationError("--range must look like 30d, 3m, 6m, 1y or all") }
        if let unit, GlucoseUnit.parse(unit) == nil { throw ValidationError("--unit must be mmol/L or mg/dL") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let store = try openStore(env)
        let settings = (try? store.settings()) ?? Settings()
        let period = ReportRange(range)!
        let now = Date()
        let (current, previous) = try store.analysis(of: period, now: now)
        let content = ReportContent.make(current: current, previous: previous, range: period,
                                         interval: period.interval(endingAt: now, calendar: .current),
                                         name: (try? store.profile())??.name, unit: unit.flatMap(GlucoseUnit.parse) ?? settings.glucoseUnit,
                                         book: book, now: now, notes: try store.diaryEntries().map(\.takenAt))
        let pages: Int
        do {
            pages = try PDFReport.write(content, to: pdf, orientation: landscape ? .landscape : .portrait)
        } catch {
            throw CommandFailure(book.text(.reportFailed, ["path": pdf, "reason": "\(error)"]))
        }
        let interval = period.interval(endingAt: now, calendar: .current)
        let path = URL(fileURLWithPath: pdf).standardizedFileURL.path
        // Offered by carevoice email; the report itself is written whatever happens to this list.
        try? ReportLog(directory: env.dataDirectory).record(.init(
            path: path, made: now, from: interval?.start ?? current.readings.first?.takenAt ?? now, to: interval?.end ?? now,
            readings: current.readings.count, pages: pages))
        Console.line(book.text(.reportWritten, ["pages": book.count(pages, one: .pageOne, many: .pageMany).display,
                                                "readings": book.count(current.readings.count, one: .readingOne, many: .readingMany).display,
                                                "path": pdf]))
    }
}
