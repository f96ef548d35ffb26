import CareModel
import CareSpeech
import CareStore
import CareTestSupport
import Foundation
import Testing

/// `carevoice profile`, `carevoice settings` and `carevoice remind`, and changes said in the loop.
@Suite struct ProfileAndSettingsTests {
    private func json(_ arguments: [String], _ dir: URL) throws -> [String: Any] {
        let run = try CLI.run(arguments + ["--json", "--data-dir", dir.path])
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
    }

    @Test func theProfileIsShownAndChangedOnlyAfterAYes() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try CLI.run(["profile", "--data-dir", dir.path])
        #expect(before.status != 0)
        #expect(before.stderr.contains("There is no profile yet"))

        try CLI.onboard(dir)
        let shown = try CLI.run(["profile", "--data-dir", dir.path])
        #expect(shown.stdout.contains("Date of birth: 4 March 1948.\nHeight: 170 cm.\nWeight: 70 kg.\nSex: female.\n"))
        var profile = try json(["profile"], dir)
        #expect(profile["dateOfBirth"] as? String == "1948-03-04")
        #expect(profile["heightCm"] as? Double == 170)
        #expect(profile["weightKg"] as? Double == 70)
        #expect(profile["sex"] as? String == "female")
        #expect(profile["diabetesType"] as? String == "type-2")
        #expect(profile["country"] as? String == "CA")

        // Read back; "no" keeps the old value.
        let declined = try CLI.run(["profile", "set", "weight", "72kg", "--data-dir", dir.path], input: "no\n")
        #expect(declined.stdout.hasPrefix("Weight: 72 kg. Shall I save it?\n"))
        #expect(declined.stdout.contains("Not changed."))
        #expect(declined.status == 1)
        #expect(try json(["profile"], dir)["weightKg"] as? Double == 70)

        let accepted = try CLI.run(["profile", "set", "weight", "72kg", "--data-dir", dir.path], input: "yes\n")
        #expect(accepted.stdout.hasSuffix("Saved. Weight: 72 kg.\n"))
        try CLI.run(["profile", "set", "height", "5 ft 7 in", "--yes", "--data-dir", dir.path])
        try CLI.run(["profile", "set", "allergies", "penicillin, nuts", "--yes", "--data-dir", dir.path])
        profile = try json(["profile"], dir)
        #expect(profile["weightKg"] as? Double == 72)
        #expect(profile["heightCm"] as? Double == 170.18)
        #expect(profile["allergies"] as? [String] == ["penicillin", "nuts"])
        // The emergency summary follows.
        let card = try CLI.run(["emergency", "--data-dir", dir.path])
        #expect(card.stdout.contains("penicillin"))

        // Implausible or unknown: one sentence, nothing changed.
        let tall = try CLI.run(["profile", "set", "height", "4 m", "--yes", "--data-dir", dir.path])
        #expect(tall.status != 0)
        #expect(tall.stderr.contains("4 m doesn't sound right for a height"))
        let unknown = try CLI.run(["profile", "set", "hair", "blue", "--yes", "--data-dir", dir.path])
        #expect(unknown.stderr.contains("I don't know the setting hair. I know: birth, height, weight"))
        #expect(try json(["profile"], dir)["heightCm"] as? Double == 170.18)
    }

    @Test(arguments: [
        ("language", "chinese", "language", "zh-Hans" as Any),
        ("unit", "mg/dL", "glucoseUnit", "mg/dL"),
        ("units", "imperial", "bodyUnits", "imperial"),
        ("reminder", "24h", "reminder", "24h"),
        ("speech", "off", "speech", false),
        ("rate", "120", "speechRate", 120),
        ("volume", "80", "volume", 80),
        ("voice", "female", "voice", "female"),
        ("digits", "on", "numbersDigitByDigit", true),
        ("plain", "on", "plainOutput", true),
        ("voice-learning", "off", "learnsVoiceFromReadings", false),
    ] as [(String, String, String, Any)])
    func eachSettingIsSavedAndKept(field: String, value: String, key: String, expected: Any) throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["settings", "set", field, value, "--yes", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        let settings = try json(["settings"], dir)
        #expect((settings[key] as? NSObject)?.isEqual(expected) == true, "\(settings)")
        // Only that one changed.
        let defaults = try CLI.withTemporaryDirectory { try json(["settings"], $0) }
        for (other, v) in defaults where other != key { #expect("\(settings[other]!)" == "\(v)", "\(other)") }
    }

    @Test func savedSettingsShapeTheNextSession() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func session(_ name: String) throws -> (CLI.Result, PCMAudio) {
            let out = dir.appendingPathComponent("\(name).wav")
            let run = try CLI.run(["--audio-out", out.path, "--data-dir", dir.path], input: "glucose 120\nno\nquit\n")
            return (run, try WAVFile.read(out))
        }
        let (before, normal) = try session("normal")
        #expect(before.stdout.contains("120 mg/dL. Shall I save it?"))   // inferred from the number
        try CLI.run(["settings", "set", "rate", "100", "--yes", "--data-dir", dir.path])
        try CLI.run(["settings", "set", "unit", "mg/dL", "--yes", "--data-dir", dir.path])
        let (after, slow) = try session("slow")
        #expect(after.stdout.contains("120 mg/dL. Shall I save it?"))
        // The same sentences at 100 words a minute instead of 150.
        let ratio = Double(slow.samples.count) / Double(normal.samples.count)
        #expect(ratio > 1.3, "\(ratio)")
        // Speech off: nothing is spoken, so there is no recording of it either.
        try CLI.run(["settings", "set", "speech", "off", "--yes", "--data-dir", dir.path])
        let silent = dir.appendingPathComponent("silent.wav")
        let quiet = try CLI.run(["--audio-out", silent.path, "--data-dir", dir.path], input: "glucose 120\nno\nquit\n")
        #expect(quiet.stdout.contains("120 mg/dL. Shall I save it?"))
        #expect(!FileManager.default.fileExists(atPath: silent.path))
    }

    /// Said in the loop, a change applies from the next sentence: after "stop speaking" and a
    /// yes, nothing more is spoken however long the session goes on.
    @Test func aChangeSaidInTheLoopAppliesAtOnce() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func spoken(_ input: String) throws -> Int {
            let out = dir.appendingPathComponent("\(UUID().uuidString).wav")
            try CLI.run(["--audio-out", out.path, "--data-dir", dir.path], input: input)
            try CLI.run(["settings", "set", "speech", "on", "--yes", "--data-dir", dir.path])
            return try WAVFile.read(out).samples.count
        }
        let short = try spoken("stop speaking\nyes\nquit\n")
        let long = try spoken("stop speaking\nyes\nglucose 6.5\nyes\nglucose 7.2 after lunch\nyes\nquit\n")
        #expect(short > 0)
        #expect(long == short)
        // The same session made slower or faster: the sentences after the yes differ in pace only.
        func paced(_ command: String) throws -> Int {
            try CLI.run(["settings", "set", "rate", "150", "--yes", "--data-dir", dir.path])
            return try spoken("\(command)\nyes\nglucose 6.5\nyes\nquit\n")
        }
        let slower = try paced("speak slower"), faster = try paced("speak faster")
        #expect(Double(slower) / Double(faster) > 1.1, "\(slower) vs \(faster) samples")
        #expect(try json(["settings"], dir)["speechRate"] as? Int == 170)
    }

    @Test func remindSaysWhatIsDue() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Off by default: nothing to say, nothing printed (for cron).
        #expect(try CLI.run(["remind", "--data-dir", dir.path]).stdout.isEmpty)
        try CLI.run(["settings", "set", "reminder", "24h", "--yes", "--data-dir", dir.path])
        #expect(try CLI.run(["remind", "--data-dir", dir.path]).stdout
            == "It's time for a glucose reading. There is none on record yet.\n")

        let store = try Store(directory: DataDirectory(url: dir))
        try store.save(GlucoseReading(takenAt: Date().addingTimeInterval(-23 * 3600), utcOffsetSeconds: 0,
                                      level: GlucoseLevel(6.5, .mmolPerL), tag: nil, source: .keyboard))
        #expect(try CLI.run(["remind", "--data-dir", dir.path]).stdout.isEmpty)
        try store.save(GlucoseReading(takenAt: Date().addingTimeInterval(-25 * 3600), utcOffsetSeconds: 0,
                                      level: GlucoseLevel(6.5, .mmolPerL), tag: nil, source: .keyboard))
        #expect(try CLI.run(["remind", "--data-dir", dir.path]).stdout.isEmpty, "the latest reading counts")
        try CLI.run(["settings", "set", "reminder", "12h", "--yes", "--data-dir", dir.path])
        let due = try CLI.run(["remind", "--data-dir", dir.path])
        #expect(due.stdout.hasPrefix("It's time for a glucose reading. Your last one was "))

        // The assistant says it when it starts.
        let session = try CLI.run(["--no-speech", "--data-dir", dir.path], input: "quit\n")
        #expect(session.stdout.contains("It's time for a glucose reading. Your last one was "))
    }
}
