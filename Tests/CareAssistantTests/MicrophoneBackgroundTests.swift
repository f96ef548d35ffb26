import CareLanguage
import CareSpeech
import CareTestSupport
import Foundation
import Testing
@testable import CareAssistant

/// A microphone in a noisy room: once an utterance tells the background is noisy, the listener
/// hears it again, and the next ones, with a recognizer that takes the noise out
/// (`AudioBackground`, `BackgroundFollower`).
@Suite(.serialized) struct MicrophoneBackgroundTests {
    /// The same reading twice into a microphone with pink noise `snr` dB under the speech (nil:
    /// none, the microphone's own floor only), as a listener hears it (real recognizer, real synthesized speech, the audio served in chunks).
    static func heard(_ sentence: String, voice: String, rate: Int, remakes: Bool, snr: Double? = 10) throws
        -> (texts: [String], remade: [AudioBackground]) {
        let said = Resampler.resample(try SpokenFixtures.say(sentence, voice: voice, rate: rate), to: 16000).samples
        let pause = [Int16](repeating: 0, count: 32000)
        let quiet = PCMAudio(samples: pause + said + pause + said + pause, sampleRate: 16000)
        let room = snr.map { NoiseMixer.mix(quiet, noise: .pink, snr: $0, seed: 50) } ?? quiet
        let resources = ChineseRecognizerTests.resources
        let remade = Locked<[AudioBackground]>([])
        let events = EventQueue()
        let listener = MicrophoneListener(
            source: BufferAudioSource(room), recognizer: try RecognizerFactory.make(table: english, resources: resources),
            acceptance: SpeechAcceptance(table: english), events: events,
            remake: remakes ? { background in
                remade.mutate { $0.append(background) }
                return try RecognizerFactory.make(table: english, resources: resources, conditions: AudioConditions(background: background))
            } : nil)
        listener.start(context: .reading)
        var texts: [String] = []
        while texts.count < 2 {
            switch events.take().event {
            case .heard(let text), .heardUnsure(let text): texts.append(text)
            default: break
            }
        }
        _ = listener.stopAndWait()
        return (texts, remade.value)
    }

    /// Of 8 readings of the development corpus tried so, 6 were heard right the second time with
    /// the noise taken out, none with it left in; this one came out "seven point eight" then.
    /// The first utterance, which told the room is noisy, is heard again with the noise taken
    /// out: right too, where the quiet room's recognizer heard "seven point eight".
    @Test func aNoisyRoomIsHeardWithTheNoiseTakenOutFromTheUtteranceThatToldIt() throws {
        let sentence = "my blood sugar is seven point six before breakfast"
        let taken = try Self.heard(sentence, voice: "en-gb-x-rp", rate: 141, remakes: true)
        #expect(taken.remade == [.noisy], "one recognizer made, after the first utterance")
        #expect(taken.texts == [sentence, sentence], "\(taken.texts)")
        let left = try Self.heard(sentence, voice: "en-gb-x-rp", rate: 141, remakes: false)
        #expect(left.texts.allSatisfy { $0 != sentence }, "the noise left in: \(left.texts)")
    }

    /// Until an utterance has told the room is noisy, its recognizer is a quiet room's, which
    /// ends a reading whose number is whole at its first short pause (`endsOfSpeech`). In noise
    /// the detector hears such pauses inside the words: the first reading said in a noisy
    /// kitchen came out as "... fifteen point five millimole" and "reading two before
    /// breakfast", the second read back in place of the first (`bench loop --noise pink --snr 10`:
    /// 44 of 100 sessions). An utterance that sounds noisy so far ends early only where nothing
    /// said after could change it (`answersAtOnceOverNoise`).
    @Test func aFirstReadingInANoisyRoomIsNotCutAtAPauseTheNoiseMade() throws {
        let sentence = "my blood sugar is fifteen point five millimoles per litre before breakfast"
        let heard = try Self.heard(sentence, voice: "en-gb-x-rp", rate: 150, remakes: false)
        #expect(heard.texts.allSatisfy { $0.hasSuffix("before breakfast") }, "\(heard.texts)")
    }

    /// In a quiet room the recognizer stays.
    @Test func aQuietRoomKeepsTheRecognizer() throws {
        let heard = try Self.heard("glucose six point five before breakfast", voice: "en-us", rate: 150, remakes: true, snr: nil)
        #expect(heard.remade.isEmpty)
        #expect(heard.texts == ["glucose six point five before breakfast", "glucose six point five before breakfast"])
    }
}

/// The listener takes what the microphone captured a recognizer block (10 ms) at a time: read
/// in 0.1 s chunks, the end of speech was found up to 0.1 s after it was heard.
@Test func theListenerReadsTheMicrophoneABlockAtATime() throws {
    final class CountedSource: AudioSource {
        let inner: BufferAudioSource
        let asked = Locked<[Int]>([])
        let drained = DispatchSemaphore(value: 0)
        var sampleRate: Int { inner.sampleRate }
        init(_ audio: PCMAudio) { inner = BufferAudioSource(audio) }
        func read(frames: Int) throws -> [Int16]? {
            asked.mutate { $0.append(frames) }
            guard let samples = try inner.read(frames: frames) else { drained.signal(); return nil }
            return samples
        }
        func close() { inner.close() }
    }
    let source = CountedSource(PCMAudio(samples: [Int16](repeating: 0, count: 16000), sampleRate: 16000))
    let listener = MicrophoneListener(
        source: source, recognizer: try RecognizerFactory.make(table: english, resources: ChineseRecognizerTests.resources),
        acceptance: SpeechAcceptance(table: english), events: EventQueue())
    listener.start(context: .reading)
    source.drained.wait()
    _ = listener.stopAndWait()
    #expect(source.asked.value.count > 100, "a second of audio in 10 ms blocks")
    #expect(Set(source.asked.value) == [160])
}
