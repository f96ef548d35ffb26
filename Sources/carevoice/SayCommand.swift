import ArgumentParser
import CareAssistant
import CareSpeech
import Foundation

/// Checks the speaker, or writes speech to a file: the counterpart of `listen`.
///
/// Also how tests make their spoken input: espeak-ng carries state from one sentence to the
/// next within a process (the same sentence said twice in a row differs by a few samples), so
/// a sentence said by a fresh process is the one thing that sounds the same on every run.
struct SayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say", abstract: "Test the speaker: say a sentence (or write it to a WAV file).")

    @OptionGroup var common: CommonOptions
    @Option(help: "espeak-ng voice, e.g. en-us, en-gb, en-us+f3 (default: the language's voice).") var voice: String?
    @Option(help: "Words per minute.") var rate = 150
    @Option(help: "ALSA playback device.") var speaker = "default"
    @Option(name: .customLong("out"), help: "Write the speech to this WAV file instead of playing it.") var out: String?
    @Option(name: .customLong("sample-rate"), help: "Sample rate of the WAV file (default: espeak-ng's own, 22050).")
    var sampleRate: Int?
    @Argument(help: "What to say.") var words: [String]

    func validate() throws {
        if let sampleRate, !(8000...192_000).contains(sampleRate) {
            throw ValidationError("--sample-rate must be between 8000 and 192000")
        }
        if sampleRate != nil && out == nil { throw ValidationError("--sample-rate needs --out") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let synthesizer: SpeechSynthesizer
        do {
            synthesizer = try SpeechSynthesizer.shared()
        } catch {
            throw CommandFailure(env.phrasebook.text(.noSpeechEngine, ["reason": "\(error)"]))
        }
        let text = words.joined(separator: " ")
        let style = SpeechOutputStyle(voice: voice ?? env.table.speech.voice, rate: rate, pinyin: env.pinyin)
        if let out {
            var audio = try style.synthesize(text, with: synthesizer)
            if let sampleRate { audio = Resampler.resample(audio, to: sampleRate) }
            try WAVFile.write(audio, to: URL(fileURLWithPath: out))
            return
        }
        func cannotPlay(_ reason: String) -> CommandFailure {
            CommandFailure(env.phrasebook.text(.cannotPlay, ["reason": reason]))
        }
        let output: SpeakerOutput
        do {
            output = SpeakerOutput(synthesizer: synthesizer, sink: try SpeakerSink(device: speaker), style: style)
        } catch {
            throw cannotPlay("\(error)")
        }
        do {
            try output.speak(text)   // as the assistant speaks: each piece played as it is made
        } catch SpeechError.audioDevice(let reason) {
            throw cannotPlay(reason)
        }
    }
}
