import ArgumentParser
import CareModel
import CareStore
import CareTerminal
import Foundation

/// How fast reports are: `carevoice report` on six months of four readings a day, timed as a
/// person waits for it (a new process, start-up included), and the analysis of ten years.
struct BenchReport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Time the PDF report (6 months, 4 readings a day) and the analysis of 10 years.")

    @OptionGroup var common: CommonOptions
    @Option(help: "Runs of each measurement (the median is printed).") var runs = 5

    func run() throws {
        _ = try AppEnvironment.make(common)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-bench-report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(directory: DataDirectory(url: directory))
        let now = Date()
        _ = try store.save(Self.readings(days: 182, perDay: 4, endingAt: now))

        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let pdf = directory.appendingPathComponent("report.pdf")
        var reportTimes: [Double] = []
        for _ in 0..<runs {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["report", "--data-dir", directory.path, "--pdf", pdf.path, "--range", "6m"]
            process.standardOutput = FileHandle.nullDevice
            let started = Date()
            try process.run()
            process.waitUntilExit()
            reportTimes.append(Date().timeIntervalSince(started))
            guard process.terminationStatus == 0 else { throw CommandFailure("carevoice report failed (\(process.terminationStatus))") }
        }

        let decade = Self.readings(days: 3750, perDay: 4, endingAt: now)
        var analysisTimes: [Double] = []
        var marked = 0
        for _ in 0..<runs {
            let started = Date()
            let analysis = GlucoseAnalysis(Array(decade))
            marked = analysis.readings.filter(analysis.isHigherThanUsual).count
            _ = (analysis.hourOfDay, analysis.byMonth, analysis.consensus)
            analysisTimes.append(Date().timeIntervalSince(started))
        }
        let report = percentile(reportTimes.sorted(), 0.5), analysis = percentile(analysisTimes.sorted(), 0.5)
        Console.line(String(format: "PDF report, 728 readings (6 months, 4 a day), start-up included: median %.3f s of %d runs (target < 1 s)",
                            report, runs))
        Console.line(String(format: "analysis of %d readings (10 years), with %d marked higher than usual: median %.3f s (target < 0.2 s)",
                            decade.count, marked, analysis))
        Console.line(String(format: "report: %.3f s PDF, %.3f s analysis", report, analysis))
    }

    /// Deterministic readings: `perDay` a day at fixed hours with their meal tags, values
    /// wandering between 4.5 and 13 mmol/L.
    static func readings(days: Int, perDay: Int, endingAt end: Date) -> [GlucoseReading] {
        let slots: [(hours: Double, tag: MealTag)] = [(0, .bedtime), (4, .afterDinner), (10, .beforeLunch), (14, .beforeBreakfast)]
        return (0..<days).flatMap { day in
            slots.prefix(perDay).map { slot in
                let value = 4.5 + Double((day * 13 + Int(slot.hours) * 7) % 86) / 10
                return GlucoseReading(takenAt: end.addingTimeInterval(-Double(day) * 86_400 - slot.hours * 3600), utcOffsetSeconds: 0,
                                      level: GlucoseLevel(value, .mmolPerL), tag: slot.tag, source: .keyboard)
            }
        }
    }
}
