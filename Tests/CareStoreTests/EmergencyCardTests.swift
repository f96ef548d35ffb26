import CareModel
import Foundation
import Testing
@testable import CareStore

@Suite struct EmergencyCardTests {
    private func directory() -> DataDirectory {
        DataDirectory(url: FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-card-\(UUID().uuidString)"))
    }

    @Test func contactsAreKeptAsTypedAndRemoved() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir.url) }
        let store = try Store(directory: dir)
        let anna = try store.addContact(EmergencyContact(name: "Anna Li", phone: "+1 (604) 555-0199", relation: "daughter"))
        let ben = try store.addContact(EmergencyContact(name: "Ben", phone: "604 555 0123"))
        #expect(try store.contacts() == [anna, ben])
        #expect(anna.phone == "+1 (604) 555-0199")
        #expect(try store.removeContact(id: try #require(anna.id)))
        #expect(try store.removeContact(id: try #require(anna.id)) == false)
        #expect(try store.contacts().map(\.name) == ["Ben"])
    }

    /// The card follows every change: a new contact, a removed one, a new reading.
    @Test func everyChangeRewritesTheCard() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir.url) }
        #expect(try EmergencyCard.read(from: dir) == nil)
        let store = try Store(directory: dir)
        // Opening writes the card at once, so help always has one to read.
        #expect(try EmergencyCard.read(from: dir)?.contacts == [])
        let anna = try store.addContact(EmergencyContact(name: "Anna", phone: "604 555 0199", relation: "daughter"))
        #expect(try EmergencyCard.read(from: dir)?.contacts == [anna])
        let reading = GlucoseReading(takenAt: Date(timeIntervalSince1970: 1_800_000_000), utcOffsetSeconds: 0,
                                     level: GlucoseLevel(3.1, .mmolPerL), tag: nil, source: .voice)
        let saved = try store.save(reading)
        #expect(try EmergencyCard.read(from: dir)?.summary.latestReading == saved)
        try store.removeContact(id: try #require(anna.id))
        #expect(try EmergencyCard.read(from: dir)?.contacts == [])
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.url.appendingPathComponent(EmergencyCard.fileName).path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
    }

    /// The card is read without the database: garbage in the database file does not reach it.
    @Test func theCardOutlivesABrokenDatabase() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir.url) }
        do {
            let store = try Store(directory: dir)
            try store.addContact(EmergencyContact(name: "Anna", phone: "604 555 0199"))
        }
        try Data(repeating: 0x42, count: 4096).write(to: dir.databaseURL)
        #expect(throws: StoreError.self) { _ = try Store(directory: dir) }
        #expect(try EmergencyCard.read(from: dir)?.contacts.map(\.name) == ["Anna"])
    }
}
