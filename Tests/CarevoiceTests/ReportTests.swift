import CareModel
import CareStore
import CareTestSupport
import Foundation
import Testing

/// The PDF through the real cairo and pango, read back with poppler as a doctor's computer would.
@Suite(.serialized) struct ReportTests {
    /// A year of readings, two a day (before breakfast, after dinner), ending an hour ago, and a
    /// profile whose name needs the CJK font.
    static func seedYear(in dir: URL) throws -> [GlucoseReading] {
        let store = try Store(directory: DataDirectory(url: dir))
        try store.saveProfile(Profile(dateOfBirth: CalendarDay(year: 1950, month: 1, day: 2), heightCm: 165, weightKg: 60,
                                      sex: .female, diabetesType: .type2, country: "CA", name: "李明 (Li Ming)"))
        let end = Date().addingTimeInterval(-3600)
        var readings: [GlucoseReading] = []
        for day in 0..<365 {
            for (hours, tag, base) in [(0.0, MealTag.beforeBreakfast, 5.5), (12.0, .afterDinner, 8.0)] {
                let value = base + Double((day * 7 + Int(hours)) % 23) / 4   // 5.5 ... 13.5, deterministic
                let reading = GlucoseReading(takenAt: end.addingTimeInterval(-Double(day) * 86_400 - hours * 3600),
                                             utcOffsetSeconds: -8 * 3600, level: GlucoseLevel((value * 10).rounded() / 10, .mmolPerL),
                                             tag: tag, source: .keyboard)
                readings.append(reading)
            }
        }
        return try store.save(readings)
    }

    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + name)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func aYearOfReadingsIsAReportEveryRowOfWhichCanBeFoundAgain() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let readings = try Self.seedYear(in: dir)
        let pdf = dir.appendingPathComponent("report.pdf")
        let run = try CLI.run(["report", "--data-dir", dir.path, "--pdf", pdf.path, "--range", "1y"])
        #expect(run.status == 0, "\(run.stderr)")
        let pages = try #require(Int(run.stdout.split(separator: "(").last?.split(separator: " ").first ?? ""))
        #expect(run.stdout.contains("pages, \(readings.count) readings) to \(pdf.path)"), "\(run.stdout)")

        let info = try Self.tool("pdfinfo", [pdf.path])
        #expect(info.contains("Pages:           \(pages)\n") || info.contains("Pages: \(pages)"), "\(info)")
        #expect((12...40).contains(pages), "\(pages) pages for 730 readings")
        #expect(info.contains("595.28 x 841.89"), "A4 portrait")
        #expect(info.split(separator: "\n").contains { $0.hasPrefix("Title:") && $0.hasSuffix(" Blood glucose report") })

        let text = try Self.tool("pdftotext", ["-layout", pdf.path, "-"])
        #expect(text.contains("Blood glucose report"))
        #expect(text.contains("For 李明 (Li Ming)"), "the CJK name survives")
        #expect(text.contains("These are shares of your readings, not of the day"))
        // Every reading is a row: its date, time and value on one line.
        let rows = Set(text.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, fields[0].count == 10, fields[0].hasPrefix("20"), fields[1].count == 5, fields[1].contains(":") else { return nil }
            return "\(fields[0]) \(fields[1]) \(fields[2])"
        })
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: -8 * 3600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let missing = readings.filter { !rows.contains("\(formatter.string(from: $0.takenAt)) \($0.level.displayValue(in: .mmolPerL))") }
        #expect(missing.isEmpty, "\(missing.count) rows missing, e.g. \(missing.prefix(2))")

        // Every font embedded (pdffonts: name type encoding emb sub uni object ID).
        let fonts = try Self.tool("pdffonts", [pdf.path]).split(separator: "\n").dropFirst(2)
        #expect(!fonts.isEmpty)
        for font in fonts { #expect(font.split(separator: " ", omittingEmptySubsequences: true).dropLast(4).last == "yes", "\(font)") }
    }

    /// pdftotext -bbox gives every word's box: on no page may two boxes overlap.
    @Test func landscapePagesHaveNoOverlappingText() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.seedYear(in: dir)
        let pdf = dir.appendingPathComponent("report.pdf")
        let run = try CLI.run(["report", "--data-dir", dir.path, "--pdf", pdf.path, "--range", "30d", "--landscape", "--unit", "mg/dL"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.tool("pdfinfo", [pdf.path]).contains("841.89 x 595.28"), "A4 landscape")
        let boxes = try Self.tool("pdftotext", ["-bbox", pdf.path, "-"])
        var overlaps: [String] = []
        for page in boxes.components(separatedBy: "<page ").dropFirst() {
            let words: [(x0: Double, y0: Double, x1: Double, y1: Double, text: String)] = page.split(separator: "\n").compactMap { line in
                guard line.contains("<word") else { return nil }
                func value(_ name: String) -> Double? {
                    guard let range = line.range(of: "\(name)=\"") else { return nil }
                    return Double(line[range.upperBound...].prefix { $0 != "\"" })
                }
                guard let x0 = value("xMin"), let y0 = value("yMin"), let x1 = value("xMax"), let y1 = value("yMax") else { return nil }
                let text = line.split(separator: ">").dropFirst().first?.split(separator: "<").first.map(String.init) ?? ""
                return (x0, y0, x1, y1, text)
            }
            for i in words.indices {
                for j in words.indices where j > i {
                    let a = words[i], b = words[j]
                    if a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5 {
                        overlaps.append("\(a.text) / \(b.text)")
                    }
                }
            }
        }
        #expect(overlaps.isEmpty, "\(overlaps.prefix(5))")
        let text = try Self.tool("pdftotext", ["-layout", pdf.path, "-"])
        #expect(text.contains("Glucose (mg/dL)"))
    }

    @Test func aPlaceThatCannotBeWrittenIsSaidPlainly() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["report", "--data-dir", dir.path, "--pdf", "/nonexistent/folder/r.pdf"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("I couldn't write the report /nonexistent/folder/r.pdf"), "\(run.stderr)")
    }
}
