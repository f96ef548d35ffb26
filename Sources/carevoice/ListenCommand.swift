import ArgumentParser
import CareAssistant
import CareLanguage
import CareSpeech
import CareTerminal
import Foundation

/// Checks the microphone: prints what the recognizer hears, one line per utterance.
struct ListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen", abstract: "Test the microphone: print what CareVoice hears.")

    @OptionGroup var common: CommonOptions
    @Option(help: "ALSA capture device.") var device = "default"
    @Option(help: "Stop after this many utterances.") var utterances = 1
    @Option(help: "Stop after this many seconds.") var seconds = 30.0
    @Option(help: "Grammar: reading or answer.") var state = "reading"

    func run() throws {
        let env = try AppEnvironment.make(common)
        let source: MicrophoneSource
        do {
            source = try MicrophoneSource(device: device)
        } catch {
            throw CommandFailure(env.phrasebook.text(.noMicrophone))
        }
        defer { source.close() }
        let recognizer = try RecognizerFactory.make(table: env.table, resources: env.resources)
        try recognizer.selectGrammar(ListeningContext(rawValue: state)?.rawValue ?? ListeningContext.reading.rawValue)
        let deadline = Date().addingTimeInterval(seconds)
        var heard = 0
        while heard < utterances, Date() < deadline, var chunk = try source.read(frames: 1600) {
            NoiseFloor.apply(to: &chunk)
            for result in recognizer.process(chunk) where !result.text.isEmpty {
                Console.line(result.text)
                heard += 1
            }
        }
        if heard < utterances, let last = recognizer.finish(), !last.text.isEmpty { Console.line(last.text) }
    }
}
