import CareSpeech
import CareTestSupport
import Foundation
import Testing

/// The whole loop through the real engines: espeak-ng speaks a session, the
/// binary hears it through `--audio-in`, and the database holds what was confirmed.
@Suite(.serialized) struct SpeechLoopTests {
    /// The recording is of a quiet room, and has no greeting said before its words: the one
    /// recognizer made (`--verbose` logs each, "pocketsphinx ready") is the quiet room's, not
    /// also a noisy room's made ahead as for a microphone (`BackgroundFollower`: about 210 MiB more).
    @Test func aConfirmedSpokenReadingIsSaved() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["glucose six point five before breakfast", "yes"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--verbose", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "pocketsphinx ready").count == 2, "one recognizer made: \(run.stderr)")
        #expect(run.stdout.contains("Heard: glucose 6.5 before breakfast"))
        #expect(run.stdout.contains("Saved: 6.5 mmol/L, before breakfast."))
        let saved = try readings(in: dir)
        #expect(saved.count == 1)
        #expect(saved.first?.mmolPerL == 6.5)
        #expect(saved.first?.tag == "before-breakfast")
        #expect(saved.first?.source == "voice")
    }

    /// A reading said with when it was taken, the time after its lead word, as people say it:
    /// read back with that time and saved at it. Without the reading template that allows it,
    /// the recognizer forced such a sentence onto another reading ("my sugar this morning was
    /// six point five" was heard as "my sugar is fourteen point six at bedtime").
    @Test func aReadingSaidWithWhenItWasTakenIsSavedAtThatTime() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["my blood sugar last night was seven point two after dinner", "yes"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("7.2 mmol/L, after dinner, yesterday at 10:00 PM. Shall I save it?"), "\(run.stdout)")
        let saved = try readings(in: dir)
        #expect(saved.map(\.mmolPerL) == [7.2], "\(run.stdout)")
        #expect(saved.first?.tag == "after-dinner")
        try expectTakenLastNight(saved.first)
    }

    /// A reading's meal said after its read-back (as it may be, now that a reading is read back
    /// at the first pause) is added and read back again, and the reading is saved with it on
    /// the yes.
    @Test func aMealSaidAfterTheReadBackIsSavedWithTheReading() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["glucose six point five", "before breakfast", "yes"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("6.5 mmol/L. Shall I save it?"), "\(run.stdout)")
        #expect(run.stdout.contains("6.5 mmol/L, before breakfast. Shall I save it?"), "\(run.stdout)")
        let saved = try readings(in: dir)
        #expect(saved.map(\.mmolPerL) == [6.5])
        #expect(saved.first?.tag == "before-breakfast")
    }

    /// When a reading was taken, said after its read-back, is added the same way. Without it in
    /// the answer grammar, "last night" was forced onto an answer ("not right" dropped the
    /// reading; "yesterday" was heard as "yes that's right" and saved it at the wrong time).
    @Test func aTimeSaidAfterTheReadBackIsSavedWithTheReading() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["glucose six point five", "last night", "yes"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("6.5 mmol/L, yesterday at 10:00 PM. Shall I save it?"), "\(run.stdout)")
        let saved = try readings(in: dir)
        #expect(saved.map(\.mmolPerL) == [6.5], "\(run.stdout)")
        try expectTakenLastNight(saved.first)
    }

    /// The reading was saved at 22:00 yesterday, where "last night" puts it.
    private func expectTakenLastNight(_ reading: ReadingJSON?) throws {
        let yesterday = try #require(Calendar.current.date(byAdding: .day, value: -1, to: Date()))
        let lastNight = try #require(Calendar.current.date(bySettingHour: 22, minute: 0, second: 0, of: yesterday))
        let takenAt = try #require(reading.flatMap { ISO8601DateFormatter().date(from: $0.takenAt) })
        #expect(takenAt == lastNight, "\(reading?.takenAt ?? "")")
    }

    /// A note by voice alone: "add a diary note", the note by free dictation, a tag by number,
    /// then yes. What dictation made of the words is what is saved (the line shows it first).
    @Test func aSpokenNoteIsDictatedTaggedAndSaved() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["add a diary note", "porridge with banana", "tag three", "yes"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("What would you like to note?"), "\(run.stdout)")
        let heard = run.stdout.split(separator: "\n").first { $0.hasPrefix("Heard: ") }.map { String($0.dropFirst("Heard: ".count)) }
        let dictated = try #require(heard, "\(run.stdout)")
        #expect(run.stdout.contains("Tags: dinner."), "\(run.stdout)")
        let notes = try DiaryTests.notes(dir)
        #expect(notes.count == 1, "\(run.stdout)")
        #expect(notes.first?.body == dictated)
        #expect(notes.first?.tags.contains("dinner") == true)
    }

    /// Changes by voice: a reading said and saved, deleted ("delete the last reading", "yes"),
    /// then brought back ("undo", "yes") under its own number.
    @Test func aSpokenReadingIsDeletedAndBroughtBackByVoice() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["glucose six point five before breakfast", "yes", "delete the last reading", "yes", "undo", "yes"],
                                  in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Deleted the reading 6.5 mmol/L, before breakfast, today at"), "\(run.stdout)")
        #expect(run.stdout.contains("Undone: bring back the reading 6.5 mmol/L, before breakfast, today at"), "\(run.stdout)")
        let saved = try readings(in: dir)
        #expect(saved.map(\.id) == [1])
        #expect(saved.first?.mmolPerL == 6.5)
    }

    /// Speech not meant for the assistant is answered "didn't catch that" and changes nothing:
    /// the reading read back before it still waits for its yes.
    @Test func sentencesNotMeantForTheAssistantAreTurnedAway() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["could you pass me the salt", "glucose six point five before breakfast",
                                   "the kettle has boiled", "yes"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.components(separatedBy: "Sorry, I didn't catch that.").count - 1 == 2, "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "Heard:").count - 1 == 1, "\(run.stdout)")
        #expect(try readings(in: dir).map(\.mmolPerL) == [6.5])
    }

    /// "How am I doing this week?", said, is answered from the readings saved.
    @Test func aSpokenQuestionAboutTheWeekIsAnswered() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["glucose six point five before breakfast", "yes", "how am i doing this week"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("In the last 7 days: one reading on one day."), "\(run.stdout)")
        #expect(run.stdout.contains("Average 6.5 mmol/L; lowest 6.5, highest 6.5."))
    }

    /// "What did I record today?", said, reads back the day's readings and notes.
    @Test func aSpokenQuestionAboutTheDayReadsItBack() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CLI.run(["diary", "add", "--data-dir", dir.path, "--title", "Breakfast", "--body", "porridge", "--yes"])
        let wav = try Session.wav(["glucose six point five before breakfast", "yes", "what did i record today"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasSuffix("  note 1: Breakfast. porridge. Tags: none.") }, "\(run.stdout)")
        #expect(lines.contains { $0.hasSuffix("  glucose 6.5 mmol/L, before breakfast") })
    }

    /// Refusals said in other words are heard as refusals: until the grammar listened for "that's
    /// not right", this voice's was heard as "that's right" and saved the reading.
    @Test(arguments: ["no", "that's not right", "no thanks"])
    func noSavesNothing(_ refusal: String) throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["glucose seven point two", refusal], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Not saved."), "\(run.stdout)")
        #expect(try readings(in: dir).isEmpty)
    }

    /// The flow, not the accuracy (that is `carevoice bench loop`): with this voice the engine
    /// hears "eight point one" as "six point one", so the correction is a value it hears.
    @Test func aSpokenCorrectionIsWhatGetsSaved() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["glucose six point five", "glucose nine point four after dinner", "yes"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("9.4 mmol/L, after dinner. Shall I save it?"), "the correction is read back")
        let saved = try readings(in: dir)
        #expect(saved.map(\.mmolPerL) == [9.4])
        #expect(saved.first?.tag == "after-dinner")
    }

    @Test(arguments: [8000, 16000, 44100, 48000])
    func recordingsAtOtherRatesWork(rate: Int) throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["blood sugar one hundred twenty milligrams per deciliter", "yes"], rate: rate, in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0)
        let saved = try readings(in: dir)
        #expect(saved.count == 1)
        if let first = saved.first { #expect(abs(first.mgPerDL - 120) < 1e-9) }
    }

    @Test func theSpokenConfirmationGoesToTheAudioOutFile() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["sugar seven point two after dinner", "yes"], in: dir)
        let out = dir.appendingPathComponent("said.wav")
        let run = try CLI.run(["--audio-in", wav.path, "--audio-out", out.path, "--data-dir", dir.path])
        #expect(run.status == 0)
        let said = try WAVFile.read(out)
        // Greeting, read-back, saved, next prompt: many seconds of speech.
        #expect(said.duration > 5)
        #expect(said.samples.contains { abs(Int($0)) > 1000 })
    }

    @Test func aCorruptRecordingGetsOneClearSentence() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.wav")
        try Data("RIFF1234WAVEfmt garbage".utf8).write(to: bad)
        let run = try CLI.run(["--audio-in", bad.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("I can't use the sound file"))
        #expect(!run.stderr.contains("Fatal"))
    }
}

@Suite(.serialized) struct KeyboardLoopTests {
    @Test func pipedLinesTakeTheSameRoad() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path],
                              input: "glucose 6.5 before breakfast\nyes\nsugar 7.2 after dinner\nno\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("6.5 mmol/L, before breakfast. Shall I save it?"))
        #expect(run.stdout.contains("Heard: glucose 6.5 before breakfast"))
        let saved = try readings(in: dir)
        #expect(saved.map(\.mmolPerL) == [6.5])
        #expect(saved.first?.source == "keyboard")
    }

    @Test func aCorrectedLineReplacesWhatWasHeardAndIsSaved() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "glucose 6.5\nglucose 5.6 fasting\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("Saved: 5.6 mmol/L, fasting."))
        #expect(try readings(in: dir).map(\.tag) == ["fasting"])
    }

    @Test func implausibleAndUnclearInputSavesNothing() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path],
                              input: "glucose 0.299\nyes\nmy cat is seven\nyes\n")
        #expect(run.stdout.contains("0.299 sounds wrong"))
        #expect(run.stdout.contains("Sorry, I didn't catch that."))
        #expect(try readings(in: dir).isEmpty)
    }

    @Test func readingsAsJSONHaveTheDocumentedShape() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "glucose 110 mg/dl fasting\nyes\nglucose 7\nyes\n")
        let run = try CLI.run(["readings", "--data-dir", dir.path, "--json"])
        let objects = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        let newest = try #require(objects?.first)
        #expect(Set(newest.keys).isSuperset(of: ["id", "takenAt", "mmolPerL", "mgPerDL", "tag", "source"]))
        #expect(newest["tag"] is NSNull)
        let takenAt = try #require(newest["takenAt"] as? String)
        #expect(takenAt.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$"#, options: .regularExpression) != nil)
        let oldest = try #require(objects?.last)
        #expect(abs((oldest["mgPerDL"] as? Double ?? 0) - 110) < 1e-9)
        #expect(oldest["tag"] as? String == "fasting")
    }

    @Test func commonOptionsWorkAfterTheSubcommand() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["readings", "--data-dir", dir.path, "--plain", "--no-speech"])
        #expect(run.status == 0)
        #expect(run.stdout == "No readings yet.\n")
    }

    @Test func plainOutputHasNoEscapeCodes() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "glucose 6.5\nyes\n")
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(!run.stdout.contains("\r"))
    }

    @Test func aBrokenDatabaseIsReportedAndNotTouched() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("carevoice.sqlite")
        let garbage = Data(repeating: 7, count: 2048)
        try garbage.write(to: file)
        let run = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "help\nglucose 6.5\nyes\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("I can't open your data file"))
        #expect(run.stdout.contains("emergency number"))
        #expect(run.stdout.contains("I couldn't save that reading"))
        #expect(try Data(contentsOf: file) == garbage)
    }

    @Test func theDataDirectoryIsPrivate() throws {
        let parent = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let dir = parent.appendingPathComponent("data")
        _ = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "glucose 6.5\nyes\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.path)
        #expect(attributes[.posixPermissions] as? Int == 0o700)
        let db = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("carevoice.sqlite").path)
        #expect(db[.posixPermissions] as? Int == 0o600)
    }
}
