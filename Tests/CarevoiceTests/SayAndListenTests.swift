import CareSpeech
import CareTestSupport
import Foundation
import Testing

/// The speaker and microphone checks a person (or a test) runs by hand.
@Suite struct SayAndListenTests {
    /// What the spoken test fixtures rely on: a fresh process says a sentence the same way every time.
    @Test func saySpeaksTheSameSentenceTheSameWayEveryTime() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("1.wav"), second = dir.appendingPathComponent("2.wav")
        #expect(try CLI.run(["say", "--out", first.path, "glucose six point five"]).status == 0)
        #expect(try CLI.run(["say", "--out", second.path, "glucose", "six", "point", "five"]).status == 0)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        let audio = try WAVFile.read(first)
        #expect(audio.sampleRate == 22050)
        #expect(audio.duration > 1 && audio.duration < 4)
    }

    @Test func sayWritesTheRateAskedFor() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("yes.wav")
        #expect(try CLI.run(["say", "--voice", "en-gb", "--sample-rate", "8000", "--out", file.path, "yes"]).status == 0)
        #expect(try WAVFile.read(file).sampleRate == 8000)
    }

    /// On a virtual speaker (the ALSA `file` plugin), what `say` plays piece by piece, as the
    /// assistant speaks, is the sentence it would write to a file.
    @Test func sayPlaysOnTheSpeakerWhatItWouldWrite() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let played = dir.appendingPathComponent("played.raw"), config = dir.appendingPathComponent("asound.conf")
        try VirtualAudio.writeConfiguration([.speaker("carevoice_test_speaker", writing: played)], to: config)
        let sentence = "6.5 millimoles per litre, before breakfast. Shall I save it?"
        let run = try CLI.run(["say", "--speaker", "carevoice_test_speaker", sentence], environment: ["ALSA_CONFIG_PATH": config.path])
        #expect(run.status == 0, "\(run.stderr)")
        let written = dir.appendingPathComponent("written.wav")
        #expect(try CLI.run(["say", "--out", written.path, sentence]).status == 0)
        let expected = try WAVFile.read(written).samples
        let samples = try Data(contentsOf: played).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(expected.count > 22050 * 2)
        let samePlayedAsWritten = samples == expected   // not expanded: the arrays are long
        #expect(samePlayedAsWritten, "\(samples.count) samples played, \(expected.count) written")
    }

    @Test func sayWithoutASpeakerSaysWhyInOneSentence() throws {
        let run = try CLI.run(["say", "--speaker", "no_such_speaker", "hello"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("I can't play sound on this computer: cannot open playback device no_such_speaker"))
        #expect(!run.stderr.contains("ALSA lib"))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func listenHearsARecordingAsTheAssistantWould() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = try Session.wav(["glucose seven point two before breakfast", "blood sugar one hundred twenty"], in: dir)
        let run = try CLI.run(["listen", "--audio-in", wav.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "glucose seven point two before breakfast\nblood sugar one hundred twenty\n")
        let answers = try Session.wav(["yes"], in: dir)
        #expect(try CLI.run(["listen", "--audio-in", answers.path, "--state", "answer"]).stdout == "yes\n")
    }
}
