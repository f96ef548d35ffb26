import CareSpeech
import CareTestSupport
import Foundation
import Testing

/// The assistant on a live ALSA microphone, with no sound card: the `file` plugin reads its
/// `infile`, here a FIFO that the test fills in real time, as a microphone would deliver it.
/// (A plain file is read faster than real time, which no microphone does: a reply spoken while
/// the assistant mutes itself would be lost.) The keyboard is open at the same time.
@Suite(.serialized) struct LiveMicrophoneTests {
    @Test func aReadingSaidToTheMicrophoneIsConfirmedByVoiceAndSaved() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLI.onboard(dir)   // already set up: no questions first
        // What the last session kept of the voice, unreadable: passed over, and replaced.
        let mean = dir.appendingPathComponent("microphone-mean-quiet.txt")
        try "1.0 oops\n".write(to: mean, atomically: true, encoding: .utf8)

        let session = try LiveSession(dataDirectory: dir, microphone: try LiveSession.readingThenYes(), arguments: ["--verbose"])
        #expect(session.microphoneOpened(), "the microphone was never opened")
        let transcript = session.quitAfterTheReply()
        #expect(transcript.contains("cepstral mean kept last session (microphone-mean-quiet.txt) cannot be read"), "\(transcript)")

        #expect(session.exitedCleanly, "\(transcript)")
        #expect(transcript.contains("Heard: glucose 7.2 before breakfast"), "\(transcript)")
        #expect(transcript.contains("Saved: 7.2 mmol/L, before breakfast."), "\(transcript)")
        #expect(transcript.contains("Goodbye."), "the typed quit was heard alongside the microphone")
        #expect(!transcript.contains("ALSA lib"))
        let saved = try readings(in: dir)
        #expect(saved.count == 1)
        #expect(saved.first?.mmolPerL == 7.2)
        #expect(saved.first?.tag == "before-breakfast")
        #expect(saved.first?.source == "voice")
        // The mean of the voice heard this session is kept for the next (`RememberedMean`).
        let kept = try String(contentsOf: mean, encoding: .utf8)
        let numbers = kept.split(separator: "\n").last { !$0.hasPrefix("#") }?.split(separator: " ").compactMap { Float($0) }
        #expect(numbers?.count == 13, "\(kept)")

        // The next session starts from it, and hears the reading as the first did.
        let next = try LiveSession(dataDirectory: dir, microphone: try LiveSession.readingThenYes(), arguments: ["--verbose"])
        #expect(next.microphoneOpened(), "the microphone was never opened")
        let again = next.quitAfterTheReply()
        #expect(next.exitedCleanly, "\(again)")
        #expect(again.contains("starting from the cepstral mean kept last session (microphone-mean-quiet.txt)"), "\(again)")
        #expect(try readings(in: dir).map(\.mmolPerL) == [7.2, 7.2])
    }

    /// A reading heard from the microphone whose number the person corrects on the line is saved
    /// as corrected, and its recording is kept to learn the voice from with the words said: those
    /// heard, with the number as saved.
    @Test func aReadingCorrectedOnTheLineIsKeptWithItsNumberAsSaved() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLI.onboard(dir)
        let microphone = LiveSession.silence(1) + (try LiveSession.speech("glucose seven point two before breakfast")) + LiveSession.silence(8)
        let session = try LiveSession(dataDirectory: dir, microphone: microphone)
        #expect(session.microphoneOpened(), "the microphone was never opened")
        session.waitFor(seconds: 60) { $0.contains("Heard: glucose 7.2 before breakfast") }
        session.type("glucose 6.5 before breakfast\n")
        session.waitFor { $0.contains("Saved: 6.5") }
        let transcript = session.finish(typing: "quit\n")
        #expect(session.exitedCleanly, "\(transcript)")
        #expect(transcript.contains("Heard: glucose 7.2 before breakfast"), "\(transcript)")
        #expect(try readings(in: dir).map(\.mmolPerL) == [6.5], "\(transcript)")
        #expect(confirmedSpeech(in: dir) == ["glucose six point five before breakfast"], "\(transcript)")
    }

    /// "Add a diary note" to the microphone, then the note by free dictation (Debian's general
    /// English language model): what was recognised is shown, a corrected line is typed, and the
    /// corrected text is what is saved.
    @Test func aDictatedNoteIsShownAndTheCorrectedTextIsSaved() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLI.onboard(dir)
        let microphone = LiveSession.silence(1) + (try LiveSession.speech("add a diary note")) + LiveSession.silence(2)
            + (try LiveSession.speech("porridge with banana for breakfast")) + LiveSession.silence(8)
        let session = try LiveSession(dataDirectory: dir, microphone: microphone)
        #expect(session.microphoneOpened(), "the microphone was never opened")
        session.waitFor(seconds: 60) { $0.contains("What would you like to note?") && $0.contains("Heard: ") }
        let heardLine = session.output.split(separator: "\n").last { $0.hasPrefix("Heard: ") }.map(String.init) ?? ""
        session.type("Porridge with banana and honey\n")
        session.waitFor { $0.contains("Saved note") }
        let transcript = session.finish(typing: "quit\n")

        #expect(session.exitedCleanly, "\(transcript)")
        #expect(transcript.contains("Note: "), "the dictated note was read back: \(transcript)")
        #expect(heardLine.count > "Heard: ".count, "the recognised words reached the line: \(transcript)")
        #expect(transcript.contains("Saved note 1: Porridge with banana and honey."), "\(transcript)")
        let notes = try DiaryTests.notes(dir)
        #expect(notes.map(\.body) == ["Porridge with banana and honey"])
    }

    /// "Forget my voice" to the microphone, then yes: from the next utterance on the microphone is
    /// heard with the general model. The learned voice is a real speaker's (FSDD jackson), which
    /// heard this synthetic reading wrongly when kept to the end of a recording
    /// (EnrollmentTests); here the reading after the switch is heard and saved.
    /// His recordings are telephone band, so his voice would be learned from the means for that
    /// band, a voice for telephone-band audio that does not hear this full-band microphone at all;
    /// it is learned from the model's own means instead, as a microphone's voice is.
    @Test func aForgottenVoiceIsSwitchedOffWhileListening() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLI.onboard(dir)
        let enroll = try EnrollmentTests.manifest(speaker: "jackson", takes: 0...0, in: dir, name: "enroll.tsv")
        let fullBand = try CLI.homeWithoutNarrowbandMeans(in: dir)
        #expect(try CLI.run(["enroll", "--data-dir", dir.path, "--manifest", enroll.path, "--method", "mllr"],
                            environment: ["CAREVOICE_HOME": fullBand.path]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("voice/base-means").path))

        let microphone = LiveSession.silence(1) + (try LiveSession.speech("forget my voice")) + LiveSession.silence(4)
            + (try LiveSession.speech("yes")) + LiveSession.silence(8)
            + (try LiveSession.speech("glucose six point five before breakfast")) + LiveSession.silence(4)
            + (try LiveSession.speech("yes")) + LiveSession.silence(4)
        let session = try LiveSession(dataDirectory: dir, microphone: microphone)
        #expect(session.microphoneOpened(), "the microphone was never opened")
        session.waitFor(seconds: 90) { $0.contains("Saved:") || $0.contains("Not saved") }
        let transcript = session.finish(typing: "quit\n")

        #expect(session.exitedCleanly, "\(transcript)")
        #expect(transcript.contains("Shall I forget your voice"), "\(transcript)")
        #expect(transcript.contains("I forgot your voice. From now on I use the general one."), "\(transcript)")
        #expect(transcript.contains("Saved: 6.5 mmol/L, before breakfast."), "\(transcript)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("voice").path))
    }

    /// "Learn my voice", yes, to the microphone: the listener lets go of it, each phrase is said
    /// once shown and heard on a microphone opened after it was shown, the voice is
    /// learned, and the microphone listens again with it: the reading said next is saved.
    @Test func aVoiceIsLearnedOnTheMicrophone() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLI.onboard(dir)
        let phrases = try Session.resources.loadLocale("en").enrollment.prompts
        var speech = [LiveSession.Cued(cue: nil, samples: LiveSession.silence(1) + (try LiveSession.speech("learn my voice"))),
                      LiveSession.Cued(cue: "Say yes or no.", samples: try LiveSession.speech("yes"))]
        for (index, phrase) in phrases.enumerated() {
            speech.append(LiveSession.Cued(cue: "\(index + 1) of 20: say \"\(phrase)\"", samples: try LiveSession.speech(phrase)))
        }
        speech.append(LiveSession.Cued(cue: "Done. I learned", samples: try LiveSession.readingThenYes()))
        let session = try LiveSession(dataDirectory: dir, speech: speech, arguments: ["--verbose"])
        #expect(session.microphoneOpened(seconds: 240), "the microphone did not hear every phrase")
        let transcript = session.quitAfterTheReply()

        #expect(session.exitedCleanly, "\(transcript)")
        #expect(transcript.contains("Shall I learn your voice now?"), "\(transcript)")
        // The yes is said as soon as the question shows, and heard whole. Shown without sound
        // (--no-speech), a line used to leave the microphone deaf for 0.3 s: the yes was heard
        // from its last sound, 44 dB above the background instead of 54, and under load as "help".
        let yes = transcript.firstMatch(of: #/heard yes \(fit [-\d.]+, ([\d.]+) dB above the background/#).flatMap { Double($0.1) }
        #expect((yes ?? 0) > 50, "\(transcript)")
        #expect(transcript.contains("20 of 20: say \"\(phrases[19])\""), "\(transcript)")
        // Each phrase reached the microphone opened for it: all or nearly all were clear.
        let learned = transcript.firstMatch(of: #/I learned your voice from (\d+) recordings/#).flatMap { Int($0.1) }
        #expect((learned ?? 0) >= 18, "\(transcript)")
        #expect(transcript.contains("Saved: 7.2 mmol/L, before breakfast."), "\(transcript)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("voice/voice.json").path))
    }

    /// A Chinese session cannot hear Chinese without a learned voice, so the microphone stays
    /// closed; "说英文" typed and confirmed switches to English, which is heard: the microphone
    /// opens then, and the reading said to it is saved.
    @Test func switchingToAHeardLanguageOpensTheMicrophone() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLI.onboard(dir)
        let session = try LiveSession(dataDirectory: dir, microphone: try LiveSession.readingThenYes(),
                                      arguments: ["--locale", "zh-Hans"])
        session.waitFor { $0.contains("要听懂您说的中文") }
        session.type("说英文\n对\n")
        #expect(session.microphoneOpened(), "the microphone was never opened: \(session.output)")
        let transcript = session.quitAfterTheReply()

        #expect(session.exitedCleanly, "\(transcript)")
        #expect(transcript.contains("Saved. Language: English."), "\(transcript)")
        #expect(transcript.contains("Heard: glucose 7.2 before breakfast"), "\(transcript)")
        #expect(try readings(in: dir).map(\.mmolPerL) == [7.2], "\(transcript)")
    }

    /// Piped input has ended and only the microphone is left; "speak chinese", "yes" switches to
    /// a language not heard yet, so the microphone stops: with nothing left to listen to, the
    /// session ends by itself instead of waiting for ever.
    @Test func aSessionWithNothingLeftToHearEnds() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLI.onboard(dir)
        let microphone = LiveSession.silence(1) + (try LiveSession.speech("speak chinese")) + LiveSession.silence(3)
            + (try LiveSession.speech("yes")) + LiveSession.silence(6)
        let session = try LiveSession(dataDirectory: dir, microphone: microphone)
        session.endTyping()
        #expect(session.microphoneOpened(), "the microphone was never opened")
        let transcript = session.waitForExit()

        #expect(session.exitedCleanly, "\(transcript)")
        #expect(transcript.contains("已保存。语言：中文。"), "\(transcript)")
        #expect(transcript.contains("要听懂您说的中文，我得先学会您的声音"), "\(transcript)")
    }
}

/// The program on a virtual microphone fed in real time, its keyboard a pipe, its output read
/// as it comes.
final class LiveSession {
    static func speech(_ text: String) throws -> [Int16] { Resampler.resample(try SpokenFixtures.say(text), to: 16000).samples }
    static func silence(_ seconds: Double) -> [Int16] { [Int16](repeating: 0, count: Int(seconds * 16000)) }

    /// Silence, "glucose seven point two before breakfast", a pause for the read-back, "yes",
    /// then silence long enough for its end to be heard and decoded before the typed quit
    /// arrives (a microphone never stops).
    static func readingThenYes() throws -> [Int16] {
        silence(1) + (try speech("glucose seven point two before breakfast")) + silence(2) + (try speech("yes")) + silence(4)
    }

    private let process = Process()
    private let input = Pipe()
    private let printed = PrintedOutput()
    private let spoken = DispatchSemaphore(value: 0)
    private let reader = DispatchSemaphore(value: 0)

    /// Speech said once `cue` has been printed (nil: at once).
    struct Cued {
        var cue: String?
        var samples: [Int16]
    }

    convenience init(dataDirectory dir: URL, microphone: [Int16], arguments: [String] = []) throws {
        try self.init(dataDirectory: dir, speech: [Cued(cue: nil, samples: microphone)], arguments: arguments)
    }

    /// `speech` is said in turn, each part once its cue has been printed, with silence between:
    /// a person answering what they are shown. The microphone may be closed and opened again
    /// meanwhile (learning a voice opens it for each phrase): what it did not take is said again
    /// once it is open.
    init(dataDirectory dir: URL, speech: [Cued], arguments: [String] = []) throws {
        let fifo = dir.appendingPathComponent("microphone.fifo")
        try? FileManager.default.removeItem(at: fifo)   // an earlier session's, in the same data directory
        guard mkfifo(fifo.path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let config = dir.appendingPathComponent("asound.conf")
        try VirtualAudio.writeConfiguration([.microphone("carevoice_live_mic", reading: fifo)], to: config)

        process.executableURL = CLI.binary
        process.arguments = ["--microphone", "carevoice_live_mic", "--no-speech", "--data-dir", dir.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = config.path
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()

        // The writer waits until ALSA opens the FIFO; the program may also exit first (EPIPE).
        signal(SIGPIPE, SIG_IGN)
        Thread { [spoken, process, printed] in
            defer { spoken.signal() }
            guard var fd = Self.openForWriting(fifo, while: process) else { return }
            defer { close(fd) }
            let chunk = 1600   // 0.1 s
            var start = Date()
            var written = 0   // samples, speech and silence, since `start`
            /// Writes in real time; false once the program has ended.
            func say(_ block: [Int16]) -> Bool {
                while !block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) == $0.count }) {
                    // Closed (EPIPE): said again once the microphone is open again.
                    close(fd)
                    guard let reopened = Self.openForWriting(fifo, while: process) else { return false }
                    fd = reopened
                    start = Date()
                    written = 0
                }
                written += block.count
                let due = start.addingTimeInterval(Double(written) / 16000)
                if due > Date() { Thread.sleep(until: due) }
                return true
            }
            let quiet = [Int16](repeating: 0, count: chunk)
            for part in speech {
                let deadline = Date().addingTimeInterval(120)
                while let cue = part.cue, !printed.text.contains(cue), Date() < deadline {
                    guard say(quiet) else { return }
                }
                var offset = 0
                while offset < part.samples.count {
                    let end = min(offset + chunk, part.samples.count)
                    guard say(Array(part.samples[offset..<end])) else { return }
                    offset = end
                }
            }
        }.start()

        Thread { [reader, printed] in
            defer { reader.signal() }
            let fd = output.fileHandleForReading.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                printed.append(buffer[0..<n])
            }
        }.start()
    }

    /// Opens the FIFO once the program opens it for reading; nil if the program ends first.
    private static func openForWriting(_ fifo: URL, while process: Process) -> Int32? {
        while process.isRunning {
            let fd = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFL, 0)   // blocking writes from here on: real time, as a microphone
                return fd
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    /// Everything printed so far.
    var output: String { printed.text }

    /// Whether the whole microphone recording was taken within `seconds`.
    func microphoneOpened(seconds: Double = 60) -> Bool { spoken.wait(timeout: .now() + seconds) == .success }

    /// Waits until the output satisfies `condition`, or `seconds` have passed.
    func waitFor(seconds: Double = 30, _ condition: (String) -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(output) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    }

    func type(_ text: String) { CLI.writeAll(Data(text.utf8), to: input.fileHandleForWriting.fileDescriptor) }

    /// Types quit once the reply to a reading has come (or long after), however slowly this
    /// machine decodes today, and returns all the program printed.
    func quitAfterTheReply() -> String {
        waitFor { $0.contains("Saved:") || $0.contains("Not saved") }
        return finish(typing: "quit\n")
    }

    /// The keyboard's input ends (as piped input does); the program reads no more lines.
    func endTyping() { try? input.fileHandleForWriting.close() }

    /// Waits up to `seconds` for the program to end by itself, and returns all it printed.
    func waitForExit(seconds: Double = 30) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        _ = reader.wait(timeout: .now() + 5)
        return output
    }

    /// Types the last line, waits for the program to end, and returns all it printed.
    func finish(typing text: String) -> String {
        type(text)
        return waitForExit(seconds: 10)
    }

    var exitedCleanly: Bool { !process.isRunning && process.terminationReason == .exit && process.terminationStatus == 0 }
}

/// What a program has printed so far, filled by a reader thread.
private final class PrintedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ bytes: ArraySlice<UInt8>) { lock.withLock { data.append(contentsOf: bytes) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
