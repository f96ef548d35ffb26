import CareTestSupport
import Foundation
import Testing

/// Notes, changes and undo in a typed session, and the edit commands, checked in the database.
@Suite struct EditTests {
    @Test func aTypedSessionAddsNotesChangesAReadingAndUndoes() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = [
            "glucose 6.5 before breakfast", "yes",
            "note: Porridge with banana for breakfast", "yes",
            "I had rice and fish yesterday at dinner, tags family", "yes",
            "change the last reading to 7.1", "yes",
            "delete the last note", "yes",   // the newest by time: the porridge of today
            "undo", "yes",                   // ...comes back
            "undo", "no",                    // the change to 7.1 stays
            "quit",
        ]
        let run = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Note: I had rice and fish. Tags: family, dinner. Time: yesterday at 7:00 PM. Save it?"), "\(run.stdout)")
        #expect(run.stdout.contains("Delete note 1: Porridge with banana for breakfast,"))
        #expect(run.stdout.contains("Undone: bring back note 1: Porridge with banana for breakfast."))
        #expect(run.stdout.contains("Undo: change the reading of today at"))

        let readings = try readings(in: dir)
        #expect(readings.map(\.mmolPerL) == [7.1])
        let notes = try DiaryTests.notes(dir)
        #expect(notes.map(\.id) == [1, 2])
        #expect(notes.map(\.body) == ["Porridge with banana for breakfast", "I had rice and fish"])
        #expect(notes.map(\.tags) == [["breakfast"], ["family", "dinner"]])
        #expect(notes[1].takenAt.contains("T19:00:00"), "\(notes[1].takenAt)")
    }

    /// "Attach a picture" in the conversation: the path is typed as people type it (a dragged-in
    /// file comes quoted, "~" is home); a text file named .jpg is refused and the note waits.
    @Test func aPictureIsAttachedInTheConversation() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let fake = dir.appendingPathComponent("not a picture.jpg")
        try Data("just text".utf8).write(to: fake)
        try DiaryTests.png.write(to: dir.appendingPathComponent("club lunch.png"))
        let lines = ["note: lunch at the club", "attach a picture", "'\(fake.path)'", "attach a picture", "~/club lunch.png", "yes", "quit"]
        let run = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: lines.joined(separator: "\n") + "\n",
                              environment: ["HOME": dir.path])
        #expect(run.stdout.contains("I can't attach that picture: \(fake.path) is not a JPEG, PNG, HEIC or WebP picture. The note is still waiting."),
                "\(run.stdout)")
        #expect(run.stdout.contains("Pictures: 1. Save it?"), "\(run.stdout)")
        let notes = try DiaryTests.notes(dir)
        #expect(notes.map(\.body) == ["lunch at the club"])
        #expect(notes.first?.pictures.count == 1)
        #expect(DiaryTests.pictures(dir).count == 1)
    }

    @Test func aReadingIsChangedAndDeletedByItsNumber() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "glucose 6.5 before breakfast\nyes\nquit\n")
        let list = try CLI.run(["readings", "--data-dir", dir.path])
        #expect(list.stdout.hasPrefix("1. "), "the list numbers readings: \(list.stdout)")

        let refused = try CLI.run(["readings", "edit", "1", "--value", "7.1", "--data-dir", dir.path], input: "no\n")
        #expect(refused.stdout.contains("Change reading 1 from 6.5 mmol/L, before breakfast,"))
        #expect(refused.stdout.contains("Nothing was changed."))
        #expect(try readings(in: dir).map(\.mmolPerL) == [6.5])

        let edit = try CLI.run(["readings", "edit", "1", "--value", "128 mg/dL", "--tag", "after lunch", "--when", "yesterday at 1 pm",
                                "--yes", "--data-dir", dir.path])
        #expect(edit.status == 0, "\(edit.stderr)")
        let changed = try readings(in: dir)
        #expect(changed.first?.mgPerDL.rounded() == 128)
        #expect(changed.first?.tag == "after-lunch")
        #expect(changed.first?.takenAt.contains("T13:00:00") == true)

        for (arguments, message) in [(["--value", "banana"], "banana is not a glucose value"),
                                     (["--when", "tomorrow"], "I can't tell when that is: tomorrow"),
                                     (["--tag", "elevenses"], "elevenses is not a tag I know")] {
            let bad = try CLI.run(["readings", "edit", "1"] + arguments + ["--yes", "--data-dir", dir.path])
            #expect(bad.status != 0)
            #expect(bad.stderr.contains(message), "\(bad.stderr)")
        }
        let missing = try CLI.run(["readings", "delete", "9", "--yes", "--data-dir", dir.path])
        #expect(missing.stderr.contains("There is no reading 9."))

        let delete = try CLI.run(["readings", "delete", "1", "--data-dir", dir.path], input: "yes\n")
        #expect(delete.stdout.contains("Deleted reading 1: 7.1 mmol/L, after lunch,"), "\(delete.stdout)")
        #expect(try readings(in: dir).isEmpty)
    }

    @Test func aNoteIsChangedAndGivenItsTime() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let add = try CLI.run(["diary", "add", "--body", "Soup at the club", "--when", "2026-05-01 12:30", "--tag", "lunch", "--yes",
                               "--data-dir", dir.path])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try DiaryTests.notes(dir).first?.takenAt.hasPrefix("2026-05-01T12:30:00") == true)

        let edit = try CLI.run(["diary", "edit", "1", "--title", "Club lunch", "--tag", "2", "--tag", "Friends", "--when", "2026-05-02 13:00",
                                "--data-dir", dir.path], input: "yes\n")
        #expect(edit.stdout.contains("Change note 1 to: 2026-05-02 13:00  Club lunch. Soup at the club. Tags: lunch, friends?"), "\(edit.stdout)")
        let note = try #require(try DiaryTests.notes(dir).first)
        #expect(note.title == "Club lunch")
        #expect(note.body == "Soup at the club")
        #expect(note.tags == ["lunch", "friends"])
        #expect(note.takenAt.hasPrefix("2026-05-02T13:00:00"))

        let empty = try CLI.run(["diary", "edit", "1", "--title", " ", "--yes", "--data-dir", dir.path])
        #expect(empty.status != 0)
        #expect(try DiaryTests.notes(dir).first?.title == "Club lunch", "nothing half-saved")
    }
}
