import CareModel
import Foundation
import GRDB
import Logging

/// Why the store could not do what was asked, in words a person can act on.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    case cannotCreateDirectory(String)
    case cannotOpen(path: String, reason: String)
    case writeFailed(String)
    /// A profile field was changed before the questionnaire made a profile.
    case noProfile

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path): return "cannot create the folder \(path)"
        case .cannotOpen(let path, let reason): return "\(path): \(reason)"
        case .writeFailed(let reason): return reason
        case .noProfile: return "there is no profile yet"
        }
    }
}

/// The data directory: where CareVoice keeps its database (and, later, pictures and reports).
public struct DataDirectory: Sendable {
    public var url: URL

    public init(url: URL) { self.url = url }

    /// `$XDG_DATA_HOME/carevoice`, else `~/.local/share/carevoice`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> DataDirectory {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return DataDirectory(url: URL(fileURLWithPath: xdg).appendingPathComponent("carevoice"))
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return DataDirectory(url: URL(fileURLWithPath: home).appendingPathComponent(".local/share/carevoice"))
    }

    public var databaseURL: URL { url.appendingPathComponent("carevoice.sqlite") }

    /// Creates the directory 0700 (health data is nobody else's business).
    public func prepare() throws {
        let fm = FileManager.default
        if !fm.fileExists(atPath: url.path) {
            do {
                try fm.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError.cannotCreateDirectory(url.path)
            }
        }
    }
}

/// SQLite through GRDB: WAL journal, numbered migrations, one transaction per change.
public final class Store: Sendable {
    private let dbQueue: DatabaseQueue
    public let path: String
    /// Where the emergency card and pictures are kept; nil for an in-memory store.
    public let directory: DataDirectory?
    /// The settings until the person changes them. Its language is the one this run speaks
    /// (from --locale or $LANG), so a setting saved in a Chinese session keeps Chinese.
    public let defaults: Settings

    /// Opens (creating if needed) the database in `directory`. The file is 0600.
    /// A file that is not a CareVoice database is never overwritten: opening fails instead.
    public init(directory: DataDirectory, defaults: Settings = Settings()) throws {
        try directory.prepare()
        self.directory = directory
        self.defaults = defaults
        path = directory.databaseURL.path
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(5)
        do {
            dbQueue = try DatabaseQueue(path: path, configuration: config)
            try Self.migrator.migrate(dbQueue)
        } catch let error as DatabaseError {
            throw StoreError.cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
        // Data saved before the card existed gets its card now.
        if !FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(EmergencyCard.fileName).path) {
            do {
                try refreshEmergencyCard()
            } catch {
                Logger(label: "carevoice.store").warning("\(error)")
            }
        }
    }

    /// An in-memory store for tests of code above the store.
    public init(inMemory: Void = ()) throws {
        path = ":memory:"
        directory = nil
        defaults = Settings()
        dbQueue = try DatabaseQueue()
        try Self.migrator.migrate(dbQueue)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1-glucose-readings") { db in
            try db.create(table: "glucose_reading") { t in
                t.autoIncrementedPrimaryKey("id")
                // The instant, as Unix seconds, and the UTC offset where it was taken.
                t.column("taken_at", .double).notNull().indexed()
                t.column("utc_offset_seconds", .integer).notNull()
                t.column("mmol_per_l", .double).notNull()
                t.column("tag", .text)
                t.column("source", .text).notNull()
                t.column("created_at", .double).notNull()
            }
        }
        migrator.registerMigration("2-emergency-contacts") { db in
            try db.create(table: "emergency_contact") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                // As typed: people write numbers the way they dial them.
                t.column("phone", .text).notNull()
                t.column("relation", .text)
                t.column("created_at", .double).notNull()
            }
        }
        migrator.registerMigration("3-profile-and-settings") { db in
            // One row: the person this data file belongs to.
            try db.create(table: "profile") { t in
                t.primaryKey("id", .integer).check { $0 == 1 }
                t.column("date_of_birth", .text).notNull()   // YYYY-MM-DD
                t.column("height_cm", .double).notNull()
                t.column("weight_kg", .double).notNull()
                t.column("sex", .text).notNull()
                t.column("diabetes_type", .text).notNull()
                t.column("country", .text)
                t.column("name", .text)
                t.column("address", .text)
                t.column("allergies", .text).notNull().defaults(to: "[]")   // JSON array
                t.column("updated_at", .double).notNull()
            }
            // One row per setting, its value as JSON: a setting added later needs no migration.
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        registerDiary(&migrator)
        return migrator
    }

    public var journalMode: String {
        ((try? dbQueue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }) ?? nil) ?? "?"
    }

    // MARK: Readings

    @discardableResult
    public func save(_ reading: GlucoseReading, createdAt: Date = Date()) throws -> GlucoseReading {
        try change { db in
            var record = ReadingRecord(reading, createdAt: createdAt)
            try record.insert(db)
            return record.reading
        }
    }

    /// Several readings in one transaction (all or none), e.g. an import.
    public func save(_ readings: [GlucoseReading], createdAt: Date = Date()) throws -> [GlucoseReading] {
        try change { db in
            try readings.map { reading in
                var record = ReadingRecord(reading, createdAt: createdAt)
                try record.insert(db)
                return record.reading
            }
        }
    }

    public func latestReading() throws -> GlucoseReading? {
        try readings(limit: 1).first
    }

    // MARK: Emergency contacts

    public func contacts() throws -> [EmergencyContact] {
        try dbQueue.read { db in try ContactRecord.order(Column("id")).fetchAll(db).map(\.contact) }
    }

    @discardableResult
    public func addContact(_ contact: EmergencyContact, createdAt: Date = Date()) throws -> EmergencyContact {
        try change { db in
            var record = ContactRecord(contact, createdAt: createdAt)
            try record.insert(db)
            return record.contact
        }
    }

    /// - Returns: false when there was no contact with that id.
    @discardableResult
    public func removeContact(id: Int64) throws -> Bool {
        try change { db in try ContactRecord.deleteOne(db, key: id) }
    }

    /// Removes a contact as it was listed: by its id, or by name and number when it has none
    /// (a card written by hand).
    /// - Returns: false when it was no longer there.
    @discardableResult
    public func removeContact(_ contact: EmergencyContact) throws -> Bool {
        if let id = contact.id { return try removeContact(id: id) }
        return try change { db in
            try ContactRecord.filter(Column("name") == contact.name && Column("phone") == contact.phone).deleteAll(db) > 0
        }
    }

    // MARK: Profile and settings

    /// nil until onboarding has been completed.
    public func profile() throws -> Profile? {
        try dbQueue.read { db in try ProfileRecord.fetchOne(db, key: 1)?.profile }
    }

    /// The saved settings over the defaults.
    public func settings() throws -> Settings {
        try dbQueue.read { db in try SettingRows.load(db, defaults: defaults) }
    }

    public func saveProfile(_ profile: Profile, now: Date = Date()) throws {
        try change { db in try ProfileRecord(profile, updatedAt: now).save(db) }
    }

    public func saveSettings(_ settings: Settings) throws {
        try change { db in try SettingRows.save(settings, db) }
    }

    /// One confirmed change, applied to what is on record inside the transaction (so two
    /// programs changing different fields do not undo each other). Returns the settings after it.
    @discardableResult
    public func apply(_ change: ProfileChange, now: Date = Date()) throws -> Settings {
        try self.change { db in
            if change.changesProfile {
                guard let profile = try ProfileRecord.fetchOne(db, key: 1)?.profile else { throw StoreError.noProfile }
                try ProfileRecord(change.applied(to: profile), updatedAt: now).save(db)
            }
            let settings = change.applied(to: try SettingRows.load(db, defaults: defaults))
            try SettingRows.save(settings, db)
            return settings
        }
    }

    /// Everything the onboarding questionnaire gathered, in one transaction: all or nothing.
    public func completeOnboarding(profile: Profile, settings: Settings, contact: EmergencyContact?,
                                   now: Date = Date()) throws {
        try change { db in
            try ProfileRecord(profile, updatedAt: now).save(db)
            try SettingRows.save(settings, db)
            // Answering the questions again keeps the contact already on record, not a copy of it.
            if let contact, try ContactRecord.filter(Column("name") == contact.name && Column("phone") == contact.phone)
                .fetchCount(db) == 0 {
                var record = ContactRecord(contact, createdAt: now)
                try record.insert(db)
            }
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try dbQueue.read(body)
    }

    // MARK: Writing

    /// Every change goes through here: one transaction, then the emergency card is rewritten
    /// so it never lags behind what was saved. The change is saved even if the card cannot be
    /// written (that is logged), so the person is never told a saved reading was lost.
    func change<T>(_ body: (Database) throws -> T) throws -> T {
        let result: T
        do {
            result = try dbQueue.write(body)
        } catch let error as DatabaseError {
            throw StoreError.writeFailed(error.message ?? "\(error.resultCode)")
        }
        do {
            try refreshEmergencyCard()
        } catch {
            Logger(label: "carevoice.store").warning("\(error)")
        }
        return result
    }

    /// The language the person chose or last used, nil until a setting was saved (until then
    /// the system's language decides at each start).
    public func savedLanguage() throws -> Language? {
        try dbQueue.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'language'")
                .flatMap { try? JSONDecoder().decode(Language.self, from: Data($0.utf8)) }
        }
    }

    /// Rewrites the emergency card from the database (see `EmergencyCard`).
    public func refreshEmergencyCard(now: Date = Date()) throws {
        guard let directory else { return }
        let profile = try profile()
        let card = EmergencyCard(
            updatedAt: now, country: profile?.country, language: try savedLanguage(), contacts: try contacts(),
            summary: MedicalSummary(name: profile?.name, diabetesType: profile?.diabetesType,
                                    latestReading: try latestReading(), allergies: profile?.allergies ?? [],
                                    address: profile?.address))
        do {
            try card.write(to: directory)
        } catch {
            throw StoreError.writeFailed("the emergency card \(EmergencyCard.fileName) could not be written: \(error.localizedDescription)")
        }
    }

    /// Newest first.
    public func readings(limit: Int? = nil) throws -> [GlucoseReading] {
        try dbQueue.read { db in
            var request = ReadingRecord.order(Column("taken_at").desc, Column("id").desc)
            if let limit { request = request.limit(limit) }
            return try request.fetchAll(db).map(\.reading)
        }
    }

    /// Oldest first, those taken within `interval` (both ends included), or all of them.
    public func readings(in interval: DateInterval?) throws -> [GlucoseReading] {
        try dbQueue.read { db in
            var request = ReadingRecord.order(Column("taken_at").asc, Column("id").asc)
            if let interval {
                request = request.filter(Column("taken_at") >= interval.start.timeIntervalSince1970
                                         && Column("taken_at") <= interval.end.timeIntervalSince1970)
            }
            return try request.fetchAll(db).map(\.reading)
        }
    }

    /// The readings of a period analysed, and those of the period of the same length just
    /// before it, for comparison (nil for everything on record).
    public func analysis(of range: ReportRange, now: Date = Date(), calendar: Calendar = .current) throws
        -> (current: GlucoseAnalysis, previous: GlucoseAnalysis?) {
        guard let interval = range.interval(endingAt: now, calendar: calendar) else {
            return (GlucoseAnalysis(try readings(in: nil)), nil)
        }
        let before = DateInterval(start: interval.start.addingTimeInterval(-interval.duration),
                                  end: interval.start.addingTimeInterval(-0.001))
        return (GlucoseAnalysis(try readings(in: interval)), GlucoseAnalysis(try readings(in: before)))
    }

    public func readingCount() throws -> Int {
        try dbQueue.read { try ReadingRecord.fetchCount($0) }
    }
}

/// The row layout of `glucose_reading`; kept private to the store.
struct ReadingRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "glucose_reading"
    var id: Int64?
    var taken_at: Double
    var utc_offset_seconds: Int
    var mmol_per_l: Double
    var tag: String?
    var source: String
    var created_at: Double

    init(_ r: GlucoseReading, createdAt: Date) {
        id = r.id
        taken_at = r.takenAt.timeIntervalSince1970
        utc_offset_seconds = r.utcOffsetSeconds
        mmol_per_l = r.level.mmolPerL
        tag = r.tag?.rawValue
        source = r.source.rawValue
        created_at = createdAt.timeIntervalSince1970
    }

    var reading: GlucoseReading {
        GlucoseReading(id: id, takenAt: Date(timeIntervalSince1970: taken_at), utcOffsetSeconds: utc_offset_seconds,
                       level: GlucoseLevel(mmolPerL: mmol_per_l), tag: tag.flatMap(MealTag.init(rawValue:)),
                       source: EntrySource(rawValue: source) ?? .keyboard)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The row layout of `emergency_contact`.
struct ContactRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "emergency_contact"
    var id: Int64?
    var name: String
    var phone: String
    var relation: String?
    var created_at: Double

    init(_ c: EmergencyContact, createdAt: Date) {
        id = c.id
        name = c.name
        phone = c.phone
        relation = c.relation
        created_at = createdAt.timeIntervalSince1970
    }

    var contact: EmergencyContact { EmergencyContact(id: id, name: name, phone: phone, relation: relation) }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The row layout of `profile` (always id 1).
struct ProfileRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "profile"
    var id: Int64 = 1
    var date_of_birth: String
    var height_cm: Double
    var weight_kg: Double
    var sex: String
    var diabetes_type: String
    var country: String?
    var name: String?
    var address: String?
    var allergies: String
    var updated_at: Double

    init(_ p: Profile, updatedAt: Date) {
        date_of_birth = p.dateOfBirth.description
        height_cm = p.heightCm
        weight_kg = p.weightKg
        sex = p.sex.rawValue
        diabetes_type = p.diabetesType.rawValue
        country = p.country
        name = p.name
        address = p.address
        allergies = String(decoding: (try? JSONEncoder().encode(p.allergies)) ?? Data("[]".utf8), as: UTF8.self)
        updated_at = updatedAt.timeIntervalSince1970
    }

    /// nil if a value no longer means anything to this version (it is then asked for again).
    var profile: Profile? {
        guard let birth = CalendarDay(iso: date_of_birth), let sex = Sex(rawValue: sex),
              let type = DiabetesType(rawValue: diabetes_type) else { return nil }
        let allergyList = (try? JSONDecoder().decode([String].self, from: Data(allergies.utf8))) ?? []
        return Profile(dateOfBirth: birth, heightCm: height_cm, weightKg: weight_kg, sex: sex, diabetesType: type,
                       country: country, name: name, address: address, allergies: allergyList)
    }
}

/// Settings as rows of (key, JSON value), read over the defaults.
enum SettingRows {
    static func load(_ db: Database, defaults: Settings) throws -> Settings {
        let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM setting")
        guard !rows.isEmpty else { return defaults }
        var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(defaults)) as? [String: Any] ?? [:]
        for row in rows {
            let key: String = row["key"], value: String = row["value"]
            if let decoded = try? JSONSerialization.jsonObject(with: Data(value.utf8), options: [.fragmentsAllowed]) {
                object[key] = decoded
            }
        }
        // A value this version cannot read falls back to the default rather than failing.
        let data = try JSONSerialization.data(withJSONObject: object)
        return (try? JSONDecoder().decode(Settings.self, from: data)) ?? defaults
    }

    static func save(_ settings: Settings, _ db: Database) throws {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(settings)) as? [String: Any] ?? [:]
        for (key, value) in object {
            let data = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
            try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)",
                           arguments: [key, String(decoding: data, as: UTF8.self)])
        }
        // Settings now back at their default and absent from the encoding (nil) are removed.
        let keys = Array(object.keys)
        try db.execute(sql: "DELETE FROM setting WHERE key NOT IN (\(keys.map { _ in "?" }.joined(separator: ",")))",
                       arguments: StatementArguments(keys))
    }
}
