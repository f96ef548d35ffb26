import CareLanguage
import CareSpeech
import CareTestSupport
import Foundation
import Logging
import Testing
@testable import CareAssistant

/// `BackgroundFollower`: after an utterance that tells the room got noisy, the noisy room's
/// recognizer hears from then on, and hears that utterance again.
@Suite(.serialized) struct BackgroundFollowerTests {
    static let resources = ChineseRecognizerTests.resources
    let logger = Logger(label: "test")

    static let sentence = "glucose six point five before breakfast"

    /// The sentence said a second into a room with pink noise `snr` dB under it (nil: a quiet
    /// one), with a microphone's floor.
    static func room(snr: Double?) throws -> [Int16] {
        let said = Resampler.resample(try SpokenFixtures.say(sentence, voice: "en-gb", rate: 150), to: 16000).samples
        let quietRoom = PCMAudio(samples: [Int16](repeating: 0, count: 16000) + said + [Int16](repeating: 0, count: 16000), sampleRate: 16000)
        var room = snr.map { NoiseMixer.mix(quietRoom, noise: .pink, snr: $0, seed: 50).samples } ?? quietRoom.samples
        NoiseFloor.apply(to: &room)
        return room
    }

    /// A quiet room's recognizer hearing `room` as a stream, with a follower (`prepared`: that
    /// the recognizer lets make the noisy room's while an utterance is said), what it heard, and
    /// the recognizers the follower made.
    func heard(_ room: [Int16], prepared: Bool) throws
        -> (quiet: SpeechRecognizer, follower: BackgroundFollower, heard: [RecognitionResult], remade: Locked<[AudioBackground]>) {
        let quiet = try RecognizerFactory.make(table: english, resources: Self.resources)
        try quiet.selectGrammar(ListeningContext.reading.rawValue)
        let remade = Locked<[AudioBackground]>([])
        let follower = BackgroundFollower(remake: { background in
            remade.mutate { $0.append(background) }
            return try RecognizerFactory.make(table: english, resources: Self.resources, conditions: AudioConditions(background: background))
        }, logger: logger)
        if prepared { follower.prepare(quiet) }
        var heard: [RecognitionResult] = []
        for start in stride(from: 0, to: room.count, by: 160) { heard += quiet.process(Array(room[start..<min(start + 160, room.count)])) }
        return (quiet, follower, heard, remade)
    }

    /// A reading said a second into pink noise 10 dB under it, as a stream hears it: a quiet
    /// room's recognizer heard "three point five"; the noisy room's, hearing it again, heard it
    /// right.
    @Test func theUtteranceThatToldTheRoomIsNoisyIsHeardAgainWithTheNoiseTakenOut() throws {
        let stream = try heard(Self.room(snr: 10), prepared: false)
        let first = try #require(stream.heard.first)
        #expect(stream.heard.count == 1 && first.text != Self.sentence, "heard as in a quiet room: \(stream.heard.map(\.text))")
        #expect((first.signalToNoise ?? 99) < AudioBackground.noisyBelowDB)
        #expect(stream.remade.value.isEmpty, "not prepared: nothing made while it was said")

        let (again, next) = stream.follower.follow(first, heardBy: stream.quiet)
        #expect(stream.remade.value == [.noisy])
        #expect(next?.configuration.background == .noisy)
        #expect(again.text == Self.sentence)
        #expect(again.grammar == first.grammar && again.endpoint == first.endpoint && again.signalToNoise == first.signalToNoise)
    }

    /// Prepared, the quiet room's recognizer has the noisy room's made while the utterance is
    /// said, as soon as it sounds noisy: once it has ended, that one hears it again at once,
    /// without being made first.
    @Test func theNoisyRoomsRecognizerIsMadeWhileTheUtteranceIsSaid() throws {
        let stream = try heard(Self.room(snr: 10), prepared: true)
        let first = try #require(stream.heard.first)
        #expect(stream.remade.value == [.noisy], "made while the utterance was said")
        #expect(stream.heard.count == 1 && first.text != Self.sentence, "heard as in a quiet room: \(stream.heard.map(\.text))")

        let (again, next) = stream.follower.follow(first, heardBy: stream.quiet)
        #expect(stream.remade.value == [.noisy], "not made again")
        #expect(next?.configuration.background == .noisy)
        #expect(again.text == Self.sentence)
        #expect(stream.quiet.takeOverNoise() == nil, "handed over")
    }

    /// In a quiet room no noisy room's recognizer is made.
    @Test func aQuietUtteranceMakesNoRecognizer() throws {
        let stream = try heard(Self.room(snr: nil), prepared: true)
        #expect(stream.heard.map(\.text) == [Self.sentence])
        #expect(stream.remade.value.isEmpty && stream.quiet.takeOverNoise() == nil)
    }

    /// An utterance that does not change the room changes nothing; a recognizer that cannot be
    /// made for another room is not asked for again, and the one listening stays.
    @Test func aRoomThatCannotBeHeardOtherwiseKeepsTheRecognizer() throws {
        let quiet = try RecognizerFactory.make(table: english, resources: Self.resources)
        var asked = 0
        let follower = BackgroundFollower(remake: { _ in
            asked += 1
            throw SpeechError.recognizerUnavailable("no model")
        }, logger: logger)
        var heard = RecognitionResult(text: "yes", score: 0, confidence: 0, audioDuration: 1, grammar: "answer")
        heard.signalToNoise = 30
        #expect(follower.follow(heard, heardBy: quiet).1 == nil)
        #expect(asked == 0, "a quiet utterance in a quiet room")
        heard.signalToNoise = 8
        for _ in 0..<2 {
            let (result, next) = follower.follow(heard, heardBy: quiet)
            #expect(next == nil && result == heard)
        }
        #expect(asked == 1)
    }
}
