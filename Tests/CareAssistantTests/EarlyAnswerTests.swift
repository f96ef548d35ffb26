import CareLanguage
import CareSpeech
import CareTestSupport
import Foundation
import Testing
@testable import CareAssistant

/// When the assistant's own recognizer ends an utterance: at the first short pause for words it
/// can answer at once (a reading whose number is whole, "yes"), only after a long one for words
/// that could still gain a word ("glucose twenty", which "one" may follow).
@Suite(.serialized) struct EarlyAnswerTests {
    /// The assistant's recognizer, and the cepstral mean it learned from the voice (three
    /// readings): every test starts a session from that mean, so none depends on what another
    /// heard before it. (A session's first seconds are otherwise heard with a generic mean, and
    /// decoded again once they have ended.)
    struct Warmed {
        let recognizer: SpeechRecognizer
        let mean: [Float]
    }
    static let quietRoom = Result { try warmedUp(RecognizerFactory.make(table: english, resources: ChineseRecognizerTests.resources)) }
    /// The recognizer of a noisy room (`AudioBackground.noisy`).
    static let noisyRoom = Result {
        try warmedUp(RecognizerFactory.make(table: english, resources: ChineseRecognizerTests.resources,
                                            conditions: AudioConditions(background: .noisy)))
    }

    static func warmedUp(_ recognizer: SpeechRecognizer) throws -> Warmed {
        let reading = try said("my blood sugar is six point five millimoles per litre before breakfast")
        recognizer.run(PCMAudio(samples: reading + reading + reading, sampleRate: 16000)) { _ in }
        return Warmed(recognizer: recognizer, mean: try #require(recognizer.learnedMean))
    }

    /// espeak-ng's speech at 16 kHz, up to its last sound above 1 % of full scale (it ends
    /// with a little silence), then a second of silence.
    static func said(_ sentence: String) throws -> [Int16] {
        let spoken = Resampler.resample(try SpokenFixtures.say(sentence, voice: "en-us", rate: 150), to: 16000)
        return Array(spoken.samples[...(spoken.samples.lastIndex { abs(Int($0)) > 327 } ?? 0)]) + [Int16](repeating: 0, count: 16000)
    }

    /// Whether what was heard is one utterance meaning what was said ("litre" or "liter": the
    /// dictionary has both).
    static func heardAsSaid(_ texts: [String], _ sentence: String) -> Bool {
        let parser = UtteranceParser(table: english)
        return texts.count == 1 && parser.parse(texts[0]) == parser.parse(sentence)
    }

    /// What was heard in a session started from the learned mean (or, `generic`, from the
    /// model's own), and how long after the last sound of the speech the utterance ended.
    static func heard(_ sentence: String, in context: ListeningContext, noisyRoom: Bool = false,
                      generic: Bool = false) throws -> (texts: [String], wait: Double) {
        let warmed = try (noisyRoom ? Self.noisyRoom : Self.quietRoom).get()
        warmed.recognizer.beginSession(startingMean: generic ? nil : warmed.mean)
        try warmed.recognizer.selectGrammar(context.rawValue)
        let audio = try said(sentence)
        var results: [RecognitionResult] = []
        warmed.recognizer.run(PCMAudio(samples: audio, sampleRate: 16000)) { results.append($0) }
        let speechEnd = Double(audio.count - 16000) / 16000
        return (results.map(\.text), (results.first?.endpoint ?? .infinity) - speechEnd)
    }

    /// How soon after the speech a quiet room's first pause ends a reading: its 0.15 s, and the
    /// little more the detector takes to hear the speech has stopped (the 0.2 s of other
    /// sentences would be 0.22-0.24 s), so that the read-back starts within a quarter of a second.
    static let firstPause = 0.21

    @Test(arguments: ["glucose six point five", "sugar nine millimoles per litre", "glucose six point five before breakfast"])
    func aReadingWithItsNumberWholeEndsAtTheFirstPause(_ sentence: String) throws {
        let heard = try Self.heard(sentence, in: .reading)
        #expect(Self.heardAsSaid(heard.texts, sentence), "\(heard.texts)")
        #expect(heard.wait < Self.firstPause, "ended \(heard.wait) s after the speech")
    }

    @Test func aNumberThatCouldGoOnWaitsForALongPause() throws {
        let heard = try Self.heard("glucose twenty", in: .reading)
        #expect(Self.heardAsSaid(heard.texts, "glucose twenty"), "\(heard.texts)")
        #expect(heard.wait >= 0.45, "ended \(heard.wait) s after the speech")
    }

    @Test func aYesEndsAtTheFirstPauseAndAMealIsHeardAfterTheReadBack() throws {
        let yes = try Self.heard("yes", in: .answer)
        #expect(yes.texts == ["yes"] && (0.2..<0.3).contains(yes.wait), "\(yes)")
        let meal = try Self.heard("before breakfast", in: .answer)
        #expect(meal.texts == ["before breakfast"] && (0.2..<0.3).contains(meal.wait), "\(meal)")
    }

    /// In a noisy room short pauses are heard inside words: a reading waits for a long pause
    /// there, while an answer still ends at the first one.
    @Test func inANoisyRoomAReadingWaitsForItsMeal() throws {
        let reading = try Self.heard("glucose six point five", in: .reading, noisyRoom: true)
        #expect(Self.heardAsSaid(reading.texts, "glucose six point five"), "\(reading.texts)")
        // The half-second hangover, heard with the noise taken out: 0.42 s; the short pause ends
        // utterances 0.2-0.25 s after the speech.
        #expect(reading.wait >= 0.35, "ended \(reading.wait) s after the speech")
        let yes = try Self.heard("yes", in: .answer, noisyRoom: true)
        #expect(yes.texts == ["yes"] && yes.wait < 0.3, "\(yes)")
    }

    /// A session's first utterances are heard with the model's generic cepstral mean: the
    /// streamed guess is too poor to end it at the first pause (and it is decoded again once it
    /// ended). Started from the mean a session before learned, it ends at the first pause.
    @Test func aSessionStartedFromTheRememberedMeanAnswersItsFirstReadingAtOnce() throws {
        let warmed = try Self.quietRoom.get()
        #expect(warmed.mean.count == 13)
        warmed.recognizer.beginSession()
        #expect(warmed.recognizer.learnedMean == nil, "a new session has learned nothing yet")
        let generic = try Self.heard("sugar nine millimoles per litre", in: .reading, generic: true)
        let started = try Self.heard("sugar nine millimoles per litre", in: .reading)
        #expect([generic, started].allSatisfy { Self.heardAsSaid($0.texts, "sugar nine millimoles per litre") },
                "\(generic), \(started)")
        #expect(generic.wait >= 0.45, "with the generic mean it ended \(generic.wait) s after the speech")
        #expect(started.wait < Self.firstPause, "from the remembered mean it ended \(started.wait) s after the speech")
    }
}

/// A reading said half a second into a room of pink noise 10 dB under it (the noise drawn from
/// this seed), with 1.2 s of the room after it, heard where a reading is awaited by a noisy
/// room's recognizer made from this table; and when the speech was over, in seconds.
private func heardInANoisyRoom(_ sentence: String, voice: String, rate wordsPerMinute: Int = 150, seed: UInt64,
                               table: LocaleTable) throws -> (results: [RecognitionResult], speechEnd: Double) {
    let rate = 16000
    let spoken = Resampler.resample(try SpokenFixtures.say(sentence, voice: voice, rate: wordsPerMinute), to: rate).samples
    let lastSound = spoken.lastIndex { abs(Int($0)) > 327 } ?? 0
    let lead = rate / 2
    let room = NoiseMixer.mix(PCMAudio(samples: [Int16](repeating: 0, count: lead) + spoken + [Int16](repeating: 0, count: rate * 6 / 5), sampleRate: rate),
                              noise: .pink, snr: 10, seed: seed)
    let recognizer = try RecognizerFactory.make(table: table, resources: ChineseRecognizerTests.resources,
                                                conditions: AudioConditions(background: .noisy))
    try recognizer.selectGrammar(ListeningContext.reading.rawValue)
    var results: [RecognitionResult] = []
    recognizer.run(room) { results.append($0) }
    return (results, Double(lead + lastSound + 1) / Double(rate))
}

private func described(_ heard: (results: [RecognitionResult], speechEnd: Double)) -> String {
    "\(heard.results.map { "\($0.text) ending at \($0.endpoint ?? 0)" }), speech over at \(heard.speechEnd)"
}

/// In noise the detector hears pauses inside words, and a Chinese reading's meal is decided by
/// its last syllable (运动后, 运动前). This reading (the 20th session of `bench loop --locale
/// zh-Hans --seed 5`, with the noise that session had: pink, 10 dB under it) was ended at such
/// a pause inside 运动后 before its speech was over, and the rest was heard as a word of its
/// own (a call for help, in the bench). A Chinese reading in noise waits for a longer pause.
@Test func inNoiseAChineseReadingIsNotEndedInsideItsMeal() throws {
    var notWaiting = chinese
    notWaiting.speech.readingEndPauseInNoise = nil
    let cut = try heardInANoisyRoom("血糖值六点七毫摩尔每升运动后", voice: "cmn-latn-pinyin", seed: 20, table: notWaiting)
    #expect(cut.results.count == 2 && (cut.results.first?.endpoint ?? .infinity) < cut.speechEnd,
            "ending at the early end's pause: \(described(cut))")
    let whole = try heardInANoisyRoom("血糖值六点七毫摩尔每升运动后", voice: "cmn-latn-pinyin", seed: 20, table: chinese)
    #expect(whole.results.count == 1 && (whole.results.first?.endpoint ?? 0) > whole.speechEnd, "\(described(whole))")
    #expect(chinese.speech.readingEndPauseInNoise == 0.3 && chinese.speech.readingEndsWaitingInNoise == nil)
}

/// In noise "before breakfast" sounds like "before bed" up to the pause the noise makes inside
/// "breakfast" (its k), and that sentence can end. This reading (ec41's fifth at 10 dB, the
/// same voice and speed) was ended at "before bed" and the rest heard as a word of its own. An
/// English reading that ends "before bed" waits the longer pause in noise.
@Test func inNoiseBeforeBreakfastIsNotEndedAtBeforeBed() throws {
    let sentence = "my blood sugar is four point nine before breakfast"
    var notWaiting = english
    notWaiting.speech.readingEndsWaitingInNoise = nil
    notWaiting.speech.readingEndPauseInNoise = nil
    let cut = try heardInANoisyRoom(sentence, voice: "en-us+m3", rate: 123, seed: 1, table: notWaiting)
    #expect(cut.results.count == 2 && cut.results.first?.text.hasSuffix("before bed") == true
            && (cut.results.first?.endpoint ?? .infinity) < cut.speechEnd, "\(described(cut))")
    let whole = try heardInANoisyRoom(sentence, voice: "en-us+m3", rate: 123, seed: 1, table: english)
    #expect(whole.results.count == 1 && whole.results.first?.text == sentence
            && (whole.results.first?.endpoint ?? 0) > whole.speechEnd, "\(described(whole))")
}

/// Which readings wait the longer pause in noise: in English those that end "before bed", word
/// for word; in Chinese every reading. Other sentences never.
@Test func theReadingsThatWaitLongerInNoise() {
    var configuration = SpeechRecognizer.Configuration()
    RecognizerFactory.endsOfSpeech(&configuration, table: english, background: .noisy)
    #expect(configuration.longerEndSilenceOverNoise == 0.3)
    let waits = { (words: String) in configuration.waitsLongerOverNoise?(words) == true }
    #expect(waits("sugar six point five before bed") && waits("glucose seven before bed"))
    #expect(!waits("sugar six point five before breakfast") && !waits("sugar six point five at bedtime") && !waits("sugar six point five bedtime"))
    #expect(!waits("sugar six point five") && !waits("help") && !waits("yes"))
    RecognizerFactory.endsOfSpeech(&configuration, table: chinese, background: .noisy)
    #expect(configuration.longerEndSilenceOverNoise == 0.3)
    #expect(configuration.waitsLongerOverNoise?("血糖六点五") == true && configuration.waitsLongerOverNoise?("对") == false)
}

/// Where readings are answered at the first pause: in a quiet room, in English. (Chinese heard a
/// no as a yes in noise with meals in the answer grammar.)
@Test func readingsAreAnsweredAtOnceInAQuietRoomInEnglish() {
    #expect(RecognizerFactory.readingsAnsweredAtOnce(table: english, background: .quiet))
    #expect(!RecognizerFactory.readingsAnsweredAtOnce(table: english, background: .noisy))
    #expect(!RecognizerFactory.readingsAnsweredAtOnce(table: chinese, background: .quiet))
}

/// The file a session's mean is kept in.
struct RememberedMeanTests {
    @Test func aLineOfNumbersIsTheMean() {
        #expect(RememberedMean.parse("# a comment\n1.5 -2 3e-1\n") == [1.5, -2, 0.3])
    }

    @Test(arguments: ["", "# only a comment\n", "1.0 oops", "1.0 nan", "1.0 inf 2"])
    func anythingElseIsPassedOver(_ text: String) {
        #expect(RememberedMean.parse(text) == nil)
    }
}
