import CareModel
import Foundation
import Testing
@testable import CareStore

private func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-store-\(UUID().uuidString)")
    return url
}

@Suite struct StoreTests {
    @Test func savesAndListsNewestFirstUnrounded() throws {
        let dir = DataDirectory(url: temporaryDirectory())
        defer { try? FileManager.default.removeItem(at: dir.url) }
        let store = try Store(directory: dir)
        let early = GlucoseReading(takenAt: Date(timeIntervalSince1970: 1_000_000), utcOffsetSeconds: 3600,
                                   level: GlucoseLevel(101, .mgPerDL), tag: .fasting, source: .voice)
        let late = GlucoseReading(takenAt: Date(timeIntervalSince1970: 2_000_000), utcOffsetSeconds: -28800,
                                  level: GlucoseLevel(6.5, .mmolPerL), tag: nil, source: .keyboard)
        try store.save(early)
        let saved = try store.save(late)
        #expect(saved.id != nil)
        let all = try store.readings()
        #expect(all.map(\.level) == [late.level, early.level])
        #expect(all[1].level.mmolPerL == 101 / 18.016)
        #expect(all[1].tag == .fasting)
        #expect(all[1].utcOffsetSeconds == 3600)
        #expect(all[0].source == .keyboard)
    }

    /// A range keeps both ends and returns oldest first.
    @Test func readingsInARangeAreOldestFirstWithBothEnds() throws {
        let dir = DataDirectory(url: temporaryDirectory())
        defer { try? FileManager.default.removeItem(at: dir.url) }
        let store = try Store(directory: dir)
        for (seconds, value) in [(100.0, 5.0), (200, 6.0), (300, 7.0), (400, 8.0)] {
            try store.save(GlucoseReading(takenAt: Date(timeIntervalSince1970: seconds), utcOffsetSeconds: 0,
                                          level: GlucoseLevel(value, .mmolPerL), tag: nil, source: .keyboard))
        }
        let inside = try store.readings(in: DateInterval(start: Date(timeIntervalSince1970: 200), end: Date(timeIntervalSince1970: 300)))
        #expect(inside.map(\.level.mmolPerL) == [6.0, 7.0])
        #expect(try store.readings(in: nil).map(\.level.mmolPerL) == [5.0, 6.0, 7.0, 8.0])
    }

    @Test func usesWALAndPrivatePermissions() throws {
        let dir = DataDirectory(url: temporaryDirectory().appendingPathComponent("nested"))
        defer { try? FileManager.default.removeItem(at: dir.url.deletingLastPathComponent()) }
        let store = try Store(directory: dir)
        #expect(store.journalMode == "wal")
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir.url.path)[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: dir.databaseURL.path)[.posixPermissions] as? Int
        #expect(dirMode == 0o700)
        #expect(fileMode == 0o600)
    }

    @Test func keepsDataAcrossReopening() throws {
        let dir = DataDirectory(url: temporaryDirectory())
        defer { try? FileManager.default.removeItem(at: dir.url) }
        try Store(directory: dir).save(GlucoseReading(takenAt: Date(), utcOffsetSeconds: 0, level: GlucoseLevel(mmolPerL: 5),
                                                      tag: nil, source: .voice))
        #expect(try Store(directory: dir).readingCount() == 1)
    }

    @Test func aCorruptFileIsReportedAndLeftAlone() throws {
        let dir = DataDirectory(url: temporaryDirectory())
        defer { try? FileManager.default.removeItem(at: dir.url) }
        try dir.prepare()
        let garbage = Data(repeating: 0x42, count: 4096)
        try garbage.write(to: dir.databaseURL)
        #expect(throws: StoreError.self) { try Store(directory: dir) }
        #expect(try Data(contentsOf: dir.databaseURL) == garbage)
    }

    @Test func standardDirectoryFollowsXDG() {
        #expect(DataDirectory.standard(environment: ["XDG_DATA_HOME": "/x"]).url.path == "/x/carevoice")
        #expect(DataDirectory.standard(environment: ["HOME": "/home/a"]).url.path == "/home/a/.local/share/carevoice")
    }
}

@Suite struct ProfileChangeStoreTests {
    @Test func aChangeIsSavedInPlaceAndSettingsPersist() throws {
        let dir = DataDirectory(url: temporaryDirectory())
        defer { try? FileManager.default.removeItem(at: dir.url) }
        let store = try Store(directory: dir)
        #expect(throws: StoreError.noProfile) { try store.apply(.answer(.weight(kg: 70))) }
        // Settings need no profile.
        let settings = try store.apply(.speechRate(wordsPerMinute: 120))
        #expect(settings.speechRate == 120)

        let profile = Profile(dateOfBirth: CalendarDay(year: 1948, month: 3, day: 4), heightCm: 170, weightKg: 72,
                              sex: .female, diabetesType: .type2, country: "CA")
        try store.saveProfile(profile)
        try store.apply(.answer(.weight(kg: 70)))
        try store.apply(.allergies(["penicillin"]))
        let reopened = try Store(directory: dir)
        #expect(try reopened.profile()?.weightKg == 70)
        #expect(try reopened.profile()?.heightCm == 170)
        #expect(try reopened.settings().speechRate == 120)
        // The emergency card follows every change.
        let card = try EmergencyCard.read(from: dir)
        #expect(card?.summary.allergies == ["penicillin"])
    }
}
