import ArgumentParser
import CareLanguage
import CareModel
import CareStore
import CareTerminal
import Foundation

/// One day as it was recorded: readings and diary notes together, in the order they happened.
struct DayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "day", abstract: "What you recorded on a day (default: today): readings and notes in time order.")

    @OptionGroup var common: CommonOptions
    @Argument(help: "The day: YYYY-MM-DD, today or yesterday.") var day: String = "today"

    func validate() throws {
        if Self.resolve(day, today: CalendarDay.today()) == nil {
            throw ValidationError("\(day) is not a day: write YYYY-MM-DD, today or yesterday")
        }
    }

    static func resolve(_ text: String, today: CalendarDay) -> CalendarDay? {
        switch text.lowercased() {
        case "today": return today
        case "yesterday": return today.adding(days: -1)
        default: return CalendarDay(iso: text)
        }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let store = try openStore(env)
        let date = Self.resolve(day, today: CalendarDay.today())!
        let unit = ((try? store.settings()) ?? Settings()).glucoseUnit
        // Each record's own day where it was made; the query only has to be wide enough.
        let calendar = Calendar.current
        let start = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))!
        let wide = DateInterval(start: start.addingTimeInterval(-14 * 3600), end: start.addingTimeInterval(38 * 3600))
        let readings = try store.readings(in: wide).filter { $0.localDay == date }
        let notes = try store.diaryEntries().filter { $0.localDay == date }
        var lines: [(Date, String)] = readings.map { r in
            (r.takenAt, book.text(.dayReading, ["time": ISO8601.localClock(r.takenAt, offset: r.utcOffsetSeconds),
                                                 "reading": "\(r.level.displayValue(in: unit)) \(env.table.phrases(for: unit).symbol)"
                                                     + (r.tag.map { ", " + env.table.phrases(for: $0).speak } ?? "")]))
        }
        lines += notes.map { n in
            var fields = DiaryWording.fields(n, env: env)
            fields["time"] = ISO8601.localClock(n.takenAt, offset: n.utcOffsetSeconds)
            return (n.takenAt, book.text(.dayNote, fields))
        }
        let heading = book.format(start, env.table.time.dateFormat)
        guard !lines.isEmpty else { return Console.line(book.text(.dayNothing, ["date": heading])) }
        Console.line(book.text(.dayHeading, ["date": heading]))
        for (_, line) in lines.sorted(by: { $0.0 < $1.0 }) { Console.line(line) }
    }
}
