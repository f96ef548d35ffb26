import CareLanguage
import CareModel
import Foundation
import Testing
@testable import CareAssistant

/// The dialog's notes, edits and undo, with the runtime's store answers played by hand:
/// a saved note gets the next id, "the last" records are the newest ones kept here.
private struct Session {
    var script = Script()
    var readings: [GlucoseReading] = []
    var notes: [DiaryEntry] = []
    var applied: [RecordEdit] = []
    var saidSoFar: [String] = []

    @discardableResult
    mutating func send(_ event: DialogEvent) -> [DialogEffect] {
        var effects = script.dialog.handle(event, now: now)
        var all = effects
        // Answer the store effects until the dialog asks for nothing more of it.
        while let answer = storeAnswer(to: effects) {
            effects = script.dialog.handle(answer, now: now)
            all += effects
        }
        script.effects = all
        saidSoFar += script.said
        return all
    }

    mutating func storeAnswer(to effects: [DialogEffect]) -> DialogEvent? {
        for effect in effects {
            switch effect {
            case .save(var reading):
                reading.id = Int64(readings.count + 1)
                readings.append(reading)
                return .saved(reading)
            case .saveNote(var entry, let pictures):
                entry.id = Int64(notes.count + 1)
                entry.pictures = pictures.map { "\($0.hashValue).jpg" }
                notes.append(entry)
                return .recordsChanged(.addNote(entry))
            case .lookUpLastRecords:
                return .lastRecords(reading: readings.last, note: notes.last)
            case .applyEdit(let edit):
                applied.append(edit)
                switch edit {
                case .deleteReading(let r): readings.removeAll { $0.id == r.id }
                case .addReading(let r): readings.append(r)
                case .changeReading(let r, _): readings = readings.map { $0.id == r.id ? r : $0 }
                case .deleteNote(let n, _): notes.removeAll { $0.id == n.id }
                case .addNote(let n, _): notes.append(n)
                case .changeNote(let n, _): notes = notes.map { $0.id == n.id ? n : $0 }
                }
                return .recordsChanged(edit)
            default:
                continue
            }
        }
        return nil
    }
}

@Suite struct NoteDialogTests {
    @Test func aNoteAskedForIsDictatedReadBackAndSavedAfterYes() throws {
        var session = Session()
        session.send(.heard("add a diary note"))
        #expect(session.script.listening == .dictation)
        #expect(session.script.said == ["What would you like to note? Say it, or type it and press Enter."])

        session.send(.heard("porridge with banana for breakfast"))
        #expect(session.script.said.first == "Note: porridge with banana for breakfast. Tags: breakfast. Time: today at 2:00 PM. Save it?")
        #expect(session.script.said.contains { $0.hasPrefix("I often mishear notes") }, "a dictated note is checked on the line")
        #expect(session.script.editable == "porridge with banana for breakfast")
        #expect(session.script.listening == .noteAnswer)
        #expect(session.notes.isEmpty, "nothing is saved before the yes")

        session.send(.heard("yes"))
        let note = try #require(session.notes.first)
        #expect(note.body == "porridge with banana for breakfast")
        #expect(note.tags == ["breakfast"])
        #expect(session.script.said.first == "Saved note 1: porridge with banana for breakfast.")
        #expect(session.script.dialog.state == .idle)
    }

    @Test func theEditedLineIsUnderstoodAgainAndSavedAsItStands() throws {
        var session = Session()
        session.send(.heard("add a diary note"))
        session.send(.heard("are you doing on our breakfast"))
        session.send(.edited("Porridge with banana yesterday at breakfast, tags oats"))
        let note = try #require(session.notes.first)
        #expect(note.body == "Porridge with banana")
        #expect(note.tags == ["oats", "breakfast"])
        #expect(note.takenAt == calendar.date(from: DateComponents(year: 2026, month: 11, day: 21, hour: 8)))
    }

    @Test func readItBackRepeatsAndNoLeavesTheNote() {
        var session = Session()
        session.send(.typed("I had rice and fish for dinner"))
        let readBack = session.script.said.first
        #expect(readBack?.hasPrefix("Note: I had rice and fish for dinner. Tags: dinner.") == true)
        #expect(!session.script.said.contains { $0.hasPrefix("I often mishear") }, "a typed note needs no warning")
        session.send(.heard("read it back"))
        #expect(session.script.said.first == readBack)
        session.send(.heard("no"))
        #expect(session.script.said.first == "The note was not saved.")
        #expect(session.notes.isEmpty)
    }

    @Test func tagsSaidToTheWaitingNoteJoinItAndItsLine() throws {
        var session = Session()
        session.send(.typed("note: porridge with banana"))
        session.send(.heard("tag three"))
        #expect(session.script.said.first == "Note: porridge with banana. Tags: dinner. Time: today at 2:00 PM. Save it?")
        #expect(session.script.editable == "porridge with banana, tags dinner")
        #expect(session.script.listening == .noteAnswer)
        session.send(.edited("porridge with banana, tags dinner"))
        #expect(session.notes.first?.tags == ["dinner"])
    }

    @Test func aPictureIsCheckedBeforeItIsAdded() throws {
        var session = Session()
        session.send(.typed("note: lunch at the club"))
        session.send(.typed("attach a picture"))
        #expect(session.script.said == ["Type the path of the picture to attach, and press Enter."])
        let check = session.send(.typed("/tmp/notes.txt"))
        #expect(check == [.checkPicture("/tmp/notes.txt")])
        session.send(.pictureChecked(path: "/tmp/notes.txt", problem: "/tmp/notes.txt is not a JPEG, PNG, HEIC or WebP picture"))
        #expect(session.script.said.first == "I can't attach that picture: /tmp/notes.txt is not a JPEG, PNG, HEIC or WebP picture. The note is still waiting.")
        session.send(.typed("attach a picture"))
        session.send(.typed("/tmp/club.jpg"))
        session.send(.pictureChecked(path: "/tmp/club.jpg", problem: nil))
        #expect(session.script.said.contains { $0.hasSuffix("Pictures: 1. Save it?") })
        session.send(.typed("yes"))
        #expect(session.notes.first?.pictures.count == 1)
    }

    @Test func helpInTheMiddleOfANoteKeepsTheNote() {
        var session = Session()
        session.send(.typed("note: felt shaky"))
        let effects = session.send(.heard("help"))
        #expect(effects.contains(.showEmergency))
        #expect(session.script.editable == "felt shaky")
        session.send(.heard("yes"))
        #expect(session.notes.count == 1)
    }

    @Test func aNoteWithoutWordsIsAskedForAgain() {
        var session = Session()
        session.send(.typed("add a note"))
        session.send(.typed("yesterday at dinner"))
        #expect(session.script.said == ["That note has no words. What would you like to note?"])
        #expect(session.script.listening == .dictation)
    }
}

@Suite struct EditDialogTests {
    @Test func theLastReadingIsChangedAfterItsReadBack() throws {
        var session = Session()
        session.send(.typed("glucose 6.5 before breakfast"))
        session.send(.typed("yes"))
        session.send(.heard("change the last reading to seven point one"))
        #expect(session.script.said.first == "Change the reading of today at 2:00 PM from 6.5 mmol/L to 7.1 mmol/L?")
        #expect(session.applied.isEmpty)
        session.send(.heard("yes"))
        #expect(session.readings.first?.level.mmolPerL == 7.1)
        #expect(session.readings.first?.tag == .beforeBreakfast, "an unsaid tag stays")
        #expect(session.script.said.first == "Changed: the reading of today at 2:00 PM is now 7.1 mmol/L, before breakfast.")
    }

    @Test func undoTakesBackTheSessionsChangesOneByOne() throws {
        var session = Session()
        session.send(.typed("glucose 6.5"))
        session.send(.typed("yes"))
        session.send(.typed("note: walked the dog"))
        session.send(.typed("yes"))
        session.send(.typed("delete the last reading"))
        #expect(session.script.said.first == "Delete the reading 6.5 mmol/L, today at 2:00 PM?")
        session.send(.typed("yes"))
        #expect(session.readings.isEmpty)

        session.send(.typed("undo"))
        #expect(session.script.said.first == "Undo: bring back the reading 6.5 mmol/L, today at 2:00 PM?")
        session.send(.typed("yes"))
        #expect(session.readings.map(\.id) == [1], "it comes back under its own id")

        session.send(.typed("undo"))
        #expect(session.script.said.first == "Undo: take away note 1: walked the dog?")
        session.send(.typed("no"))
        #expect(session.notes.count == 1)
        session.send(.typed("undo"))
        session.send(.typed("yes"))
        #expect(session.notes.isEmpty)
        session.send(.typed("undo"))
        session.send(.typed("yes"))
        #expect(session.readings.isEmpty)
        session.send(.typed("undo"))
        #expect(session.script.said.first == "There is nothing to undo: nothing has been changed since you started.")
    }

    @Test func nothingToDeleteIsSaid() {
        var session = Session()
        session.send(.typed("delete the last note"))
        #expect(session.script.said.first == "There are no diary notes yet.")
        session.send(.typed("change the last reading to 7.1"))
        #expect(session.script.said.first == "There are no readings to change yet.")
    }

    @Test func anImplausibleNewValueChangesNothing() {
        var session = Session()
        session.send(.typed("glucose 6.5"))
        session.send(.typed("yes"))
        session.send(.typed("change the last reading to 9000"))
        #expect(session.script.said.first?.contains("9000") == true)
        #expect(session.applied.isEmpty)
        #expect(session.script.dialog.state == .idle)
    }

    @Test func quittingWhileAChangeWaitsChangesNothing() {
        var session = Session()
        session.send(.typed("glucose 6.5"))
        session.send(.typed("yes"))
        session.send(.typed("delete the last reading"))
        session.send(.endOfInput)
        #expect(session.script.said.first == "Nothing was changed.")
        #expect(session.readings.count == 1)
    }
}
