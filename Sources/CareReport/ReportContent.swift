import CareLanguage
import CareModel
import Foundation

/// What a doctor's report says, in the person's language, before it is laid out on pages.
/// Pure: the analysis and the phrasebook in, words and numbers out.
public struct ReportContent: Sendable {
    public struct Table: Sendable {
        public var heading: String
        public var columns: [String]
        /// Relative column widths, summing to 1.
        public var widths: [Double]
        public var rows: [[String]]
    }

    /// Readings over time against the target band, in the unit shown.
    public struct Chart: Sendable {
        public var heading: String
        public var legend: String
        public var start: Date
        public var end: Date
        public var points: [(date: Date, value: Double)]
        /// When diary notes were written: marked along the bottom of the chart.
        public var notes: [Date]
        public var band: ClosedRange<Double>
        public var scale: ClosedRange<Double>
        /// Values labelled on the vertical axis.
        public var ticks: [Double]
        public var tickLabel: @Sendable (Double) -> String
        public var dateLabel: @Sendable (Date) -> String
    }

    public var title: String
    /// Who and which period, and when it was made.
    public var header: [String]
    public var summaryHeading: String
    public var summary: [String]
    public var chart: Chart?
    public var hours: Table?
    public var readings: Table?
    /// "Page {page}".
    public var pageLabel: String

    public static func make(current: GlucoseAnalysis, previous: GlucoseAnalysis?, range: ReportRange, interval: DateInterval?,
                            name: String?, unit: GlucoseUnit, book: Phrasebook, now: Date, notes: [Date] = [],
                            timeZone: TimeZone = .current) -> ReportContent {
        let day = DateFormatter(), clock = DateFormatter()
        for formatter in [day, clock] {
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
        }
        day.dateFormat = book.table.time.writtenDateFormat
        clock.dateFormat = "HH:mm"
        let symbol = book.table.phrases(for: unit).symbol
        let start = interval?.start ?? current.readings.first?.takenAt ?? now
        let end = interval?.end ?? now

        var header = [book.text(.reportPeriod, ["from": day.string(from: start), "to": day.string(from: end)])]
        if let name, !name.isEmpty { header.insert(book.text(.reportFor, ["name": name]), at: 0) }
        header.append(book.text(.reportGenerated, ["date": day.string(from: now) + " " + clock.string(from: now)]))

        let overview = GlucoseOverview(book: book, unit: unit)
        var content = ReportContent(title: book.text(.reportTitle), header: header, summaryHeading: book.text(.reportSummary),
                                    summary: overview.written(current, range: range, previous: previous).map(\.display),
                                    pageLabel: book.table.messages[MessageKey.reportPage.rawValue] ?? "{page}")
        guard !current.readings.isEmpty else { return content }

        let limits = (low: GlycaemicLimit.low.values, high: GlycaemicLimit.high.values)
        let band = unit == .mmolPerL ? limits.low.mmolPerL...limits.high.mmolPerL : limits.low.mgPerDL...limits.high.mgPerDL
        let highest = current.all.highest.map { GlucoseLevel(mmolPerL: $0).value(in: unit) } ?? 0
        let step = unit == .mmolPerL ? 2.0 : 50.0
        let top = max(unit == .mmolPerL ? 16.0 : 300.0, (highest / step).rounded(.up) * step)
        let format: @Sendable (Double) -> String = { GlucoseLevel($0, unit).displayValue(in: unit) }
        let dayFormat = DateFormatter()  // its own: `day` follows each reading's offset below
        dayFormat.locale = Locale(identifier: "en_US_POSIX")
        dayFormat.timeZone = timeZone
        dayFormat.dateFormat = book.table.time.writtenDateFormat
        content.chart = Chart(heading: book.text(.reportChart),
                              legend: book.text(notes.isEmpty ? .reportChartLegend : .reportChartLegendNotes,
                                                ["low": format(band.lowerBound), "high": format(band.upperBound), "unit": symbol]),
                              start: start, end: end,
                              points: current.readings.map { ($0.takenAt, $0.level.value(in: unit)) },
                              notes: notes.filter { $0 >= start && $0 <= end },
                              band: band, scale: 0...top, ticks: Array(stride(from: 0, through: top, by: step * (top > 10 * step ? 2 : 1))),
                              tickLabel: format, dateLabel: { [dayFormat] in dayFormat.string(from: $0) })

        let value = { (mmol: Double) in GlucoseLevel(mmolPerL: mmol).displayValue(in: unit) }
        // Each reading in the clock where it was taken; formatters made once per UTC offset
        // (changing a formatter's time zone rebuilds it: it was most of a 700-reading report's time).
        var formatters: [Int: (DateFormatter, DateFormatter)] = [:]
        func localFormatters(_ offset: Int) -> (DateFormatter, DateFormatter) {
            if let known = formatters[offset] { return known }
            let made = [day, clock].map { template -> DateFormatter in
                let formatter = DateFormatter()
                formatter.locale = template.locale
                formatter.dateFormat = template.dateFormat
                formatter.timeZone = TimeZone(secondsFromGMT: offset) ?? timeZone
                return formatter
            }
            formatters[offset] = (made[0], made[1])
            return (made[0], made[1])
        }
        content.hours = Table(heading: book.text(.reportHours),
                              columns: [book.text(.reportColumnHour), book.text(.reportColumnCount),
                                        book.text(.reportColumnMedian, ["unit": symbol]), book.text(.reportColumnMiddleHalf, ["unit": symbol])],
                              widths: [0.2, 0.2, 0.25, 0.35],
                              rows: current.hourOfDay.map { h in
                                  [String(format: "%02d:00", h.hour), String(h.count), value(h.median),
                                   value(h.lowerQuartile) + " – " + value(h.upperQuartile)]
                              })
        content.readings = Table(heading: book.text(.reportReadings),
                                 columns: [book.text(.reportColumnDate), book.text(.reportColumnTime),
                                           book.text(.reportColumnValue, ["unit": symbol]), book.text(.reportColumnWhen),
                                           book.text(.reportColumnNote)],
                                 widths: [0.18, 0.11, 0.16, 0.27, 0.28],
                                 rows: current.readings.map { r in
                                     let (day, clock) = localFormatters(r.utcOffsetSeconds)
                                     return [day.string(from: r.takenAt), clock.string(from: r.takenAt), r.level.displayValue(in: unit),
                                             r.tag.map { book.table.phrases(for: $0).speak } ?? "",
                                             current.isHigherThanUsual(r) ? book.text(.trendHigherThanUsual) : ""]
                                 })
        return content
    }
}
