import CareSpeech
import CareTestSupport
import Foundation
import Testing

/// Recordings with noise close under the speech are heard with the noise taken out
/// (`AudioBackground`), wherever a recording is heard.
///
/// The readings are nine of the development corpus (`bench corpus --seed 41`) that, said by
/// espeak-ng in pink noise at 10 dB and each heard as a session's first words, came out wrong
/// with the noise left in ("sugar eighty six after exercise" as "sugar is fifty five at
/// bedtime") and right with it taken out, with the model's own means. With a noisy room's means
/// (`speech.noisyRoomMeans`) 7 of them are ("sugar eighty six after exercise" as "sugar is sixty
/// five at bedtime", "blood sugar eight point four" as "three point four").
@Suite(.serialized) struct NoisyRecordingTests {
    static let readings: [(seed: UInt64, voice: String, rate: Int, said: String, expected: String)] = [
        (33, "en-gb-x-rp", 177, "sugar eighty six after exercise", "86 mg/dL after-exercise"),
        (43, "en-us", 190, "glucose one hundred sixty seven", "167 mg/dL"),
        (50, "en-gb-x-rp", 123, "blood sugar eight point four", "8.4 mmol/L"),
        (59, "en-us+m3", 122, "blood sugar seventy six milligrams per deciliter after dinner", "76 mg/dL after-dinner"),
        (68, "en-gb", 124, "sugar twelve point three millimoles per litre after lunch", "12.3 mmol/L after-lunch"),
        (71, "en-gb-x-rp", 141, "my blood sugar is seven point six before breakfast", "7.6 mmol/L before-breakfast"),
        (76, "en-us", 187, "blood sugar one hundred six milligrams per deciliter at bedtime", "106 mg/dL bedtime"),
        (82, "en-us+m3", 126, "blood sugar four point six millimoles per litre before lunch", "4.6 mmol/L before-lunch"),
        (98, "en-gb", 148, "sugar four point five after dinner", "4.5 mmol/L after-dinner"),
    ]

    /// `bench recognition` of these readings said in pink noise at 10 dB (a manifest in `dir`),
    /// each heard as a session's first words, every item printed.
    static func benchOfNoisyReadings(_ readings: ArraySlice<(seed: UInt64, voice: String, rate: Int, said: String, expected: String)>,
                                     in dir: URL) throws -> [String] {
        var manifest = "file\tkind\texpected\n"
        for reading in readings {
            let said = try SpokenFixtures.say(reading.said, voice: reading.voice, rate: reading.rate)
            let url = dir.appendingPathComponent("\(reading.seed).wav")
            try WAVFile.write(NoiseMixer.mix(said, noise: .pink, snr: 10, seed: reading.seed), to: url)
            manifest += "\(url.path)\treading\t\(reading.expected)\n"
        }
        let manifestURL = dir.appendingPathComponent("manifest.tsv")
        try manifest.write(to: manifestURL, atomically: true, encoding: .utf8)
        return ["bench", "recognition", "--manifest", manifestURL.path, "--data-dir", dir.path, "--first-of-session", "--details"]
    }

    @Test func readingsInNoiseAreHeardWithTheNoiseTakenOut() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bench = try Self.benchOfNoisyReadings(Self.readings[...], in: dir)

        let heard = try CLI.run(bench)
        #expect(heard.status == 0, "\(heard.stderr)")
        #expect(heard.stdout.contains("heard with the noise taken out and the locale's means en-us/noisy-room-means: 9 of 9 recordings"),
                "\(heard.stdout)")
        let asQuiet = try CLI.run(bench + ["--background", "quiet"])
        #expect(asQuiet.status == 0, "\(asQuiet.stderr)")
        #expect(!asQuiet.stdout.contains("noise taken out"))
        // Heard as telephone band, they are heard as the assistant hears telephone-band audio.
        let asNarrow = try CLI.run(bench + ["--band", "narrow"])
        #expect(asNarrow.status == 0, "\(asNarrow.stderr)")
        #expect(!asNarrow.stdout.contains("noise taken out"), "\(asNarrow.stdout)")
        let taken = try #require(benchRight(heard.stdout, kind: "reading")), left = try #require(benchRight(asQuiet.stdout, kind: "reading"))
        #expect(taken >= left + 5, "noise taken out \(taken)/9, left in \(left)/9\n\(heard.stdout)\n\(asQuiet.stdout)")

        // The assistant's way in for a recording measures it too.
        let listened = try CLI.run(["listen", "--audio-in", dir.appendingPathComponent("43.wav").path, "--data-dir", dir.path])
        #expect(listened.status == 0, "\(listened.stderr)")
        #expect(listened.stdout.contains("glucose one hundred sixty seven"), "\(listened.stdout)")
    }

    /// A recording with a steady hum 30 dB under its speech, 3 s of it before the words: the hum
    /// alone where the recording starts, stepping up from the lead-in put before it, is heard
    /// as an utterance. With the lead-in's frames counted, its loudness swing was 3-8 dB (3.4
    /// dB here), over the floor for words forced onto a steady noise, and it was taken for
    /// "help": emergency help was spoken before the reading was read back.
    @Test func aHumAtTheStartOfARecordingIsNoCallForHelp() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let said = try SpokenFixtures.say("glucose six point five", voice: "en-us")
        let hum = [Int16](repeating: 0, count: said.sampleRate * 3)
        let recording = NoiseMixer.mix(PCMAudio(samples: hum + said.samples + hum, sampleRate: said.sampleRate),
                                       noise: .pink, snr: 30, seed: 1)
        let url = dir.appendingPathComponent("hum.wav")
        try WAVFile.write(recording, to: url)
        let run = try CLI.run(["--no-speech", "--verbose", "--audio-in", url.path, "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("Emergency help"), "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("6.5 mmol/L. Shall I save it?"), "\(run.stdout)")
    }

    /// A reading and its yes said over a television (pink noise 10 dB under them), then the
    /// television turned off and a reading and its yes said in a quiet room: the first clear words
    /// are heard by the noisy room's recognizer (the room is known to be quiet only once they have
    /// ended), whose means are a noisy room's (`speech.noisyRoomMeans`), and with them clean speech
    /// is misheard ("glucose six point five" as "glucose sixty one at bedtime"). Said clearly over
    /// the room, they are answered with the words heard with the noise left in, heard whole with
    /// their own cepstral mean (`SpeechRecognizer.Configuration.noiseLeftInAnswersFromDB`).
    @Test func theFirstWordsAfterATelevisionIsTurnedOffAreHeardAsAQuietRoomsWords() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try SpokenFixtures.say("blood sugar eight point four", voice: "en-us")
        let yes = try SpokenFixtures.say("yes", voice: "en-us")
        let second = try SpokenFixtures.say("glucose six point five", voice: "en-us")
        let rate = first.sampleRate
        func pause(_ seconds: Double) -> [Int16] { [Int16](repeating: 0, count: Int(seconds * Double(rate))) }
        let television = NoiseMixer.mix(PCMAudio(samples: first.samples + pause(1.5) + yes.samples + pause(1.5), sampleRate: rate),
                                        noise: .pink, snr: 10, seed: 3, around: 1)
        let quietRoom = NoiseMixer.mix(PCMAudio(samples: pause(2) + second.samples + pause(1.5) + yes.samples + pause(2), sampleRate: rate),
                                       noise: .pink, snr: 45, seed: 4)
        let url = dir.appendingPathComponent("television.wav")
        try WAVFile.write(PCMAudio(samples: television.samples + quietRoom.samples, sampleRate: rate), to: url)
        let run = try CLI.run(["--no-speech", "--verbose", "--audio-in", url.path, "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("the background is noisy"), "\(run.stderr)")
        #expect(run.stdout.contains("6.5 mmol/L. Shall I save it?") && run.stdout.contains("Saved: 6.5 mmol/L."), "\(run.stdout)\n\(run.stderr)")
    }

    /// In noise the hiss of "s" goes with the noise taken out: these readings of the development
    /// corpora (`bench corpus --seed 41`, `--readings 150 --seed 47`), in pink noise at 10 dB,
    /// were all heard with "fifteen" or "fifty" without `speech.readingWordOddsInNoise`, and are
    /// heard right with "sixteen" and "sixty" made likelier in a noisy room's readings.
    @Test func sixteenAndSixtyAreHeardInNoise() throws {
        let readings: [(voice: String, rate: Int, said: String, expected: String)] = [
            ("en-gb-x-rp", 122, "my blood sugar is sixteen point eight after breakfast", "16.8 mmol/L after-breakfast"),
            ("en-us", 146, "my blood sugar is sixteen point seven before breakfast", "16.7 mmol/L before-breakfast"),
            ("en-us", 190, "glucose one hundred sixty seven", "167 mg/dL"),
            ("en-gb-x-rp", 173, "sugar two hundred sixteen milligrams per deciliter after lunch", "216 mg/dL after-lunch"),
        ]
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var manifest = "file\tkind\texpected\n"
        for (index, reading) in readings.enumerated() {
            let said = try SpokenFixtures.say(reading.said, voice: reading.voice, rate: reading.rate)
            let url = dir.appendingPathComponent("\(index).wav")
            try WAVFile.write(NoiseMixer.mix(said, noise: .pink, snr: 10, seed: UInt64(index + 1)), to: url)
            manifest += "\(url.path)\treading\t\(reading.expected)\n"
        }
        let manifestURL = dir.appendingPathComponent("manifest.tsv")
        try manifest.write(to: manifestURL, atomically: true, encoding: .utf8)
        let heard = try CLI.run(["bench", "recognition", "--manifest", manifestURL.path, "--data-dir", dir.path, "--first-of-session", "--details"])
        #expect(heard.status == 0, "\(heard.stderr)")
        #expect(heard.stdout.contains("heard with the noise taken out and the locale's means en-us/noisy-room-means: 4 of 4 recordings"),
                "\(heard.stdout)")
        #expect(heard.stdout.contains("recognition: 4/4 correct"), "\(heard.stdout)")
    }

    /// `bench noisy-room-means` learns means from clean recordings of several voices (it refuses
    /// one voice alone: what two voices share, the noise, is what it learns), and `bench
    /// recognition --noisy-room-means` hears a noisy room with them: readings in noise differently
    /// than with the model's own (`model`), as the locale's do, the same readings heard as a
    /// quiet room's exactly alike.
    @Test func noisyRoomMeansAreLearnedAndMeasured() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var learnFrom = "file\tkind\texpected\tspeaker\ttext\n"
        for voice in ["en-us", "en-gb"] {
            for (index, said) in ["glucose six point five", "sugar one hundred twenty before breakfast", "yes"].enumerated() {
                let url = dir.appendingPathComponent("\(voice)-\(index).wav")
                try WAVFile.write(try SpokenFixtures.say(said, voice: voice), to: url)
                learnFrom += "\(url.path)\tenroll\t-\t\(voice)\t\(said)\n"
            }
        }
        let learnURL = dir.appendingPathComponent("learn.tsv")
        try learnFrom.write(to: learnURL, atomically: true, encoding: .utf8)
        let means = dir.appendingPathComponent("noisy-room-means")
        let learned = try CLI.run(["bench", "noisy-room-means", "--manifest", learnURL.path, "--write", means.path, "--data-dir", dir.path])
        #expect(learned.status == 0, "\(learned.stderr)")
        #expect(learned.stdout.contains("wrote the means for a noisy room, learned from 6 recordings of 2 speakers (pink noise at 10 dB), to \(means.path)"),
                "\(learned.stdout)")
        let model = try GaussianMeans.read(Data(contentsOf: URL(fileURLWithPath: "/usr/share/pocketsphinx/model/en-us/en-us/means")))
        let written = try GaussianMeans.read(Data(contentsOf: means))
        #expect(written.values.count == model.values.count && written.values != model.values)
        let halfway = dir.appendingPathComponent("halfway")
        let learnedHalfway = try CLI.run(["bench", "noisy-room-means", "--manifest", learnURL.path, "--write", halfway.path,
                                          "--share", "0.5", "--data-dir", dir.path])
        #expect(learnedHalfway.stdout.contains("(pink noise at 10 dB, moved 0.50 of the way), to \(halfway.path)"), "\(learnedHalfway.stdout)")
        let movedHalfway = try GaussianMeans.read(Data(contentsOf: halfway))
        let furthest = zip(movedHalfway.values.indices, movedHalfway.values).map { index, value in
            abs((value - model.values[index]) - (written.values[index] - model.values[index]) / 2)
        }.max() ?? .infinity
        #expect(furthest < 1e-3, "halfway means \(furthest) from halfway")

        let bench = try Self.benchOfNoisyReadings(Self.readings.prefix(4), in: dir)
        let withMeans = ["--noisy-room-means", means.path]
        let heard = try CLI.run(bench + withMeans), without = try CLI.run(bench + ["--noisy-room-means", "model"]),
            withTheLocales = try CLI.run(bench)
        #expect(heard.status == 0 && without.status == 0 && withTheLocales.status == 0, "\(heard.stderr)\(without.stderr)\(withTheLocales.stderr)")
        #expect(heard.stdout.contains("heard with the noise taken out and the means \(means.path): 4 of 4 recordings"), "\(heard.stdout)")
        #expect(without.stdout.contains("heard with the noise taken out and the model's own means: 4 of 4 recordings"), "\(without.stdout)")
        #expect(Self.items(heard.stdout).count == 4 && Self.items(heard.stdout) != Self.items(without.stdout), "\(heard.stdout)")
        #expect(Self.items(withTheLocales.stdout).count == 4 && Self.items(withTheLocales.stdout) != Self.items(without.stdout),
                "\(withTheLocales.stdout)")
        let asQuiet = try CLI.run(bench + withMeans + ["--background", "quiet"]), asQuietWithout = try CLI.run(bench + ["--background", "quiet"])
        #expect(asQuiet.status == 0 && asQuietWithout.status == 0, "\(asQuiet.stderr)\(asQuietWithout.stderr)")
        #expect(Self.items(asQuiet.stdout).count == 4 && Self.items(asQuiet.stdout) == Self.items(asQuietWithout.stdout), "\(asQuiet.stdout)")

        let oneVoice = dir.appendingPathComponent("one.tsv")
        try learnFrom.split(separator: "\n").filter { !$0.contains("\ten-gb\t") }.joined(separator: "\n")
            .write(to: oneVoice, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["bench", "noisy-room-means", "--manifest", oneVoice.path, "--write", means.path, "--data-dir", dir.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("needs recordings by at least two speakers"), "\(refused.stderr)")
        let missing = try CLI.run(bench + ["--noisy-room-means", dir.appendingPathComponent("none").path])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("--noisy-room-means: no file at"), "\(missing.stderr)")
        let noSNR = try CLI.run(["bench", "noisy-room-means", "--manifest", learnURL.path, "--write", means.path, "--snr", "nan"])
        #expect(noSNR.status != 0)
        #expect(noSNR.stderr.contains("--snr must be from -10 to 40 dB"), "\(noSNR.stderr)")

        // A learned voice replaces the model and its means: measuring them there would measure nothing.
        let voice = dir.appendingPathComponent("voice")
        try FileManager.default.createDirectory(at: voice, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(AdaptedVoice.Record(method: .mllr, enrolled: Date(), utterances: 20, seconds: 30))
            .write(to: voice.appendingPathComponent("voice.json"))
        try Data().write(to: voice.appendingPathComponent("mllr_matrix"))
        let withVoice = try CLI.run(bench + withMeans)
        #expect(withVoice.status != 0)
        #expect(withVoice.stderr.contains("--noisy-room-means is for the general model, and \(dir.path) has a learned voice"), "\(withVoice.stderr)")
    }

    /// Each item's line of a bench's details: what was heard and how well it fitted.
    static func items(_ output: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.hasPrefix("ok ") || $0.hasPrefix("MISS ") }
    }

    /// Bursts of a steady noise (2 s of pink noise, each after a silence) while a reading waits
    /// for its yes were heard as "help me" fitting -12 to -16, and each gave emergency help. Their
    /// sound hardly swings in loudness: the assistant says it did not catch them.
    @Test func burstsOfASteadyNoiseAreNotCallsForHelp() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let said = try SpokenFixtures.say("two hundred four milligrams per deciliter after dinner", voice: "en-us+m3", rate: 183)
        let level = try #require(NoiseMixer.speechPower(said)).squareRoot() / 3
        let pause = [Int16](repeating: 0, count: said.sampleRate * 3 / 2)
        var samples = pause + said.samples + pause
        for burst in 1...3 {
            let noise = NoiseMixer.noise(.pink, count: said.sampleRate * 2, seed: UInt64(burst))
            samples += noise.map { Int16(max(-32768, min(32767, ($0 * level).rounded()))) } + pause
        }
        let session = dir.appendingPathComponent("session.wav")
        try WAVFile.write(PCMAudio(samples: samples, sampleRate: said.sampleRate), to: session)
        let run = try CLI.run(["--audio-in", session.path, "--no-speech", "--country", "GB", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("204 mg/dL, after dinner."), "\(run.stdout)")
        #expect(!run.stdout.contains("Emergency help"), "\(run.stdout)")
        #expect(run.stdout.contains("didn't catch that"), "\(run.stdout)")
    }
}
