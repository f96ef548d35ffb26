import ArgumentParser
import CareLanguage
import CareModel
import CareStore
import CareTerminal
import Foundation

/// Readings over a period: an overview (averages, shares in range, variation), then the
/// readings drawn against the target band, or, for screen readers, a labelled table.
struct TrendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trend", abstract: "Your readings over time, with the target range and a summary.")

    @OptionGroup var common: CommonOptions
    @Option(help: "Period: the last 30d, 2w, 3m, 6m, 1y, or all.") var range = "30d"
    @Option(help: "Unit to show: mmol/L or mg/dL (default: your setting).") var unit: String?
    @Option(help: "Only readings at or above this value (in the unit shown).") var above: Double?
    @Option(help: "Only readings at or below this value (in the unit shown).") var below: Double?
    @Flag(name: .customLong("diary-days"), help: "Only readings of days with a diary note.") var diaryDays = false

    func validate() throws {
        if ReportRange(range) == nil { throw ValidationError("--range must look like 30d, 2w, 3m, 1y or all") }
        if let unit, GlucoseUnit.parse(unit) == nil { throw ValidationError("--unit must be mmol/L or mg/dL") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let store = try openStore(env)
        let settings = (try? store.settings()) ?? Settings()
        let shownUnit = unit.flatMap(GlucoseUnit.parse) ?? settings.glucoseUnit
        let period = ReportRange(range)!
        let (current, previous) = try store.analysis(of: period)
        let overview = GlucoseOverview(book: env.phrasebook, unit: shownUnit)
        for line in overview.written(current, range: period, previous: previous) { Console.line(line.display) }

        let noteDays = diaryDays ? Set(try store.diaryEntries().map(\.localDay)) : []
        let shown = current.readings.filter { reading in
            let value = reading.level.value(in: shownUnit)
            return above.map { value >= $0 - 1e-9 } ?? true && below.map { value <= $0 + 1e-9 } ?? true
                && (!diaryDays || noteDays.contains(reading.localDay))
        }
        guard !shown.isEmpty else { return }
        Console.line("")
        let rows = shown.map { reading in
            TrendChart.Row(label: ISO8601.localMinutes(reading.takenAt, offset: reading.utcOffsetSeconds),
                           value: reading.level.value(in: shownUnit), shown: reading.level.displayValue(in: shownUnit),
                           note: [reading.tag.map { env.table.phrases(for: $0).speak },
                                  current.isHigherThanUsual(reading) ? env.phrasebook.text(.trendHigherThanUsual) : nil]
                               .compactMap { $0 }.joined(separator: env.table.lists.clause))
        }
        let plain = env.style == .plain || settings.plainOutput
        if plain {
            Console.line(env.phrasebook.text(.trendTableHeader, ["unit": env.table.phrases(for: shownUnit).symbol]))
            for row in rows { Console.line(([row.label, row.shown] + (row.note.isEmpty ? [] : [row.note])).joined(separator: "; ")) }
        } else {
            let band = shownUnit == .mmolPerL ? 3.9...10.0 : 70.0...180.0
            let scale = shownUnit == .mmolPerL ? 2.0...20.0 : 36.0...360.0
            let chart = TrendChart(scale: scale, band: band)
            let labels = (GlucoseLevel(band.lowerBound, shownUnit).displayValue(in: shownUnit),
                          GlucoseLevel(band.upperBound, shownUnit).displayValue(in: shownUnit))
            for line in chart.lines(rows, bandLabels: labels) { Console.line(line) }
        }
    }
}
