import CareSpeech
import CareTestSupport
import Foundation
import GRDB
import Testing

/// Emergency help from the binary: the command, contacts, and help when the data file is broken.
@Suite struct EmergencyCommandTests {
    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func showsTheCountrysNumbersContactsAndSummary() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let added = try CLI.run(["contacts", "add", "--name", "Anna Li", "--phone", "+1 (604) 555-0199",
                                 "--relation", "daughter", "--data-dir", dir.path])
        #expect(added.stdout == "Added to your emergency contacts: 1. Anna Li (daughter): +1 (604) 555-0199.\n")
        _ = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "glucose 3.1\nyes\nno\n")

        let run = try CLI.run(["emergency", "--country", "ca", "--data-dir", dir.path])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["Emergency help (Canada).", "Ambulance, police and fire: 911."])
        #expect(lines.contains("Anna Li (daughter): +1 (604) 555-0199."))
        #expect(lines.contains { $0.hasPrefix("For the ambulance crew: latest glucose 3.1 mmol/L (56 mg/dL)") })
        #expect(lines.contains("Poison information, Poison and Drug Information: 1 844 764 7669."))

        let object = try json(try CLI.run(["emergency", "--json", "--country", "AU", "--data-dir", dir.path]).stdout)
        #expect(object["country"] as? String == "AU")
        #expect(object["ambulance"] as? [String] == ["000"])
        #expect(object["police"] as? [String] == ["000"])
        #expect(object["fire"] as? [String] == ["000"])
        #expect((object["helplines"] as? [[String: Any]])?.first?["number"] as? String == "13 11 26")
        #expect((object["contacts"] as? [[String: Any]])?.first?["phone"] as? String == "+1 (604) 555-0199")
        #expect((object["summary"] as? String)?.hasPrefix("latest glucose 3.1 mmol/L") == true)
    }

    /// 救命 typed in an English session brings the country's numbers, as "help" does.
    @Test func aChineseCallForHelpTypedInAnEnglishSession() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["--text", "--no-speech", "--locale", "en", "--country", "GB", "--data-dir", dir.path],
                              input: "救命\ngoodbye\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Emergency help (United Kingdom).\nAmbulance, police and fire: 999."), "\(run.stdout)")
        #expect(!run.stdout.contains("Sorry, I didn't catch that."), "\(run.stdout)")
    }

    @Test func theWholeTableAsJSON() throws {
        let run = try CLI.run(["emergency", "--all", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(entries.count >= 80)
        let china = try #require(entries.first { $0["country"] as? String == "CN" })
        #expect(china["ambulance"] as? [String] == ["120"])
        #expect(china["police"] as? [String] == ["110"])
        #expect(china["fire"] as? [String] == ["119"])
        #expect(entries.allSatisfy { $0["contacts"] == nil && $0["summary"] == nil })
    }

    @Test func withoutACountryItIs112() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let object = try json(try CLI.run(["emergency", "--json", "--data-dir", dir.path]).stdout)
        #expect(object["country"] is NSNull)
        #expect(object["ambulance"] as? [String] == ["112"])
        let lines = try CLI.run(["emergency", "--data-dir", dir.path]).stdout
        #expect(lines.contains("I don't know which country you are in, so call 112"))
    }

    @Test func contactsAreCheckedListedAndRemoved() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = try CLI.run(["contacts", "add", "--name", "Ben", "--phone", "12", "--data-dir", dir.path])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("12 doesn't look like a phone number: it has fewer than 5 digits."))
        let noName = try CLI.run(["contacts", "add", "--name", " ", "--phone", "604 555 0199", "--data-dir", dir.path])
        #expect(noName.stderr.contains("An emergency contact needs a name."))
        #expect(try CLI.run(["contacts", "--data-dir", dir.path]).stdout == "You have no emergency contacts yet. Add one with: carevoice contacts add.\n")

        _ = try CLI.run(["contacts", "add", "--name", "Ben", "--phone", "604 555 0123", "--data-dir", dir.path])
        _ = try CLI.run(["contacts", "add", "--name", "Dr Chan", "--phone", "604-555-0100", "--relation", "doctor", "--data-dir", dir.path])
        #expect(try CLI.run(["contacts", "list", "--data-dir", dir.path]).stdout
                == "1. Ben: 604 555 0123.\n2. Dr Chan (doctor): 604-555-0100.\n")
        #expect(try CLI.run(["contacts", "remove", "1", "--data-dir", dir.path]).stdout
                == "Removed from your emergency contacts: 1. Ben: 604 555 0123.\n")
        // Numbers are places in the list: the one left is number 1 now.
        #expect(try CLI.run(["contacts", "--data-dir", dir.path]).stdout == "1. Dr Chan (doctor): 604-555-0100.\n")
        let missing = try CLI.run(["contacts", "remove", "7", "--data-dir", dir.path])
        #expect(missing.status != 0 && missing.stderr.contains("There is no emergency contact number 7."))
        let listed = try JSONSerialization.jsonObject(with: Data(try CLI.run(["contacts", "--json", "--data-dir", dir.path]).stdout.utf8)) as? [[String: Any]]
        #expect(listed?.map { $0["name"] as? String } == ["Dr Chan"])
    }

    // MARK: A broken data file

    /// Sets up a person with a contact and a reading, then breaks their database in `how`.
    private func brokenDatabase(_ how: (URL) throws -> Void) throws -> URL {
        let dir = CLI.temporaryDirectory()
        _ = try CLI.run(["contacts", "add", "--name", "Anna", "--phone", "604 555 0199", "--data-dir", dir.path])
        _ = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "glucose 5.5\nyes\n")
        try how(dir.appendingPathComponent("carevoice.sqlite"))
        return dir
    }

    private func expectHelpStillComes(_ dir: URL, summary: Bool = true) throws {
        let command = try CLI.run(["emergency", "--country", "GB", "--data-dir", dir.path])
        #expect(command.status == 0, "\(command.stderr)")
        #expect(command.stdout.contains("Ambulance, police and fire: 999."))
        #expect(command.stdout.contains("Anna: 604 555 0199.") == summary)
        #expect(command.stdout.contains("latest glucose 5.5 mmol/L") == summary)
        let loop = try CLI.run(["--text", "--no-speech", "--country", "GB", "--data-dir", dir.path], input: "help\nquit\n")
        #expect(loop.status == 0, "\(loop.stderr)")
        #expect(loop.stdout.contains("Ambulance, police and fire: 999."))
        #expect(!loop.stderr.contains("Fatal"))
    }

    @Test func helpComesWhenTheDatabaseIsGarbage() throws {
        let garbage = Data(repeating: 0x5A, count: 8192)
        let dir = try brokenDatabase { try garbage.write(to: $0) }
        defer { try? FileManager.default.removeItem(at: dir) }
        try expectHelpStillComes(dir)
        #expect(try Data(contentsOf: dir.appendingPathComponent("carevoice.sqlite")) == garbage, "never overwritten")
    }

    @Test func helpComesWhenTheDatabaseIsMissing() throws {
        let dir = try brokenDatabase { file in
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        try expectHelpStillComes(dir)
    }

    /// Another process holds the database with an exclusive lock, readers included.
    @Test func helpComesWhenAnotherProcessLocksTheDatabase() throws {
        let dir = try brokenDatabase { _ in }
        defer { try? FileManager.default.removeItem(at: dir) }
        let holder = try DatabaseQueue(path: dir.appendingPathComponent("carevoice.sqlite").path)
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        Thread {
            try? holder.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
                try db.execute(sql: "BEGIN EXCLUSIVE")
                try db.execute(sql: "CREATE TABLE held (x)")
                locked.signal()
                release.wait()
                try db.execute(sql: "ROLLBACK")
            }
            released.signal()
        }.start()
        #expect(locked.wait(timeout: .now() + 10) == .success)
        let started = Date()
        try expectHelpStillComes(dir)
        print("help with the database locked by another process: \(String(format: "%.1f", Date().timeIntervalSince(started))) s for both runs")
        release.signal()
        released.wait()
    }

    /// Both the database and the card are broken: the numbers still come, and the summary says why it is missing.
    @Test func helpComesWhenTheCardIsBrokenToo() throws {
        let dir = try brokenDatabase { try Data(repeating: 1, count: 4096).write(to: $0) }
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("{not json".utf8).write(to: dir.appendingPathComponent("emergency-card.json"))
        try expectHelpStillComes(dir, summary: false)
        let command = try CLI.run(["emergency", "--country", "GB", "--data-dir", dir.path])
        #expect(command.stdout.contains("Your medical details can't be read right now (emergency-card.json:"))
    }
}

/// Every emergency phrase, said, in every state of the dialog, through `--audio-in`.
@Suite(.serialized) struct SpokenEmergencyTests {
    static let phrases = ["help", "help me", "emergency", "call an ambulance", "ambulance"]

    private func run(_ sentences: [String]) throws -> String {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(sentences, in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--country", "US", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout
    }

    private func count(_ text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    @Test func whileWaitingForAReading() throws {
        let output = try run(Self.phrases)
        #expect(count("Ambulance, police and fire: 911.", in: output) == Self.phrases.count, "\(output)")
    }

    @Test func whileConfirmingAReading() throws {
        let output = try run(["glucose seven point two"] + Self.phrases + ["no"])
        #expect(count("Ambulance, police and fire: 911.", in: output) == Self.phrases.count, "\(output)")
        #expect(count("When you're ready, we can go on. 7.2 mmol/L. Shall I save it?", in: output) == Self.phrases.count)
        #expect(output.contains("Not saved."))
    }

    /// A Chinese speaker's calls for help are heard in an English session
    /// (`speech.heardCallsForHelp`), where a reading is awaited and where a yes is.
    @Test(arguments: ["救命", "叫救护车"], ["reading", "answer"])
    func aChineseCallForHelpIsHeardInEnglish(_ phrase: String, _ state: String) throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.chinese([phrase], in: dir)
        let run = try CLI.run(["listen", "--locale", "en", "--audio-in", wav.path, "--state", state])
        #expect(run.stdout == "\(phrase)\n", "\(run.stderr)")
    }

    /// ... and answered as "help" is: the numbers, then the reading that waited is asked about again.
    @Test func aChineseCallForHelpInAnEnglishSession() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let speller = try #require(try Session.resources.pinyinSpeller(for: Session.chineseTable))
        let audio = try SpokenFixtures.session([(speller.spell("救命"), "cmn-latn-pinyin"), ("glucose seven point two", "en-us"),
                                                (speller.spell("叫救护车"), "cmn-latn-pinyin"), ("no", "en-us")])
        let wav = dir.appendingPathComponent("session.wav")
        try WAVFile.write(audio, to: wav)
        let output = try CLI.run(["--audio-in", wav.path, "--no-speech", "--locale", "en", "--country", "US", "--data-dir", dir.path]).stdout
        #expect(count("Ambulance, police and fire: 911.", in: output) == 2, "\(output)")
        #expect(output.contains("When you're ready, we can go on. 7.2 mmol/L. Shall I save it?"), "\(output)")
        #expect(output.contains("Not saved."), "\(output)")
    }

    @Test func whenOfferedHelpAfterAVeryLowReading() throws {
        let output = try run(["glucose two point five", "yes", "emergency"])
        #expect(output.contains("Shall I read out the emergency numbers and your contacts?"), "\(output)")
        #expect(count("Ambulance, police and fire: 911.", in: output) == 1, "\(output)")
    }
}

/// Emergency contacts in the assistant, through the real recognizer and the real store.
@Suite(.serialized) struct SpokenContactTests {
    private func withContacts(_ body: (URL) throws -> Void) throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CLI.run(["contacts", "add", "--name", "Anna Li", "--phone", "604 555 0199", "--relation", "daughter", "--data-dir", dir.path])
        _ = try CLI.run(["contacts", "add", "--name", "Ben", "--phone", "604 555 0123", "--data-dir", dir.path])
        try body(dir)
    }

    @Test func listedAndRemovedByVoiceWithHelpInBetween() throws {
        try withContacts { dir in
            let wav = try Session.wav(["read my contacts", "remove contact number two", "help", "yes"], in: dir)
            let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--country", "US", "--data-dir", dir.path])
            #expect(run.status == 0, "\(run.stderr)")
            let out = run.stdout
            #expect(out.contains("Your emergency contacts:\n1. Anna Li (daughter): 604 555 0199.\n2. Ben: 604 555 0123.\nTo remove one"), "\(out)")
            #expect(out.contains("Remove this emergency contact? 2. Ben: 604 555 0123. Say yes or no."))
            #expect(out.contains("Ambulance, police and fire: 911."))
            #expect(out.contains("Removed from your emergency contacts: 2. Ben: 604 555 0123."))
            #expect(try CLI.run(["contacts", "--data-dir", dir.path]).stdout == "1. Anna Li (daughter): 604 555 0199.\n")
            // The emergency card, which help reads when the database cannot be, has changed too.
            let help = try CLI.run(["emergency", "--country", "US", "--data-dir", dir.path]).stdout
            #expect(help.contains("Anna Li") && !help.contains("Ben"), "\(help)")
        }
    }

    @Test func addingCancelledByVoiceChangesNothing() throws {
        try withContacts { dir in
            let wav = try Session.wav(["add a contact", "cancel"], in: dir)
            let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
            #expect(run.stdout.contains("Who should I add? Type their name and press Enter, or say cancel."), "\(run.stdout)")
            #expect(run.stdout.contains("Your emergency contacts are unchanged."))
            #expect(try CLI.run(["contacts", "--data-dir", dir.path]).stdout.split(separator: "\n").count == 2)
        }
    }

    /// The name typed, the rest typed or said: the same road in the runtime and the store.
    @Test func addedByTypingInTheAssistant() throws {
        try withContacts { dir in
            let run = try CLI.run(["--no-speech", "--data-dir", dir.path],
                                  input: "add a contact\nDr Chan\n(604) 555-0100\ndoctor\nyes\nread my contacts\nquit\n")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("Contact: Dr Chan, (604) 555-0100, doctor"), "\(run.stdout)")
            #expect(run.stdout.contains("Added to your emergency contacts: 3. Dr Chan (doctor): (604) 555-0100."))
            #expect(run.stdout.contains("3. Dr Chan (doctor): (604) 555-0100.\nTo remove one"))
            let listed = try JSONSerialization.jsonObject(with: Data(try CLI.run(["contacts", "--json", "--data-dir", dir.path]).stdout.utf8)) as? [[String: Any]]
            #expect(listed?.map { $0["number"] as? Int } == [1, 2, 3])
            #expect(listed?.last?["relation"] as? String == "doctor")
        }
    }

    /// Help interrupts adding and removing a contact, said with every emergency phrase; the
    /// step waits, and is then left without a change.
    @Test(arguments: [(["add a contact"], "cancel"), (["remove contact number one"], "no")])
    func everyEmergencyPhraseInterruptsAContactStep(_ start: [String], _ end: String) throws {
        try withContacts { dir in
            let phrases = SpokenEmergencyTests.phrases
            let wav = try Session.wav(start + phrases + [end], in: dir)
            let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--country", "US", "--data-dir", dir.path])
            let out = run.stdout
            #expect(out.components(separatedBy: "Ambulance, police and fire: 911.").count - 1 == phrases.count, "\(out)")
            #expect(out.contains("Your emergency contacts are unchanged."))
            #expect(try CLI.run(["contacts", "--data-dir", dir.path]).stdout.split(separator: "\n").count == 2)
        }
    }

    /// The relation question (reached only after a typed name) hears every emergency phrase.
    @Test(arguments: SpokenEmergencyTests.phrases)
    func theRelationQuestionHearsEmergencyPhrases(_ phrase: String) throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav([phrase], in: dir)
        #expect(try CLI.run(["listen", "--audio-in", wav.path, "--state", "contact-relation"]).stdout == "\(phrase)\n")
    }

    /// What a new contact is to the person is heard in a grammar of its own. (With the default
    /// voice; "son" alone is heard as "father", which the read-back is there to catch.)
    @Test(arguments: ["my daughter", "my neighbor", "doctor", "my wife", "back"])
    func relationsAreHeard(_ said: String) throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav([said], in: dir)
        let run = try CLI.run(["listen", "--audio-in", wav.path, "--state", "contact-relation"])
        // "neighbor" and "neighbour" sound the same.
        #expect(run.stdout.replacingOccurrences(of: "neighbour", with: "neighbor") == "\(said)\n", "\(run.stderr)")
    }
}
