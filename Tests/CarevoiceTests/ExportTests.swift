import CareTestSupport
import Foundation
import Testing

@Suite struct ExportTests {
    /// Two typed readings (one in mg/dL), exported and read back.
    @Test func readingsAreExportedAsCSVAndJSONAndReadBack() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let typed = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path],
                                input: "glucose 6.5 before breakfast\nyes\nglucose 120 mg/dL after dinner\nyes\n")
        #expect(typed.status == 0, "\(typed.stderr)")
        let csv = dir.appendingPathComponent("readings.csv"), json = dir.appendingPathComponent("readings.json")
        let run = try CLI.run(["export", "--data-dir", dir.path, "--csv", csv.path, "--json", json.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Wrote 2 readings to \(csv.path)."))

        let text = try String(contentsOf: csv, encoding: .utf8)
        #expect(text.hasSuffix("\r\n"))
        let rows = text.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.first == ["id", "taken_at", "mmol_per_l", "mg_per_dl", "tag", "source"])
        #expect(rows.count == 3)
        #expect(rows[1][2...] == ["6.5", "117", "before-breakfast", "keyboard"])
        #expect(rows[2][2...] == ["6.7", "120", "after-dinner", "keyboard"])
        // ISO 8601 with the UTC offset where it was taken, e.g. 2026-11-22T07:30:00-08:00.
        #expect(rows[1][1].range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$"#, options: .regularExpression) != nil, "\(rows[1][1])")

        struct Document: Decodable {
            struct Reading: Decodable { var takenAt: String; var mmolPerL: Double; var mgPerDL: Double; var tag: String? }
            var range: String
            var readings: [Reading]
        }
        let document = try JSONDecoder().decode(Document.self, from: Data(contentsOf: json))
        #expect(document.range == "all")
        #expect(document.readings.map(\.tag) == ["before-breakfast", "after-dinner"])
        #expect(abs(document.readings[1].mgPerDL - 120) < 1e-9, "exact, not rounded")
        #expect(document.readings[0].takenAt == rows[1][1])
    }

    @Test func aRangeOrAPlaceThatCannotBeUsedIsSaidPlainly() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let noFile = try CLI.run(["export", "--data-dir", dir.path])
        #expect(noFile.status != 0 && noFile.stderr.contains("--csv FILE"))
        let badRange = try CLI.run(["export", "--data-dir", dir.path, "--csv", "x.csv", "--range", "fortnight"])
        #expect(badRange.status != 0 && badRange.stderr.contains("--range must look like 30d"))
        let nowhere = try CLI.run(["export", "--data-dir", dir.path, "--csv", "/nonexistent/folder/x.csv"])
        #expect(nowhere.status != 0)
        #expect(nowhere.stderr.contains("I couldn't write /nonexistent/folder/x.csv"), "\(nowhere.stderr)")
    }

    @Test func anEmptyRangeGivesTheHeaderAlone() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("empty.csv")
        let run = try CLI.run(["export", "--data-dir", dir.path, "--csv", csv.path, "--range", "30d"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Wrote 0 readings"))
        #expect(try String(contentsOf: csv, encoding: .utf8) == "id,taken_at,mmol_per_l,mg_per_dl,tag,source\r\n")
    }
}
