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

    /// A reading said a second into pink noise 10 dB under it, as a stream hears it: a quiet
    /// room's recognizer heard "three point five"; the noisy room's, hearing it again, heard it
    /// right.
    @Test func theUtteranceThatToldTheRoomIsNoisyIsHeardAgainWithTheNoiseTakenOut() throws {
        let sentence = "glucose six point five before breakfast"
        let said = Resampler.resample(try SpokenFixtures.say(sentence, voice: "en-gb", rate: 150), to: 16000).samples
        let quietRoom = PCMAudio(samples: [Int16](repeating: 0, count: 16000) + said + [Int16](repeating: 0, count: 16000), sampleRate: 16000)
        var room = NoiseMixer.mix(quietRoom, noise: .pink, snr: 10, seed: 50).samples
        NoiseFloor.apply(to: &room)
        let quiet = try RecognizerFactory.make(table: english, resources: Self.resources)
        try quiet.selectGrammar(ListeningContext.reading.rawValue)
        var heard: [RecognitionResult] = []
        for start in stride(from: 0, to: room.count, by: 160) { heard += quiet.process(Array(room[start..<min(start + 160, room.count)])) }
        let first = try #require(heard.first)
        #expect(heard.count == 1 && first.text != sentence, "heard as in a quiet room: \(heard.map(\.text))")
        #expect((first.signalToNoise ?? 99) < AudioBackground.noisyBelowDB)

        var remade: [AudioBackground] = []
        let follower = BackgroundFollower(remake: { background in
            remade.append(background)
            return try RecognizerFactory.make(table: english, resources: Self.resources, conditions: AudioConditions(background: background))
        }, logger: logger)
        let (again, next) = follower.follow(first, heardBy: quiet)
        #expect(remade == [.noisy])
        #expect(next?.configuration.background == .noisy)
        #expect(again.text == sentence)
        #expect(again.grammar == first.grammar && again.endpoint == first.endpoint && again.signalToNoise == first.signalToNoise)
    }

    /// Prepared, the quiet room's recognizer has the noisy room's made while the utterance is
    /// said, as soon as it sounds noisy: once it has ended, that one hears it again at once,
    /// without being made first.
    @Test func theNoisyRoomsRecognizerIsMadeWhileTheUtteranceIsSaid() throws {
        let sentence = "glucose six point five before breakfast"
        let said = Resampler.resample(try SpokenFixtures.say(sentence, voice: "en-gb", rate: 150), to: 16000).samples
        let quietRoom = PCMAudio(samples: [Int16](repeating: 0, count: 16000) + said + [Int16](repeating: 0, count: 16000), sampleRate: 16000)
        var room = NoiseMixer.mix(quietRoom, noise: .pink, snr: 10, seed: 50).samples
        NoiseFloor.apply(to: &room)
        let quiet = try RecognizerFactory.make(table: english, resources: Self.resources)
        try quiet.selectGrammar(ListeningContext.reading.rawValue)
        var remade: [AudioBackground] = []
        let follower = BackgroundFollower(remake: { background in
            remade.append(background)
            return try RecognizerFactory.make(table: english, resources: Self.resources, conditions: AudioConditions(background: background))
        }, logger: logger)
        follower.prepare(quiet)
        var heard: [RecognitionResult] = []
        for start in stride(from: 0, to: room.count, by: 160) { heard += quiet.process(Array(room[start..<min(start + 160, room.count)])) }
        let first = try #require(heard.first)
        #expect(remade == [.noisy], "made while the utterance was said")
        #expect(heard.count == 1 && first.text != sentence, "heard as in a quiet room: \(heard.map(\.text))")

        let (again, next) = follower.follow(first, heardBy: quiet)
        #expect(remade == [.noisy], "not made again")
        #expect(next?.configuration.background == .noisy)
        #expect(again.text == sentence)
        #expect(quiet.takeOverNoise() == nil, "handed over")
    }

    /// In a quiet room no noisy room's recognizer is made.
    @Test func aQuietUtteranceMakesNoRecognizer() throws {
        let said = Resampler.resample(try SpokenFixtures.say("glucose six point five before breakfast", voice: "en-gb", rate: 150), to: 16000).samples
        var room = [Int16](repeating: 0, count: 16000) + said + [Int16](repeating: 0, count: 16000)
        NoiseFloor.apply(to: &room)
        let quiet = try RecognizerFactory.make(table: english, resources: Self.resources)
        try quiet.selectGrammar(ListeningContext.reading.rawValue)
        var remade: [AudioBackground] = []
        let follower = BackgroundFollower(remake: { background in
            remade.append(background)
            return try RecognizerFactory.make(table: english, resources: Self.resources, conditions: AudioConditions(background: background))
        }, logger: logger)
        follower.prepare(quiet)
        var heard: [RecognitionResult] = []
        for start in stride(from: 0, to: room.count, by: 160) { heard += quiet.process(Array(room[start..<min(start + 160, room.count)])) }
        #expect(heard.map(\.text) == ["glucose six point five before breakfast"])
        #expect(remade.isEmpty && quiet.takeOverNoise() == nil)
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
