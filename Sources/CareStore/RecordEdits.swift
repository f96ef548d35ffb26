import CareModel
import Foundation
import GRDB

extension Store {
    /// The picture library beside the database (for an in-memory store, one in a temporary
    /// directory of this process).
    public var pictureLibrary: PictureLibrary {
        directory.map(PictureLibrary.init) ?? PictureLibrary(directory: FileManager.default.temporaryDirectory
            .appendingPathComponent("carevoice-pictures-\(ProcessInfo.processInfo.processIdentifier)"))
    }

    /// Makes one confirmed change and says what was done, with the ids the store gave, so the
    /// change can be taken back (`RecordEdit.inverse`). A note deleted here comes back with the
    /// contents of its picture files, so that undoing the delete can restore them.
    public func apply(_ edit: RecordEdit) throws -> RecordEdit {
        switch edit {
        case .addReading(let reading):
            return .addReading(try save(reading))
        case .changeReading(let reading, let was):
            guard try update(reading) else { throw StoreError.writeFailed("reading \(reading.id.map(String.init) ?? "?") is no longer on record") }
            return .changeReading(reading, was: was)
        case .deleteReading(let reading):
            guard let id = reading.id, let deleted = try deleteReading(id: id) else {
                throw StoreError.writeFailed("reading \(reading.id.map(String.init) ?? "?") is no longer on record")
            }
            return .deleteReading(deleted)
        case .addNote(let entry, let pictures):
            let library = pictureLibrary
            for (name, data) in pictures.sorted(by: { $0.key < $1.key }) { try library.store((name, data)) }
            return .addNote(try saveDiary(entry, library: library))
        case .changeNote(let entry, let was):
            guard try updateDiary(entry) else { throw StoreError.writeFailed("note \(entry.id.map(String.init) ?? "?") is no longer on record") }
            return .changeNote(entry, was: was)
        case .deleteNote(let entry, _):
            let library = pictureLibrary
            guard let id = entry.id else { throw StoreError.writeFailed("a note that was never saved cannot be deleted") }
            guard let current = try diaryEntry(id: id) else { throw StoreError.writeFailed("note \(id) is no longer on record") }
            var kept: [String: Data] = [:]
            for name in current.pictures { kept[name] = FileManager.default.contents(atPath: library.url(of: name).path) }
            guard let deleted = try deleteDiary(id: id, library: library) else { throw StoreError.writeFailed("note \(id) is no longer on record") }
            return .deleteNote(deleted, pictures: kept)
        }
    }

    /// Replaces a reading's value, tag and time; false when there is no reading with its id.
    public func update(_ reading: GlucoseReading) throws -> Bool {
        guard let id = reading.id else { return false }
        return try change { db in
            try db.execute(sql: "UPDATE glucose_reading SET taken_at = ?, utc_offset_seconds = ?, mmol_per_l = ?, tag = ? WHERE id = ?",
                           arguments: [reading.takenAt.timeIntervalSince1970, reading.utcOffsetSeconds, reading.level.mmolPerL,
                                       reading.tag?.rawValue, id])
            return db.changesCount == 1
        }
    }

    /// Replaces a note's time, title, text and tags (its pictures stay); false when there is no
    /// note with its id.
    public func updateDiary(_ entry: DiaryEntry) throws -> Bool {
        guard let id = entry.id else { return false }
        let tags = DiaryEntry.normalizedTags(entry.tags)
        return try change { db in
            try db.execute(sql: "UPDATE diary_entry SET taken_at = ?, utc_offset_seconds = ?, title = ?, body = ? WHERE id = ?",
                           arguments: [entry.takenAt.timeIntervalSince1970, entry.utcOffsetSeconds, entry.title, entry.body, id])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "DELETE FROM diary_tag WHERE entry_id = ?", arguments: [id])
            for (position, tag) in tags.enumerated() {
                try db.execute(sql: "INSERT INTO diary_tag (entry_id, position, tag) VALUES (?, ?, ?)", arguments: [id, position, tag])
            }
            return true
        }
    }

    /// Deletes a reading; nil when there is none with that id.
    public func deleteReading(id: Int64) throws -> GlucoseReading? {
        try change { db in
            guard let record = try ReadingRecord.fetchOne(db, key: id) else { return nil }
            try db.execute(sql: "DELETE FROM glucose_reading WHERE id = ?", arguments: [id])
            return record.reading
        }
    }

    public func reading(id: Int64) throws -> GlucoseReading? {
        try read { try ReadingRecord.fetchOne($0, key: id)?.reading }
    }

    /// The newest reading and the newest note (by when they happened), for "the last reading".
    public func lastRecords() throws -> (reading: GlucoseReading?, note: DiaryEntry?) {
        (try latestReading(), try diaryEntries().first)
    }
}
