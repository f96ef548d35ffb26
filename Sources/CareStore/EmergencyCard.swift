import CareModel
import Foundation

/// What emergency help needs from the person's data, kept in a small plain file beside the
/// database and rewritten by the store after every change: the emergency path reads this file
/// only, so contacts and the medical summary survive a database that is missing, locked or broken.
/// The database stays the record; this is a copy of the part that must never be out of reach.
public struct EmergencyCard: Sendable, Equatable, Codable {
    public var updatedAt: Date
    /// From the profile: which emergency numbers to give when --country does not say.
    public var country: String?
    /// The language setting: help is given in it even when the database cannot be read, and
    /// every command starts in it. nil on cards written before it was kept.
    public var language: Language?
    public var contacts: [EmergencyContact]
    public var summary: MedicalSummary

    public init(updatedAt: Date, country: String? = nil, language: Language? = nil, contacts: [EmergencyContact],
                summary: MedicalSummary) {
        self.updatedAt = updatedAt
        self.country = country
        self.language = language
        self.contacts = contacts
        self.summary = summary
    }

    public static let fileName = "emergency-card.json"

    /// Reads the card; nil when there is none yet (nothing recorded).
    public static func read(from directory: DataDirectory) throws -> EmergencyCard? {
        let url = directory.url.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(EmergencyCard.self, from: Data(contentsOf: url))
    }

    /// Writes the card atomically (a reader never sees half a file), readable by the owner only.
    func write(to directory: DataDirectory) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let url = directory.url.appendingPathComponent(Self.fileName)
        try encoder.encode(self).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}
