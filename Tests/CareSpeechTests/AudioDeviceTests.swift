import CareTestSupport
import Foundation
import Testing
@testable import CareSpeech

/// ALSA without a sound card: the `file` plugin over the `null` device gives a virtual microphone
/// (it reads its `infile` into every capture buffer) and a virtual speaker (it writes what is
/// played to `file`). ALSA reads its configuration from ALSA_CONFIG_PATH, which must therefore be
/// in place before these devices are opened; `VirtualDevices.install()` does that (ALSA notices the
/// changed path and rereads), whichever test runs first.
enum VirtualDevices {
    struct Paths: Sendable {
        let directory: URL
        let microphoneInput: URL
        let speakerOutput: URL
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed: Paths?

    static func install() throws -> Paths {
        lock.lock()
        defer { lock.unlock() }
        if let installed { return installed }
        let dir = CLI.temporaryDirectory()
        let paths = Paths(directory: dir,
                          microphoneInput: dir.appendingPathComponent("vmic.s16le"),
                          speakerOutput: dir.appendingPathComponent("vspk.s16le"))
        // The microphone plays back this file: the utterance, then the plugin falls back to the
        // null device's silence. Written before the device is opened, since the plugin opens it then.
        var utterance = [Int16](repeating: 0, count: 8000) + (try speech16k("glucose six point five before breakfast"))
            + [Int16](repeating: 0, count: 16000)
        NoiseFloor.apply(to: &utterance)
        try utterance.withUnsafeBytes { Data($0) }.write(to: paths.microphoneInput)
        let configURL = dir.appendingPathComponent("asound.conf")
        try VirtualAudio.writeConfiguration([.microphone("carevoice_vmic", reading: paths.microphoneInput),
                                             .speaker("carevoice_vspk", writing: paths.speakerOutput)], to: configURL)
        // Use ALSA with its default configuration first, so the switch below must replace a cached one.
        _ = try? MicrophoneSource(device: "no_such_device")
        try AudioSystem.useALSAConfiguration(at: configURL.path)
        installed = paths
        return paths
    }

    static var microphoneSamples: Int {
        (try? Data(contentsOf: installed!.microphoneInput).count / 2) ?? 0
    }
}

@Suite(.serialized) struct AudioDeviceTests {
    @Test func aVirtualMicrophoneIsCapturedAndRecognised() throws {
        let paths = try VirtualDevices.install()
        let microphone = try MicrophoneSource(device: "carevoice_vmic")
        defer { microphone.close() }
        #expect(microphone.sampleRate == 16000)
        // Captured audio reaches the reader every 10 ms, the recognizer's block (read in 0.1 s
        // chunks, live replies came about 70 ms later).
        #expect(microphone.framesPerPeriod == 160)

        // Read exactly what the file holds, in the recognizer's blocks as the live loop does.
        let expected = try Data(contentsOf: paths.microphoneInput)
        var captured: [Int16] = []
        while captured.count < expected.count / 2 {
            guard let chunk = try microphone.read(frames: 160) else { break }
            #expect(chunk.count == 160)
            captured += chunk
        }
        let head = Array(captured.prefix(expected.count / 2))
        #expect(head.withUnsafeBytes { Data($0) } == expected, "the capture must be the infile, sample for sample")

        let recognizer = try Grammars.recognizer(select: "t")
        var texts = recognizer.process(captured).map(\.text)
        if let last = recognizer.finish() { texts.append(last.text) }
        #expect(texts == ["glucose six point five before breakfast"])

        microphone.close()
        #expect(try microphone.read(frames: 10) == nil)
    }

    @Test func aMissingCaptureDeviceThrowsQuicklyAndSilently() throws {
        _ = try VirtualDevices.install()
        let start = Date()
        let (error, stderrText) = capturingStandardError { () -> Error? in
            do {
                _ = try MicrophoneSource(device: "no_such_device")
                return nil
            } catch {
                return error
            }
        }
        let elapsed = Date().timeIntervalSince(start)
        guard case let SpeechError.audioDevice(reason)? = error else {
            Issue.record("expected SpeechError.audioDevice, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("no_such_device"))
        #expect(elapsed < 1, "took \(elapsed) s")
        #expect(!stderrText.contains("ALSA lib") && !stderrText.contains("no_such_device"), "stderr: \(stderrText)")

        #expect(throws: SpeechError.self) { _ = try SpeakerSink(device: "no_such_device") }
    }

    @Test func aVirtualSpeakerReceivesWhatIsPlayed() throws {
        let paths = try VirtualDevices.install()
        let audio = try SpokenFixtures.say("yes")
        do {
            let speaker = try SpeakerSink(device: "carevoice_vspk")
            try speaker.play(audio)
            try speaker.play(PCMAudio(samples: [1, 2, 3, 4], sampleRate: 16000))   // a second sound, other rate
        }   // closing the device flushes the file
        let written = try Data(contentsOf: paths.speakerOutput)
        let expected = (audio.samples + [1, 2, 3, 4]).withUnsafeBytes { Data($0) }
        #expect(written == expected)
    }
}
