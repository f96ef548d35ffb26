import CareTestSupport
import Foundation
import Testing

/// Diary notes from the command line, with the picture files checked on disk.
@Suite struct DiaryTests {
    /// The smallest files each format's first bytes call a picture (only the bytes are checked).
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 73, 72, 68, 82])
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 74, 70, 73, 70, 0, 1])

    struct Note: Decodable { var id: Int; var takenAt: String; var title: String; var body: String; var tags: [String]; var pictures: [String] }

    static func notes(_ dir: URL, _ extra: [String] = []) throws -> [Note] {
        let run = try CLI.run(["diary", "list", "--data-dir", dir.path, "--json"] + extra)
        return try JSONDecoder().decode([Note].self, from: Data(run.stdout.utf8))
    }

    static func pictures(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("pictures").path)) ?? []).sorted()
    }

    /// Two notes share a picture: it is stored once, survives the first deletion, and goes with
    /// the second.
    @Test func picturesAreStoredOnceAndGoWithTheLastNoteThatShowsThem() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let plate = dir.appendingPathComponent("plate.png"), copy = dir.appendingPathComponent("same plate.png")
        let bowl = dir.appendingPathComponent("bowl.jpeg")
        try Self.png.write(to: plate); try Self.png.write(to: copy); try Self.jpeg.write(to: bowl)

        let first = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "Breakfast", "--body", "porridge with banana",
                                 "--tag", "Breakfast", "--tag", "grandson's visit", "--tag", "breakfast", "--picture", plate.path,
                                 "--picture", bowl.path, "--yes"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Saved note 1: Breakfast."))
        let second = try CLI.run(["diary", "add", "--data-dir", dir.path, "--body", "rice and fish for dinner", "--tag", "dinner",
                                  "--picture", copy.path, "--yes"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Self.pictures(dir).count == 2, "the same picture twice is one file: \(Self.pictures(dir))")

        let notes = try Self.notes(dir)
        #expect(notes.map(\.title) == ["rice and fish for dinner", "Breakfast"], "newest first; a title from the body")
        #expect(notes[1].tags == ["breakfast", "grandson's visit"])
        #expect(notes[1].pictures.count == 2 && notes[0].pictures == [notes[1].pictures[0]])
        #expect(notes[1].pictures[0].hasSuffix(".png") && notes[1].pictures[1].hasSuffix(".jpg"))
        #expect(try Self.notes(dir, ["--tag", "dinner"]).map(\.id) == [2])
        #expect(try Self.notes(dir, ["--sort", "title"]).map(\.title) == ["Breakfast", "rice and fish for dinner"])

        #expect(try CLI.run(["diary", "delete", "1", "--yes", "--data-dir", dir.path]).stdout.contains("Deleted note 1: Breakfast."))
        #expect(Self.pictures(dir) == [URL(fileURLWithPath: notes[0].pictures[0]).lastPathComponent], "the shared picture stays")
        _ = try CLI.run(["diary", "delete", "2", "--yes", "--data-dir", dir.path])
        let left = try Self.notes(dir)
        #expect(Self.pictures(dir).isEmpty && left.isEmpty, "no dangling files, no rows")
    }

    /// Bad input says what is wrong and saves nothing, not even the pictures that were fine.
    @Test func badInputSavesNothing() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let good = dir.appendingPathComponent("good.png"), fake = dir.appendingPathComponent("fake.jpg")
        try Self.png.write(to: good)
        try "not a picture at all".write(to: fake, atomically: true, encoding: .utf8)

        let textAsJPEG = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "Lunch", "--picture", good.path,
                                      "--picture", fake.path, "--yes"])
        #expect(textAsJPEG.status != 0)
        #expect(textAsJPEG.stderr.contains("is not a JPEG, PNG, HEIC or WebP picture. Nothing was saved."), "\(textAsJPEG.stderr)")
        let missing = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "Lunch", "--picture", "/nowhere/x.png", "--yes"])
        #expect(missing.stderr.contains("/nowhere/x.png does not exist. Nothing was saved."), "\(missing.stderr)")
        let untitled = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "  ", "--yes"])
        #expect(untitled.stderr.contains("A note needs a title"), "\(untitled.stderr)")
        let saved = try Self.notes(dir)
        #expect(saved.isEmpty && Self.pictures(dir).isEmpty)

        // Without --yes the note is read back; anything but yes keeps nothing.
        let declined = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "Walk", "--tag", "exercise"], input: "no\n")
        #expect(declined.stdout.contains("Note: Walk. Tags: exercise. Pictures: 0. Save it?") && declined.stdout.contains("Not saved."))
        let accepted = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "Walk"], input: "yes\n")
        #expect(accepted.stdout.contains("Saved note 1: Walk."))
        let absent = try CLI.run(["diary", "delete", "7", "--yes", "--data-dir", dir.path])
        #expect(absent.status != 0 && absent.stderr.contains("There is no note 7."))
    }
}

@Suite struct DayAndDiaryExportTests {
    /// Readings and notes of one day, in the order they happened; another day says it has nothing.
    @Test func aDayIsItsReadingsAndNotesInTimeOrder() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "glucose 6.5 before breakfast\nyes\nglucose 7.1 yesterday at 9 pm\nyes\n")
        _ = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "Breakfast", "--body", "porridge", "--tag", "breakfast", "--yes"])
        let today = try CLI.run(["day", "--data-dir", dir.path])
        let lines = today.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(today.stdout)")
        #expect(lines[1].hasSuffix("  glucose 6.5 mmol/L, before breakfast"))
        #expect(lines[2].hasSuffix("  note 1: Breakfast. porridge. Tags: breakfast."))
        let yesterday = try CLI.run(["day", "yesterday", "--data-dir", dir.path])
        #expect(yesterday.stdout.split(separator: "\n").last == "21:00  glucose 7.1 mmol/L")
        let empty = try CLI.run(["day", "2020-02-29", "--data-dir", dir.path])
        #expect(empty.stdout == "Nothing was recorded on 29 February 2020.\n")
        let wrong = try CLI.run(["day", "2020-02-30", "--data-dir", dir.path])
        #expect(wrong.status != 0 && wrong.stderr.contains("2020-02-30 is not a day"))
    }

    /// A note's commas, quotes and line breaks survive the CSV; the JSON has both kinds.
    @Test func notesAreExportedBesideTheReadings() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "glucose 6.5\nyes\n")
        let body = "rice, fish and \"a little\" soy sauce\nthen a walk"
        _ = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "Dinner", "--body", body, "--tag", "dinner", "--tag", "exercise", "--yes"])
        let csv = dir.appendingPathComponent("notes.csv"), json = dir.appendingPathComponent("all.json")
        let run = try CLI.run(["export", "--data-dir", dir.path, "--diary-csv", csv.path, "--json", json.path])
        #expect(run.stdout.contains("Wrote one diary note to \(csv.path)."))
        #expect(run.stdout.contains("Wrote one reading and one diary note to \(json.path)."), "\(run.stdout)")
        let text = try String(contentsOf: csv, encoding: .utf8)
        #expect(text.hasPrefix("id,taken_at,title,body,tags,pictures\r\n"))
        #expect(text.contains(",Dinner,\"rice, fish and \"\"a little\"\" soy sauce\nthen a walk\",dinner;exercise,\r\n"), "\(text)")
        struct Document: Decodable {
            struct Note: Decodable { var title: String; var body: String; var tags: [String] }
            var readings: [ReadingsOnly]
            var diary: [Note]
            struct ReadingsOnly: Decodable { var mmolPerL: Double }
        }
        let document = try JSONDecoder().decode(Document.self, from: Data(contentsOf: json))
        #expect(document.readings.map(\.mmolPerL) == [6.5])
        #expect(document.diary.first?.body == body && document.diary.first?.tags == ["dinner", "exercise"])
    }
}

@Suite struct DiaryTagTests {
    /// Presets by number, name or another word for them; anything else is the person's own tag,
    /// offered afterwards; a number no preset has saves nothing.
    @Test func tagsArePresetsByNumberOrWordOrThePersonsOwn() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let saved = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "Tea", "--tag", "4", "--tag", "Supper",
                                 "--tag", "grandson visit", "--tag", "dinner", "--yes"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let notes = try DiaryTests.notes(dir)
        #expect(notes.first?.tags == ["snack", "dinner", "grandson visit"])
        let tags = try CLI.run(["diary", "tags", "--data-dir", dir.path]).stdout.split(separator: "\n")
        #expect(tags.first == "1. breakfast" && tags.contains("3. dinner"))
        #expect(tags.last == "Your own tags: grandson visit.")
        #expect(try DiaryTests.notes(dir, ["--tag", "3"]).count == 1)
        let wrong = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "x", "--tag", "11", "--yes"])
        #expect(wrong.status != 0 && wrong.stderr.contains("There is no tag number 11; the preset tags are 1 to 10."))
        #expect(try DiaryTests.notes(dir).count == 1)
    }
}
