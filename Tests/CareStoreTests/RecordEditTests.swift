import CareModel
import Foundation
import Testing
@testable import CareStore

/// Changes to what is on record and their undoing, on a real database in a real directory.
@Suite struct RecordEditTests {
    let directory = DataDirectory(url: FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-edits-\(UUID().uuidString)"))

    func reading(_ mmol: Double, at seconds: TimeInterval) -> GlucoseReading {
        GlucoseReading(takenAt: Date(timeIntervalSince1970: seconds), utcOffsetSeconds: 0, level: GlucoseLevel(mmol, .mmolPerL),
                       tag: .beforeBreakfast, source: .voice)
    }

    @Test func aChangedReadingIsPutBackAsItWas() throws {
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let store = try Store(directory: directory)
        let saved = try store.save(reading(6.5, at: 1_000_000))
        var changed = saved
        changed.level = GlucoseLevel(7.1, .mmolPerL)
        changed.tag = .afterLunch
        let done = try store.apply(.changeReading(changed, was: saved))
        #expect(try store.reading(id: saved.id!) == changed)
        _ = try store.apply(done.inverse)
        #expect(try store.reading(id: saved.id!) == saved)
    }

    @Test func aDeletedReadingComesBackUnderItsOwnId() throws {
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let store = try Store(directory: directory)
        let first = try store.save(reading(6.5, at: 1_000_000))
        let second = try store.save(reading(8.0, at: 2_000_000))
        let done = try store.apply(.deleteReading(first))
        #expect(try store.readings().map(\.id) == [second.id])
        _ = try store.apply(done.inverse)
        #expect(try store.readings() == [second, first])
        // The emergency card follows: the latest reading is still the second.
        #expect(throws: StoreError.self) { try store.apply(.deleteReading(GlucoseReading(id: 99, takenAt: Date(), utcOffsetSeconds: 0,
                                                                                        level: GlucoseLevel(5, .mmolPerL), tag: nil, source: .voice))) }
    }

    @Test func aDeletedNoteComesBackWithItsPictures() throws {
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let store = try Store(directory: directory)
        let picture = directory.url.appendingPathComponent("bowl.jpg")
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let bytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 74, 70, 73, 70, 0, 1, 42])
        try bytes.write(to: picture)
        let entry = DiaryEntry(takenAt: Date(timeIntervalSince1970: 1_000_000), utcOffsetSeconds: 3600, title: "Porridge",
                               body: "Porridge with banana", tags: ["breakfast", "oats"])
        let saved = try store.saveDiary(entry, pictures: [picture.path], library: store.pictureLibrary)
        let file = store.pictureLibrary.url(of: saved.pictures[0])

        let done = try store.apply(.deleteNote(saved))
        #expect(try store.diaryEntries().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path), "the picture went with its only note")
        guard case .deleteNote(_, let kept) = done else { Issue.record("not a delete: \(done)"); return }
        #expect(kept == [saved.pictures[0]: bytes])

        _ = try store.apply(done.inverse)
        #expect(try store.diaryEntries() == [saved])
        #expect(FileManager.default.contents(atPath: file.path) == bytes)
    }

    @Test func aChangedNoteKeepsItsPicturesAndGetsItsNewTags() throws {
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let store = try Store(directory: directory)
        let saved = try store.saveDiary(DiaryEntry(takenAt: Date(timeIntervalSince1970: 1_000_000), utcOffsetSeconds: 0, title: "Walk",
                                                   body: "", tags: ["exercise"]), library: store.pictureLibrary)
        var changed = saved
        changed.title = "Long walk"
        changed.tags = ["exercise", "Friends"]
        let done = try store.apply(.changeNote(changed, was: saved))
        #expect(try store.diaryEntries().first?.title == "Long walk")
        #expect(try store.diaryEntries().first?.tags == ["exercise", "friends"])
        _ = try store.apply(done.inverse)
        #expect(try store.diaryEntries() == [saved])
    }
}
