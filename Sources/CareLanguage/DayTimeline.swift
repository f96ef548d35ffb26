import CareModel
import Foundation

extension Phrasebook {
    /// The placeholders a diary note's messages use: id, date, title, body (as a sentence after
    /// the title's), tags (presets by their names) and the number of pictures.
    public func noteFields(_ entry: DiaryEntry) -> [String: String] {
        ["id": entry.id.map(String.init) ?? "", "date": clock(entry.takenAt, offset: entry.utcOffsetSeconds, "yyyy-MM-dd HH:mm"),
         "title": entry.title,
         // A title taken from the body is not said twice.
         "body": entry.body == entry.title ? "" : Self.sentence(entry.body),
         "tags": entry.tags.isEmpty ? text(.diaryNoTags) : entry.tags.map(table.diary.name).joined(separator: table.lists.separator),
         "pictures": String(entry.pictures.count)]
    }

    /// ", tags dinner and stress" / "，标签晚餐和压力": tags added to a note's line, written so
    /// that the line, understood again, keeps them.
    public func tagsAdded(_ tags: [String]) -> String {
        let names = tags.map(table.diary.name).joined(separator: table.lists.and)
        return table.lists.clause + Tokenizer.joined([table.diary.tagWords[1], names])
    }

    /// "6.5 mmol/L, before breakfast, 2026-11-22 07:30": a reading on record, in `unit`, on the
    /// clock where it was taken.
    public func readingSummary(_ reading: GlucoseReading, unit: GlucoseUnit) -> String {
        text(.readingSummary, ["value": reading.level.displayValue(in: unit), "unit": table.phrases(for: unit).symbol,
                               "tag": reading.tag.map { table.lists.clause + table.phrases(for: $0).speak } ?? "",
                               "date": clock(reading.takenAt, offset: reading.utcOffsetSeconds, "yyyy-MM-dd HH:mm")])
    }

    /// One day as it was recorded: a heading, then readings and notes in the order they
    /// happened, each on the clock where it was recorded; or that nothing was.
    public func day(_ date: CalendarDay, readings: [GlucoseReading], notes: [DiaryEntry], unit: GlucoseUnit) -> [Message] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let heading = Message(format(calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))!,
                                     table.time.dateFormat, in: calendar))
        var lines: [(Date, Message)] = readings.filter { $0.localDay == date }.map { r in
            let reading = describe(ReadingDescription(level: r.level, unit: unit, unitWasSaid: true, tag: r.tag, explicitTime: nil),
                                   now: r.takenAt)
            return (r.takenAt, message(.dayReading, ["time": Message(clock(r.takenAt, offset: r.utcOffsetSeconds, "HH:mm")),
                                                     "reading": reading]))
        }
        lines += notes.filter { $0.localDay == date }.map { n in
            var fields = noteFields(n).mapValues(Message.init)
            fields["time"] = Message(clock(n.takenAt, offset: n.utcOffsetSeconds, "HH:mm"))
            return (n.takenAt, message(.dayNote, fields))
        }
        guard !lines.isEmpty else { return [message(.dayNothing, ["date": heading])] }
        return [message(.dayHeading, ["date": heading])] + lines.sorted { $0.0 < $1.0 }.map(\.1)
    }

    func clock(_ date: Date, offset: Int, _ pattern: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset) ?? TimeZone(identifier: "UTC")!
        return format(date, pattern, in: calendar)
    }

    /// A body as a sentence after the title's: " porridge with banana." ("" when empty). Chinese
    /// takes no space between sentences, and its own full stop: "早饭吃了粥。".
    static func sentence(_ body: String) -> String {
        let text = body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = text.first, let last = text.last else { return "" }
        let end = ".!?。！？".contains(last) ? "" : (Tokenizer.isChinese(last) ? "。" : ".")
        return (Tokenizer.isChinese(first) ? "" : " ") + text + end
    }
}
