import ArgumentParser
import CareAssistant
import CareLanguage
import CareModel
import CareSpeech
import CareStore
import CareTerminal
import Foundation

struct AssistantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assistant",
        abstract: "Talk to CareVoice (the default): say or type a glucose reading, confirm, saved."
    )

    @OptionGroup var common: CommonOptions

    @Flag(help: "Keyboard only: do not use the microphone.")
    var text = false

    @Option(name: .customLong("audio-in"), help: "Use this WAV file as the microphone; exit at its end.")
    var audioIn: String?

    @Option(name: .customLong("audio-out"), help: "Write everything spoken to this WAV file instead of the speaker.")
    var audioOut: String?

    @Option(help: "ALSA capture device.")
    var microphone = "default"

    @Option(help: "ALSA playback device.")
    var speaker = "default"

    @Option(help: "Unit for numbers said without one, when both would fit: mmol/L or mg/dL.")
    var unit = "mmol/L"

    func validate() throws {
        guard GlucoseUnit(rawValue: unit) ?? GlucoseUnit.allCases.first(where: { $0.rawValue.lowercased() == unit.lowercased() }) != nil else {
            throw ValidationError("--unit must be mmol/L or mg/dL")
        }
        if text && audioIn != nil { throw ValidationError("--text and --audio-in cannot be used together") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        var notices: [Message] = []
        let preferred = GlucoseUnit.allCases.first { $0.rawValue.lowercased() == unit.lowercased() } ?? .mmolPerL

        let dataDirectory = env.dataDirectory
        let store = PendingStore { try Store(directory: dataDirectory) }

        let speech = makeSpeechOutput(env, notices: &notices)

        var voice = VoiceInput.none
        var recognizer: SpeechRecognizer?
        if let audioIn {
            let audio: PCMAudio
            do {
                audio = try WAVFile.read(URL(fileURLWithPath: audioIn))
            } catch {
                throw CommandFailure(book.text(.audioFileError, ["path": audioIn, "reason": describe(error, book)]))
            }
            recognizer = try RecognizerFactory.make(table: env.table, resources: env.resources)
            voice = .recording(audio)
        } else if !text {
            do {
                let source = try MicrophoneSource(device: microphone)
                recognizer = try RecognizerFactory.make(table: env.table, resources: env.resources)
                voice = .microphone(source)
            } catch SpeechError.audioDevice {
                notices.append(book.message(.noMicrophone))
            } catch {
                notices.append(book.message(.noSpeechEngine, ["reason": Message("\(error)")]))
            }
        }
        if audioIn == nil, case .none = voice {
            notices.append(book.message(.keyboardHint))
        }

        var configuration = AssistantRuntime.Configuration(
            phrasebook: book, preferredUnit: preferred, store: store,
            recognizer: recognizer, voice: voice, keyboard: audioIn == nil, speech: speech, notices: notices)
        configuration.style = env.style
        configuration.emergency = env.emergencyHelp
        AssistantRuntime(configuration).run()
    }

    private func makeSpeechOutput(_ env: AppEnvironment, notices: inout [Message]) -> SpeechOutput {
        if common.noSpeech { return SilentOutput() }
        let synthesizer: SpeechSynthesizer
        do {
            synthesizer = try SpeechSynthesizer.shared()
        } catch {
            notices.append(env.phrasebook.message(.noSpeechEngine, ["reason": Message("\(error)")]))
            return SilentOutput()
        }
        if let audioOut {
            do {
                return try WAVFileOutput(synthesizer: synthesizer, url: URL(fileURLWithPath: audioOut), voice: env.table.speech.voice)
            } catch {
                notices.append(env.phrasebook.message(.noSpeaker))
                return SilentOutput()
            }
        }
        do {
            return SpeakerOutput(synthesizer: synthesizer, sink: try SpeakerSink(device: speaker), voice: env.table.speech.voice)
        } catch {
            notices.append(env.phrasebook.message(.noSpeaker))
            return SilentOutput()
        }
    }
}

/// One short reason for an audio file problem, in the person's language.
func describe(_ error: Error, _ book: Phrasebook) -> String {
    switch error {
    case AudioFileError.unreadable: return book.text(.audioUnreadable)
    case AudioFileError.notWAV: return book.text(.audioNotWAV)
    case AudioFileError.unsupportedFormat(let format): return book.text(.audioUnsupported, ["format": format])
    case AudioFileError.truncated: return book.text(.audioTruncated)
    default: return "\(error)"
    }
}
