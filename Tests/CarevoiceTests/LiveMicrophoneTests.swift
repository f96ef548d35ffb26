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
        let fifo = dir.appendingPathComponent("microphone.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let config = dir.appendingPathComponent("asound.conf")
        try """
            </usr/share/alsa/alsa.conf>
            pcm.carevoice_live_mic {
                type file
                slave.pcm "null"
                file "/dev/null"
                infile "\(fifo.path)"
                format "raw"
            }
            """.write(to: config, atomically: true, encoding: .utf8)

        // Silence, the reading, a pause for the read-back, "yes", then silence long enough for its
        // end to be heard and decoded before the typed quit arrives (a microphone never stops).
        func speech(_ text: String) throws -> [Int16] {
            Resampler.resample(try SpokenFixtures.say(text), to: 16000).samples
        }
        func silence(_ seconds: Double) -> [Int16] { [Int16](repeating: 0, count: Int(seconds * 16000)) }
        let microphone = silence(1) + (try speech("glucose seven point two before breakfast")) + silence(2)
            + (try speech("yes")) + silence(4)

        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["--microphone", "carevoice_live_mic", "--no-speech", "--data-dir", dir.path]
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = config.path
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()

        // The writer blocks until ALSA opens the FIFO; the program may also exit first (EPIPE).
        signal(SIGPIPE, SIG_IGN)
        let spoken = DispatchSemaphore(value: 0)
        Thread {
            defer { spoken.signal() }
            let fd = open(fifo.path, O_WRONLY)
            guard fd >= 0 else { return }
            defer { close(fd) }
            let chunk = 1600   // 0.1 s
            let start = Date()
            var offset = 0
            while offset < microphone.count {
                let end = min(offset + chunk, microphone.count)
                let ok = microphone[offset..<end].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) == $0.count }
                guard ok else { return }
                offset = end
                let due = start.addingTimeInterval(Double(offset) / 16000)
                if due > Date() { Thread.sleep(until: due) }
            }
        }.start()

        // Everything the program prints, as it prints it: the quit is typed only once the reply to
        // "yes" has come (or long after), however slowly this machine decodes today.
        let printed = PrintedOutput()
        let reader = DispatchSemaphore(value: 0)
        Thread {
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
        func soFar() -> String { printed.text }

        #expect(spoken.wait(timeout: .now() + 30) == .success, "the microphone was never opened")
        let replyDeadline = Date().addingTimeInterval(30)
        while !soFar().contains("Saved:") && !soFar().contains("Not saved") && Date() < replyDeadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        CLI.writeAll(Data("quit\n".utf8), to: input.fileHandleForWriting.fileDescriptor)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        _ = reader.wait(timeout: .now() + 5)
        let transcript = soFar()

        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(transcript)")
        #expect(transcript.contains("Heard: glucose 7.2 before breakfast"), "\(transcript)")
        #expect(transcript.contains("Saved: 7.2 mmol/L, before breakfast."), "\(transcript)")
        #expect(transcript.contains("Goodbye."), "the typed quit was heard alongside the microphone")
        #expect(!transcript.contains("ALSA lib"))
        let saved = try readings(in: dir)
        #expect(saved.count == 1)
        #expect(saved.first?.mmolPerL == 7.2)
        #expect(saved.first?.tag == "before-breakfast")
        #expect(saved.first?.source == "voice")
    }
}

/// What a program has printed so far, filled by a reader thread.
private final class PrintedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ bytes: ArraySlice<UInt8>) { lock.withLock { data.append(contentsOf: bytes) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
