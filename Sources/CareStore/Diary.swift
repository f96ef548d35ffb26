import CareModel
import Foundation
import GRDB

/// Pictures attached to diary entries: `pictures/` in the data directory, each file named by the
/// SHA-256 of its content, so a picture attached twice is stored once.
public struct PictureLibrary: Sendable {
    public let directory: URL

    public init(dataDirectory: DataDirectory) {
        self.init(directory: dataDirectory.url.appendingPathComponent("pictures"))
    }

    public init(directory: URL) {
        self.directory = directory
    }

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case missing(String)
        case notAPicture(String)
        public var description: String {
            switch self {
            case .missing(let path): return "\(path) does not exist"
            case .notAPicture(let path): return "\(path) is not a JPEG, PNG, HEIC or WebP picture"
            }
        }
    }

    /// Reads and checks a picture (by its first bytes); nothing is copied yet. A path typed in the
    /// conversation is taken as a shell would have given it: "~/" is the home directory, and the
    /// quotes a terminal adds around a dragged-in file are not part of it.
    public static func check(_ path: String) throws -> (name: String, data: Data) {
        var path = path.trimmingCharacters(in: .whitespacesAndNewlines)
        if path.count >= 2, let first = path.first, first == path.last, first == "'" || first == "\"" {
            path = String(path.dropFirst().dropLast())
        }
        if path == "~" || path.hasPrefix("~/") {
            // As a shell does: $HOME (Foundation's own expansion looks up the password file instead).
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            path = home + path.dropFirst()
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw Problem.missing(path) }
        guard let format = PictureFormat.detect(Array(data.prefix(16))) else { throw Problem.notAPicture(path) }
        return (SHA256.hex(Array(data)) + "." + format.fileExtension, data)
    }

    /// Stores a checked picture under its name (a no-op when it is already there).
    public func store(_ picture: (name: String, data: Data)) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(picture.name)
        if !FileManager.default.fileExists(atPath: url.path) { try picture.data.write(to: url, options: .atomic) }
    }

    func remove(_ name: String) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }

    public func url(of name: String) -> URL { directory.appendingPathComponent(name) }
}

extension Store {
    static func registerDiary(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("4-diary") { db in
            try db.create(table: "diary_entry") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("taken_at", .double).notNull().indexed()
                t.column("utc_offset_seconds", .integer).notNull()
                t.column("title", .text).notNull()
                t.column("body", .text).notNull()
                t.column("created_at", .double).notNull()
            }
            try db.create(table: "diary_tag") { t in
                t.column("entry_id", .integer).notNull().indexed().references("diary_entry", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("tag", .text).notNull()
                t.primaryKey(["entry_id", "position"])
            }
            try db.create(table: "diary_picture") { t in
                t.column("entry_id", .integer).notNull().indexed().references("diary_entry", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("file", .text).notNull().indexed()
                t.primaryKey(["entry_id", "position"])
            }
        }
    }

    /// Saves an entry with its tags and pictures: the picture files first, then the rows in one
    /// transaction; if that fails, no picture this call added is left behind.
    /// - Parameter pictures: paths of pictures to attach, checked before anything is written.
    public func saveDiary(_ entry: DiaryEntry, pictures paths: [String] = [], library: PictureLibrary,
                          createdAt: Date = Date()) throws -> DiaryEntry {
        let checked = try paths.map(PictureLibrary.check)
        let newFiles = checked.filter { !FileManager.default.fileExists(atPath: library.url(of: $0.name).path) }.map(\.name)
        var entry = entry
        entry.tags = DiaryEntry.normalizedTags(entry.tags)
        var seen = Set<String>()
        entry.pictures = (entry.pictures + checked.map(\.name)).filter { seen.insert($0).inserted }   // each picture once
        do {
            for picture in checked { try library.store(picture) }
            let saved = entry
            return try change { db in
                // An entry put back (undo) keeps the id it had.
                try db.execute(sql: "INSERT INTO diary_entry (id, taken_at, utc_offset_seconds, title, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [saved.id, saved.takenAt.timeIntervalSince1970, saved.utcOffsetSeconds, saved.title, saved.body,
                                           createdAt.timeIntervalSince1970])
                var stored = saved
                stored.id = db.lastInsertedRowID
                for (position, tag) in saved.tags.enumerated() {
                    try db.execute(sql: "INSERT INTO diary_tag (entry_id, position, tag) VALUES (?, ?, ?)", arguments: [stored.id, position, tag])
                }
                for (position, file) in saved.pictures.enumerated() {
                    try db.execute(sql: "INSERT INTO diary_picture (entry_id, position, file) VALUES (?, ?, ?)", arguments: [stored.id, position, file])
                }
                return stored
            }
        } catch {
            newFiles.forEach(library.remove)
            throw error
        }
    }

    /// What was recorded on a day, each on the clock where it was recorded (the query is wide
    /// enough for any UTC offset).
    public func records(on day: CalendarDay) throws -> (readings: [GlucoseReading], notes: [DiaryEntry]) {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let midnight = utc.date(from: DateComponents(year: day.year, month: day.month, day: day.day))!
        let wide = DateInterval(start: midnight.addingTimeInterval(-14 * 3600), end: midnight.addingTimeInterval(38 * 3600))
        return (try readings(in: wide).filter { $0.localDay == day }, try diaryEntries().filter { $0.localDay == day }.reversed())
    }

    /// Newest first.
    public func diaryEntries() throws -> [DiaryEntry] {
        try read { db in
            let tags = Dictionary(grouping: try Row.fetchAll(db, sql: "SELECT entry_id, tag FROM diary_tag ORDER BY entry_id, position"),
                                  by: { $0["entry_id"] as Int64 })
            let pictures = Dictionary(grouping: try Row.fetchAll(db, sql: "SELECT entry_id, file FROM diary_picture ORDER BY entry_id, position"),
                                      by: { $0["entry_id"] as Int64 })
            return try Row.fetchAll(db, sql: "SELECT * FROM diary_entry ORDER BY taken_at DESC, id DESC").map { row in
                let id: Int64 = row["id"]
                return DiaryEntry(id: id, takenAt: Date(timeIntervalSince1970: row["taken_at"]), utcOffsetSeconds: row["utc_offset_seconds"],
                                  title: row["title"], body: row["body"], tags: (tags[id] ?? []).map { $0["tag"] },
                                  pictures: (pictures[id] ?? []).map { $0["file"] })
            }
        }
    }

    public func diaryEntry(id: Int64) throws -> DiaryEntry? {
        try diaryEntries().first { $0.id == id }
    }

    /// Deletes an entry, and each of its pictures that no other entry shows. nil when there is
    /// no entry with that id.
    public func deleteDiary(id: Int64, library: PictureLibrary) throws -> DiaryEntry? {
        guard let entry = try diaryEntry(id: id) else { return nil }
        let orphaned: [String] = try change { db in
            try db.execute(sql: "DELETE FROM diary_entry WHERE id = ?", arguments: [id])
            return try entry.pictures.filter { file in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM diary_picture WHERE file = ?", arguments: [file]) == 0
            }
        }
        orphaned.forEach(library.remove)
        return entry
    }
}
