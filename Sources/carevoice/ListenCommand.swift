import ArgumentParser
import CareAssistant
import CareLanguage
import CareSpeech
import CareTerminal
import Foundation

/// Checks the microphone, or a recording: prints what the recognizer hears, one line per
/// utterance, exactly as the assistant would hear it.
struct ListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen", abstract: "Test the microphone (or a WAV file): print what CareVoice hears.")

    @OptionGroup var common: CommonOptions
    @Option(help: "ALSA capture device.") var device = "default"
    @Option(name: .customLong("audio-in"), help: "Listen to this WAV file instead of the microphone.")
    var audioIn: String?
    @Option(help: "Stop after this many utterances (microphone only).") var utterances = 1
    @Option(help: "Stop after this many seconds (microphone only).") var seconds = 30.0
    @Option(help: "Grammar: \(ListeningContext.allCases.map(\.rawValue).joined(separator: " or ")).")
    var state = ListeningContext.reading.rawValue

    func validate() throws {
        guard ListeningContext(rawValue: state) != nil else {
            throw ValidationError("--state must be one of: \(ListeningContext.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        if let audioIn {
            let audio = try readRecording(audioIn, book)
            let recognizer = try env.hearing(audio).makeRecognizer(measuring: true)
            try recognizer.selectGrammar(state)
            recognizer.run(audio) { result in
                if !result.text.isEmpty { Console.line(result.text) }
            }
            return
        }
        let source: MicrophoneSource
        do {
            source = try MicrophoneSource(device: device)
        } catch {
            throw CommandFailure(book.text(.noMicrophone))
        }
        defer { source.close() }
        let recognizer = try env.makeRecognizer(measuring: true)
        try recognizer.selectGrammar(state)
        let deadline = Date().addingTimeInterval(seconds)
        var heard = 0
        var floor = NoiseFloor.Stream()
        while heard < utterances, Date() < deadline,
              var chunk = try source.read(frames: SpeechRecognizer.blockSamples(source.sampleRate)) {
            floor.apply(to: &chunk)
            for result in recognizer.process(chunk) where !result.text.isEmpty {
                Console.line(result.text)
                heard += 1
            }
        }
        if heard < utterances, let last = recognizer.finish(), !last.text.isEmpty { Console.line(last.text) }
    }
}
