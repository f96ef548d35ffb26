import CareSpeech
import CareTestSupport
import Foundation
import Testing

/// The assistant learns the person's voice from the readings they confirm as heard
/// (`ConfirmedSpeech`): through `--audio-in`, with the real recognizer and sphinxtrain.
@Suite(.serialized) struct VoiceFromReadingsTests {
    /// Twelve readings confirmed as heard: when the session ends the voice is learned from them,
    /// said so, and stored as learned from confirmed speech.
    @Test func twelveConfirmedReadingsTeachTheVoiceWhenTheSessionEnds() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let said = ["glucose six point five before breakfast", "glucose seven point two after lunch",
                    "glucose five point eight before dinner", "glucose eight point one at bedtime",
                    "glucose nine point four after breakfast", "glucose four point nine fasting",
                    "glucose six point three before lunch", "glucose seven point seven after dinner",
                    "glucose five point two after exercise", "glucose ten point six before breakfast",
                    "glucose eleven point three after lunch", "glucose six point nine at bedtime"]
        let wav = try Session.wav(said.flatMap { [$0, "yes"] }, in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try readings(in: dir).count == 12, "\(run.stdout)")
        #expect(confirmedSpeech(in: dir).count == 12)
        #expect(run.stdout.contains("I am learning your voice from the 12 readings you confirmed"), "\(run.stdout)")
        #expect(run.stdout.contains("From your next session I hear you with the voice learned from 12 readings"), "\(run.stdout)")
        let record = try String(contentsOf: dir.appendingPathComponent("voice/voice.json"), encoding: .utf8)
        #expect(record.contains("\"confirmedSpeech\""), "\(record)")
        let status = try CLI.run(["enroll", "--status", "--data-dir", dir.path])
        #expect(status.stdout.contains("12"), "\(status.stdout)")
    }

    /// A voice learned from the enrollment phrases is learned again, from them and the readings
    /// confirmed since, once there are 6: said when the session ends, and stored with both.
    @Test func anEnrolledVoiceIsLearnedAgainWithTheReadingsConfirmedSince() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let phrases = try Session.resources.loadLocale("en").enrollment.prompts
        let said = ["glucose six point five before breakfast", "glucose seven point two after lunch",
                    "glucose five point eight before dinner", "glucose eight point one at bedtime",
                    "glucose nine point four after breakfast", "glucose four point nine fasting"]
        let wav = try Session.wav(["learn my voice", "yes"] + phrases + said.flatMap { [$0, "yes"] }, voice: "en-us+m3", in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Done. I learned your voice from"), "\(run.stdout)")
        #expect(try readings(in: dir).count == 6, "\(run.stdout)")
        #expect(confirmedSpeech(in: dir).count == 6)
        #expect(run.stdout.contains("I am learning your voice again, from the 20 phrases you said when I learned it and the 6 readings you confirmed"),
                "\(run.stdout)")
        #expect(run.stdout.contains("From your next session I hear you with the voice learned from 20 phrases and 6 readings you confirmed."),
                "\(run.stdout)")
        let voice = try #require(try AdaptedVoice.load(from: dir.appendingPathComponent("voice")))
        #expect(voice.record.source == .enrollment && voice.record.utterances == 26 && voice.record.confirmedCount == 6)
        #expect(voice.phrases.recordings().map { $0.words.joined(separator: " ") } == phrases)
    }

    /// With voice learning turned off, a session that ends with 12 confirmed readings kept from
    /// before learns nothing from them.
    @Test func withVoiceLearningOffNoVoiceIsLearnedFromReadingsKeptBefore() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("confirmed-speech")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sentence = "glucose six point five before breakfast"
        let audio = Resampler.resample(try SpokenFixtures.say(sentence), to: 16000)
        for index in 1...12 {
            let name = String(format: "%06d", index)
            try WAVFile.write(audio, to: folder.appendingPathComponent("\(name).wav"))
            try sentence.write(to: folder.appendingPathComponent("\(name).txt"), atomically: true, encoding: .utf8)
        }
        #expect(confirmedSpeech(in: dir).count == 12)
        let off = try CLI.run(["settings", "set", "voice-learning", "off", "--yes", "--data-dir", dir.path])
        #expect(off.status == 0, "\(off.stderr)")
        let wav = try Session.wav(["goodbye"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("learning your voice"), "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("voice/voice.json").path))
    }

    /// Only a reading saved exactly as it was heard is kept: one whose meal was said after its
    /// read-back is not (its first words were not the whole reading); "forget my voice" then
    /// deletes what was kept, with no voice learned yet. With voice learning off, nothing more
    /// is kept.
    @Test func onlyReadingsSavedAsHeardAreKeptAndForgettingDeletesThem() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["glucose six point five", "before breakfast", "yes",
                                   "glucose seven point two after lunch", "yes"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try readings(in: dir).count == 2, "\(run.stdout)")
        #expect(confirmedSpeech(in: dir) == ["glucose seven point two after lunch"], "\(run.stdout)")
        #expect(!run.stdout.contains("learning your voice"), "\(run.stdout)")

        // With voice learning turned off, a reading confirmed as heard keeps nothing.
        let off = try CLI.run(["settings", "set", "voice-learning", "off", "--yes", "--data-dir", dir.path])
        #expect(off.status == 0, "\(off.stderr)")
        let again = try Session.wav(["glucose five point one before lunch", "yes"], in: dir)
        let unkept = try CLI.run(["--audio-in", again.path, "--no-speech", "--data-dir", dir.path])
        #expect(try readings(in: dir).count == 3, "\(unkept.stdout)")
        #expect(confirmedSpeech(in: dir) == ["glucose seven point two after lunch"], "\(unkept.stdout)")

        let forget = try Session.wav(["forget my voice", "yes"], in: dir)
        let forgot = try CLI.run(["--audio-in", forget.path, "--no-speech", "--data-dir", dir.path])
        #expect(forgot.stdout.contains("I forgot your voice"), "\(forgot.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("confirmed-speech").path))
    }
}
