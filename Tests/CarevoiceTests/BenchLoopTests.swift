import CareTestSupport
import Foundation
import Testing

/// `carevoice bench loop`: readings said by espeak-ng voices, then "yes", heard and saved by the
/// assistant as it runs (real recognizer, real dialog), counted and timed.
@Suite struct BenchLoopTests {
    /// Each session is a reading and its yes; `--details` shows what was heard, when, and what
    /// the assistant said back. With `--noise` the noise runs through each session, pauses
    /// too: at 10 dB the readings are heard with the noise taken out, at -5 dB it drowns those
    /// that were saved in quiet.
    @Test func readingsAreSavedAndCountedInQuietAndInNoise() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bench = ["bench", "loop", "--no-speech", "--data-dir", dir.path, "--count", "2", "--seed", "5", "--details"]
        let kept = dir.appendingPathComponent("kept")
        let quiet = try CLI.run(bench + ["--keep-audio", kept.path])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.contains("loop: 2/2 saved exactly right"), "\(quiet.stdout)")
        #expect(quiet.stdout.contains(#"heard "glucose fourteen point three" (fit "#), "\(quiet.stdout)")
        #expect(quiet.stdout.contains(#"said "Hello, I'm CareVoice."#) && quiet.stdout.contains("Saved: fourteen point three"), "\(quiet.stdout)")
        #expect(!quiet.stdout.contains("noise:") && !quiet.stdout.contains("noise taken out"))
        // Each session's recording is kept, to be heard again as the assistant hears a WAV file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: kept.path).sorted() == ["session-001.wav", "session-002.wav"])
        let again = try CLI.run(["--audio-in", kept.appendingPathComponent("session-001.wav").path, "--no-speech",
                                 "--data-dir", dir.appendingPathComponent("again").path])
        #expect(again.status == 0 && again.stdout.contains("Saved: 14.3 mmol/L"), "\(again.stdout) \(again.stderr)")

        // As on a microphone, the first reading tells the room is noisy: it is heard again, and
        // all that follows heard, with the noise taken out (the yes after it heard whole too where
        // the noisy room's recognizer has heard less than `framesToLearnTheMean` by then: 291
        // frames of this short reading).
        let noisy = try CLI.run(bench + ["--noise", "pink", "--snr", "10"])
        #expect(noisy.status == 0, "\(noisy.stderr)")
        let readingThenYes = try Regex(#"heard "glucose fourteen point three" \(fit [^)]*, noise taken out(, whole)?\), "yes" \(fit [^)]*, noise taken out(, whole)?\)"#)
        #expect(noisy.stdout.contains(readingThenYes), "\(noisy.stdout)")
        #expect(noisy.stdout.contains("loop: 2/2 saved exactly right"), "\(noisy.stdout)")

        let drowned = try CLI.run(bench + ["--noise", "pink", "--snr=-5"])
        #expect(drowned.status == 0, "\(drowned.stderr)")
        #expect(drowned.stdout.contains("noise: pink at -5 dB SNR throughout each session"), "\(drowned.stdout)")
        #expect(drowned.stdout.contains("loop: 0/2 saved exactly right"), "\(drowned.stdout)")

        let notAFolder = try CLI.run(["bench", "loop", "--count", "1", "--keep-audio", "/dev/null/kept"])
        #expect(notAFolder.status != 0 && notAFolder.stderr.contains("--keep-audio: cannot make the folder /dev/null/kept"), "\(notAFolder.stderr)")

        let alone = try CLI.run(["bench", "loop", "--count", "1", "--noise", "pink"])
        #expect(alone.status != 0 && alone.stderr.contains("--noise and --snr go together"), "\(alone.stderr)")
    }

    /// With `--unrelated-first` each session starts with a sentence not meant for the assistant:
    /// it is counted as turned away when all it got was "I didn't catch that", and marked TOOK
    /// when it was taken for something (here in noise, read back as a reading).
    @Test func unrelatedSpeechBeforeTheReadingIsCountedAsTurnedAwayOrTaken() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bench = ["bench", "loop", "--no-speech", "--data-dir", dir.path, "--count", "1", "--seed", "5", "--unrelated-first", "--details"]
        let quiet = try CLI.run(bench)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.contains(#"ok   [en-us] said "he was born in nineteen fifty two", then "glucose fourteen point three"; heard "#),
                "\(quiet.stdout)")
        #expect(quiet.stdout.contains(#"said "Hello, I'm CareVoice. Tell me a glucose reading, for example: glucose six point five before breakfast.", "Sorry, I didn't catch that.", "fourteen point three"#),
                "\(quiet.stdout)")
        #expect(quiet.stdout.contains("unrelated first: 1/1 turned away") && quiet.stdout.contains("loop: 1/1 saved exactly right"), "\(quiet.stdout)")

        let noisy = try CLI.run(bench + ["--noise", "pink", "--snr", "10"])
        #expect(noisy.status == 0, "\(noisy.stderr)")
        #expect(noisy.stdout.contains(#"ok   TOOK [en-us] said "he was born in nineteen fifty two""#), "\(noisy.stdout)")
        #expect(noisy.stdout.contains("unrelated first: 0/1 turned away"), "\(noisy.stdout)")
    }

    /// In Chinese the sessions are said by Chinese voices, and confirmed with 对 (an English
    /// "yes" said by a Chinese voice was heard as 结束, "end"); measured with the general model
    /// where the assistant would wait for a learned voice, as `bench recognition` does.
    @Test func chineseReadingsAreSaidAndConfirmedInChinese() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["bench", "loop", "--no-speech", "--locale", "zh-Hans", "--data-dir", dir.path,
                               "--count", "1", "--seed", "5", "--details"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#"[cmn-latn-pinyin] said "血糖十四点三"; heard "血糖 十 四 点 三" (fit "#), "\(run.stdout)")
        #expect(run.stdout.contains(#""对" (fit "#), "\(run.stdout)")
        #expect(run.stdout.contains("loop: 1/1 saved exactly right"), "\(run.stdout)")
    }
}
