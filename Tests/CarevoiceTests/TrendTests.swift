import CareTestSupport
import Foundation
import Testing

@Suite struct TrendTests {
    /// Typed readings over two days, then the overview and the labelled table a screen reader
    /// gets (stdout is not a terminal here, which is plain output).
    @Test func theTrendGivesTheOverviewAndALabelledTable() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let typed = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: """
            glucose 6.5 before breakfast
            yes
            glucose 11.2 after dinner
            yes
            glucose 3.4
            yes
            glucose 7.1 before breakfast yesterday at 7 am
            yes
            sugar 160 mg/dL after dinner yesterday at 8 pm
            yes

            """)
        #expect(typed.status == 0, "\(typed.stderr)")
        let run = try CLI.run(["trend", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "In the last 30 days: 5 readings on 2 days.")
        #expect(lines.contains("Average 7.4 mmol/L; lowest 3.4, highest 11.2."))
        #expect(lines.contains("In the target range, 3.9 to 10: 60 percent. Below 3.9: 20 percent, of them below 3: 0 percent. Above 10: 20 percent, of them above 13.9: 0 percent."))
        #expect(lines.contains("Date and time; glucose in mmol/L; when and notes:"))
        let rows = lines.drop { !$0.hasPrefix("Date and time") }.dropFirst().filter { !$0.isEmpty }
        #expect(rows.count == 5)
        #expect(rows.first?.hasSuffix("; 7.1; before breakfast") == true, "oldest first: \(rows)")
        #expect(rows.contains { $0.hasSuffix("; 8.9; after dinner") }, "160 mg/dL shown in the person's unit")
        #expect(!run.stdout.contains("●"), "no drawing for a screen reader")

        let high = try CLI.run(["trend", "--data-dir", dir.path, "--above", "160", "--unit", "mg/dL"])
        let highRows = high.stdout.split(separator: "\n").drop { !$0.hasPrefix("Date and time") }.dropFirst()
        #expect(highRows.map { $0.split(separator: ";")[1].trimmingCharacters(in: .whitespaces) } == ["160", "202"])

        // Only the days with a diary note: today's.
        _ = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "Walk", "--yes"])
        let noteDays = try CLI.run(["trend", "--data-dir", dir.path, "--diary-days"])
        let noteRows = noteDays.stdout.split(separator: "\n").drop { !$0.hasPrefix("Date and time") }.dropFirst()
        #expect(noteRows.count == 3 && !noteRows.contains { $0.contains("7.1") }, "\(noteRows)")

        // Which of yesterday's readings are within 24 hours depends on the hour the test runs.
        let since = Date().addingTimeInterval(-24 * 3600)
        let format = ISO8601DateFormatter()
        let recent = try readings(in: dir).filter { (format.date(from: $0.takenAt) ?? .distantPast) >= since }.count
        let day = try CLI.run(["trend", "--data-dir", dir.path, "--range", "1d"])
        #expect(day.stdout.hasPrefix("In the last 24 hours: \(recent) readings"), "\(day.stdout)")
    }

    @Test func noReadingsIsSaidPlainly() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["trend", "--data-dir", dir.path, "--range", "3m"])
        #expect(run.status == 0)
        #expect(run.stdout == "There are no readings in the last 3 months.\n")
    }
}
