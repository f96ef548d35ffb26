import CareSpeech
import Foundation
import Logging

/// Where the assistant's voice goes: the speaker, a WAV file, or nowhere.
public protocol SpeechOutput: AnyObject {
    /// Speaks and returns when done (so the microphone can be trusted again).
    func speak(_ text: String) throws
}

/// Nothing is spoken (`--no-speech`, or no way to make sound).
public final class SilentOutput: SpeechOutput {
    public init() {}
    public func speak(_ text: String) throws {}
}

/// espeak-ng in process, played through ALSA.
public final class SpeakerOutput: SpeechOutput {
    private let synthesizer: SpeechSynthesizer
    private let sink: SpeakerSink
    private let voice: String
    private let rate: Int

    public init(synthesizer: SpeechSynthesizer, sink: SpeakerSink, voice: String, rate: Int = 150) {
        self.synthesizer = synthesizer
        self.sink = sink
        self.voice = voice
        self.rate = rate
    }

    public func speak(_ text: String) throws {
        try sink.play(synthesizer.synthesize(text, voice: voice, rate: rate))
    }
}

/// Everything spoken goes into one WAV file (`--audio-out`), each sentence
/// followed by a short pause; the file is rewritten after every sentence so it
/// is complete whenever the program stops.
public final class WAVFileOutput: SpeechOutput {
    private let synthesizer: SpeechSynthesizer
    private let url: URL
    private let voice: String
    private var audio: PCMAudio

    public init(synthesizer: SpeechSynthesizer, url: URL, voice: String) throws {
        self.synthesizer = synthesizer
        self.url = url
        self.voice = voice
        audio = PCMAudio(samples: [], sampleRate: synthesizer.sampleRate)
        try WAVFile.write(audio, to: url)
    }

    public func speak(_ text: String) throws {
        let sentence = try synthesizer.synthesize(text, voice: voice)
        audio.samples += sentence.samples
        audio.samples += [Int16](repeating: 0, count: audio.sampleRate * 3 / 10)
        try WAVFile.write(audio, to: url)
    }
}
