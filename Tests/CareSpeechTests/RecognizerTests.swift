import CareTestSupport
import Foundation
import Testing
@testable import CareSpeech

/// Real pocketsphinx with the en-us model; serialized to keep the machine's two cores for one decoder at a time.
@Suite(.serialized) struct RecognizerTests {
    @Test(arguments: ["en-us", "en-gb", "en-us+f3"])
    func decodesASynthesizedSentenceExactly(voice: String) throws {
        let recognizer = try Grammars.recognizer()
        let samples = try speech16k("glucose six point five before breakfast", voice: voice)
        let start = Date()
        let result = recognizer.decode(samples)
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.text == "glucose six point five before breakfast")
        // The grammar search has no posterior in pocketsphinx 0.8: reported as unavailable, not as certainty.
        #expect(result.confidence == 0)
        #expect(result.score < 0)
        #expect(result.audioDuration > 1.5 && result.audioDuration < 4)
        print("pocketsphinx decode (\(voice)): \(String(format: "%.2f", Double(samples.count) / 16000)) s of audio in \(String(format: "%.3f", elapsed)) s, RTF \(String(format: "%.3f", elapsed / (Double(samples.count) / 16000))), confidence \(result.confidence)")
    }

    @Test func theGrammarConstrainsTheAnswer() throws {
        let recognizer = try Grammars.recognizer()
        let samples = try speech16k("glucose seven point two")
        #expect(recognizer.decode(samples).text == "glucose seven point two")
        // The same audio in the yes/no grammar can only come out as yes, no or nothing.
        try recognizer.selectGrammar("yn")
        #expect(["yes", "no", ""].contains(recognizer.decode(samples).text))
    }

    /// `meansFile` replaces the model's own means (pocketsphinx -mean), for both decoders: the
    /// model's own file decodes exactly as without it, the narrowband means differently, and a
    /// missing file is refused by name rather than heard with the wrong model.
    @Test func aMeansFileReplacesTheModelsMeans() throws {
        let samples = try speech16k("glucose seven point two")
        func decode(means: String?) throws -> RecognitionResult {
            var configuration = SpeechRecognizer.Configuration()
            configuration.meansFile = means
            configuration.measuresFit = true
            return try SpeechRecognizer(configuration, grammars: ["t": Grammars.sentence]).decode(samples)
        }
        let general = try decode(means: nil)
        let own = try decode(means: SpeechRecognizer.Configuration().modelDirectory + "/means")
        #expect(own == general)
        let narrow = try decode(means: CLI.root.appendingPathComponent("models/en-us/narrowband-means").path)
        #expect(narrow.score != general.score)
        #expect(narrow.grammarFit != general.grammarFit)
        #expect(throws: SpeechError.recognizerUnavailable("no acoustic means at /nonexistent/means")) {
            try decode(means: "/nonexistent/means")
        }
        // Given a damaged file, pocketsphinx ended the whole process without a word.
        let damaged = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-means-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: damaged) }
        try Data("s3\nversion 1.0\nendhdr\n".utf8).write(to: damaged)
        #expect(throws: SpeechError.recognizerUnavailable("the acoustic means at \(damaged.path) cannot be used: not a means file: not little-endian, or no byte-order magic")) {
            try decode(means: damaged.path)
        }
        let otherShape = GaussianMeans(codebooks: 1, densities: 1, vectorLengths: [13, 13, 13], values: Array(repeating: 0, count: 39))
        try otherShape.s3File().write(to: damaged)
        #expect(throws: SpeechError.recognizerUnavailable("the acoustic means at \(damaged.path) cannot be used: the means files are of different models")) {
            try decode(means: damaged.path)
        }
    }

    @Test func modelLoadsQuickly() throws {
        let start = Date()
        let recognizer = try Grammars.recognizer()
        let elapsed = Date().timeIntervalSince(start)
        print("pocketsphinx: model, dictionary and 3 grammars loaded in \(String(format: "%.3f", elapsed)) s")
        #expect(recognizer.grammarNames == ["digits", "t", "yn"])
        #expect(recognizer.currentGrammar == "t")
        #expect(elapsed < 10)
    }

    @Test func aSessionSplitsIntoUtterancesWithAGrammarSwitchBetweenThem() throws {
        var samples = try SpokenFixtures.say("glucose six point five").samples
        samples += [Int16](repeating: 0, count: Int(1.5 * 22050))
        samples += try SpokenFixtures.say("yes").samples
        let recognizer = try Grammars.recognizer(select: "t")
        var heard: [RecognitionResult] = []
        recognizer.run(PCMAudio(samples: samples, sampleRate: 22050)) { result in
            heard.append(result)
            // The dialog now asks "is that right?"
            try? recognizer.selectGrammar("yn")
        }
        #expect(heard.map(\.text) == ["glucose six point five", "yes"])
        // Without the switch the second utterance cannot be "yes": the grammar in force matters.
        let fixed = try Grammars.recognizer(select: "t")
        var texts: [String] = []
        fixed.run(PCMAudio(samples: samples, sampleRate: 22050)) { texts.append($0.text) }
        #expect(texts.count == 2 && texts.first == "glucose six point five" && texts.last != "yes")
    }

    /// A pause within an utterance shorter than the end detector's half second: the utterance
    /// is heard whole, not cut at the pause.
    @Test func aPauseWithinAnUtteranceDoesNotCutItShort() throws {
        let first = try SpokenFixtures.say("glucose six point five"), second = try SpokenFixtures.say("before breakfast")
        let rate = first.sampleRate
        let pause = [Int16](repeating: 0, count: Int(0.3 * Double(rate)))
        let samples = pause + trimmed(first.samples) + pause + trimmed(second.samples) + [Int16](repeating: 0, count: rate)
        let recognizer = try Grammars.recognizer(select: "t")
        var heard: [String] = []
        recognizer.run(PCMAudio(samples: samples, sampleRate: rate)) { heard.append($0.text) }
        #expect(heard == ["glucose six point five before breakfast"])
    }

    /// A sentence that cannot go on ends after a short pause; one that can (a tag may follow
    /// the value) waits out the detector's whole half second, as anything else does.
    @Test func aSentenceThatCannotGoOnEndsAfterAShortPause() throws {
        func endAfterSpeech(_ text: String, grammar: String) throws -> (heard: [String], wait: Double) {
            let spoken = try SpokenFixtures.say(text)
            let speech = trimmed(spoken.samples), rate = spoken.sampleRate
            let silence = [Int16](repeating: 0, count: rate / 2)
            let recognizer = try Grammars.recognizer(select: grammar)
            var results: [RecognitionResult] = []
            recognizer.run(PCMAudio(samples: silence + speech + silence + silence, sampleRate: rate)) { results.append($0) }
            let speechEnd = Double(silence.count + speech.count) / Double(rate)
            return (results.map(\.text), (results.first?.endpoint ?? .infinity) - speechEnd)
        }
        let yes = try endAfterSpeech("yes", grammar: "yn")
        let tagged = try endAfterSpeech("glucose six point five before breakfast", grammar: "t")
        let untagged = try endAfterSpeech("glucose six point five", grammar: "t")
        #expect(yes.heard == ["yes"] && tagged.heard == ["glucose six point five before breakfast"])
        #expect(untagged.heard == ["glucose six point five"])
        #expect(yes.wait < 0.4 && tagged.wait < 0.4, "yes after \(yes.wait) s, the tagged reading after \(tagged.wait) s")
        // The detector finds the end of the speech itself a little before the recording's
        // last faint sound.
        #expect(untagged.wait >= 0.4 && untagged.wait > tagged.wait + 0.15, "the untagged reading after \(untagged.wait) s")
    }

    /// A voice heard higher or lower (`Configuration.frequencyScale`) is heard whole and its
    /// pauses are counted as said: the short pause after a whole sentence ends it within 9 ms of
    /// when it ends heard as said (with the pause counted in scaled frames, 27 ms later or
    /// sooner), and endpoints are where the recording was, not where its scaled copy was. How
    /// long it was loud is counted as said too: 2.57 s scaled either way, 2.63 s heard as said
    /// (counted in scaled frames, 9-11 % off).
    @Test(arguments: [0.9, 1.1])
    func aScaledVoiceEndsItsSentencesAsSoonAsSaid(scale: Double) throws {
        let spoken = try SpokenFixtures.say("glucose six point five before breakfast")
        let speech = trimmed(spoken.samples), rate = spoken.sampleRate
        let silence = [Int16](repeating: 0, count: rate / 2)
        let speechEnd = Double(silence.count + speech.count) / Double(rate)
        func heard(_ scale: Double) throws -> (texts: [String], wait: Double, loud: Double?) {
            var configuration = SpeechRecognizer.Configuration()
            configuration.frequencyScale = scale
            let recognizer = try SpeechRecognizer(configuration, grammars: ["t": Grammars.sentence])
            var results: [RecognitionResult] = []
            recognizer.run(PCMAudio(samples: silence + speech + silence + silence, sampleRate: rate)) { results.append($0) }
            return (results.map(\.text), (results.first?.endpoint ?? .infinity) - speechEnd, results.first?.loudSeconds)
        }
        let asSaid = try heard(1), scaled = try heard(scale)
        #expect(scaled.texts == ["glucose six point five before breakfast"], "\(scaled)")
        #expect(abs(scaled.wait - asSaid.wait) < 0.015, "as said after \(asSaid.wait) s, scaled after \(scaled.wait) s")
        let loud = try (#require(asSaid.loud), #require(scaled.loud))
        // Scaled, its sounds' edges move by a few frames.
        #expect(abs(loud.1 - loud.0) < loud.0 * 0.05, "loud for \(loud.0) s as said, \(loud.1) s scaled")
    }

    /// A sentence that could go on but whose meaning is settled ("yes", which "please" may
    /// follow) ends after the short pause when the configuration says so, and waits otherwise.
    @Test func aSentenceWhoseMeaningIsSettledEndsAfterAShortPause() throws {
        let spoken = try SpokenFixtures.say("yes")
        let speech = trimmed(spoken.samples), rate = spoken.sampleRate
        let silence = [Int16](repeating: 0, count: rate / 2)
        let speechEnd = Double(silence.count + speech.count) / Double(rate)
        func wait(settled: (@Sendable (String) -> Bool)?) throws -> Double {
            var configuration = SpeechRecognizer.Configuration()
            configuration.answersAtOnce = settled
            let recognizer = try SpeechRecognizer(configuration, grammars: ["a": "#JSGF V1.0; grammar a; public <s> = yes [please] | no;"])
            var results: [RecognitionResult] = []
            recognizer.run(PCMAudio(samples: silence + speech + silence + silence, sampleRate: rate)) { results.append($0) }
            #expect(results.map(\.text) == ["yes"])
            return (results.first?.endpoint ?? .infinity) - speechEnd
        }
        let waited = try wait(settled: nil), settled = try wait(settled: { $0 == "yes" })
        #expect(waited >= 0.45, "without a settled meaning it closed after \(waited) s")
        #expect(settled < 0.4, "settled, it closed after \(settled) s")
    }

    /// Forced onto a grammar, unrelated words are a whole sentence at every pause; a sentence
    /// ends early only when its words also fit the sound well, so an unrelated one is heard
    /// whole, and judged whole, while a closed reading said clearly still ends after a short pause.
    @Test func anUnrelatedSentenceIsNotCutAtItsPauses() throws {
        func utterances(_ phrases: [String], grammar: String, minimumFit: Double?) throws -> [RecognitionResult] {
            let spoken = try phrases.map { try SpokenFixtures.say($0, voice: "en-us+m3") }
            let rate = spoken[0].sampleRate
            let pause = [Int16](repeating: 0, count: Int(0.3 * Double(rate)))
            let samples = spoken.map { pause + trimmed($0.samples) }.joined() + [Int16](repeating: 0, count: rate)
            var configuration = SpeechRecognizer.Configuration()
            configuration.measuresFit = true
            configuration.earlyEndMinimumFit = minimumFit
            let recognizer = try SpeechRecognizer(configuration, grammars: [
                "yn": Grammars.yesNo, "t": Grammars.sentence,
            ])
            try recognizer.selectGrammar(grammar)
            var results: [RecognitionResult] = []
            recognizer.run(PCMAudio(samples: Array(samples), sampleRate: rate)) { results.append($0) }
            return results
        }
        let unrelated = ["could you", "pass me the salt"]
        let unguarded = try utterances(unrelated, grammar: "yn", minimumFit: nil)
        #expect(unguarded.count == 2, "cut at the pause without the fit: \(unguarded.map { ($0.text, $0.grammarFit ?? 0, $0.endpoint ?? 0) })")
        let guarded = try utterances(unrelated, grammar: "yn", minimumFit: -20)
        #expect(guarded.count == 1, "\(guarded.map { ($0.text, $0.grammarFit ?? 0, $0.endpoint ?? 0) })")
        let reading = try utterances(["glucose six point five before breakfast"], grammar: "t", minimumFit: -20)
        #expect(reading.map(\.text) == ["glucose six point five before breakfast"])
        let spokenReading = try SpokenFixtures.say("glucose six point five before breakfast", voice: "en-us+m3")
        let speechEnd = Double(Int(0.3 * Double(spokenReading.sampleRate)) + trimmed(spokenReading.samples).count) / Double(spokenReading.sampleRate)
        let wait = (reading.first?.endpoint ?? .infinity) - speechEnd
        #expect(wait < 0.4, "the reading closed \(wait) s after its speech")
    }

    /// A grammar added while an utterance is being heard (a new enrollment phrase, a language
    /// model loaded the first time it is chosen) does not lose that utterance: it is still heard
    /// whole when it ends.
    @Test func aGrammarAddedMidUtteranceKeepsTheUtterance() throws {
        let recognizer = try Grammars.recognizer(select: "t")
        let speech = try speech16k("glucose six point five before breakfast")
        let silence = [Int16](repeating: 0, count: 16000)
        var heard: [String] = []
        func feed(_ samples: [Int16]) {
            for start in stride(from: 0, to: samples.count, by: 1600) {
                heard += recognizer.process(Array(samples[start..<min(start + 1600, samples.count)])).map(\.text)
            }
        }
        // Past the first utterances, which are decoded whole anyway (`framesToLearnTheMean`).
        for _ in 0..<3 { feed(silence + speech + silence) }
        #expect(heard.count == 3)
        heard = []
        feed(Array(speech[..<(speech.count / 2)]))
        try recognizer.addGrammar(name: "other", source: "#JSGF V1.0; grammar other; public <s> = hello;")
        feed(Array(speech[(speech.count / 2)...]) + silence)
        heard += recognizer.finish().map { [$0.text] } ?? []
        #expect(heard == ["glucose six point five before breakfast"])
    }

    /// A recording handed over after its first utterance (the conversation changed language):
    /// the rest goes to another recognizer, which hears the second utterance from its start,
    /// and the first recognizer hears nothing more.
    @Test func aRecordingIsHandedOverAfterAnUtterance() throws {
        var samples = try SpokenFixtures.say("glucose six point five").samples
        samples += [Int16](repeating: 0, count: Int(1.5 * 22050))
        samples += try SpokenFixtures.say("yes").samples
        let audio = PCMAudio(samples: samples, sampleRate: 22050)
        let first = try Grammars.recognizer(select: "t")
        var heardFirst: [String] = []
        let rest = try #require(first.runWithHandover(audio) { result in
            heardFirst.append(result.text)
            return .handOver
        })
        #expect(heardFirst == ["glucose six point five"])
        #expect(rest.sampleRate == 22050)
        #expect(rest.samples.count < samples.count && rest.samples == Array(samples.suffix(rest.samples.count)))

        let second = try Grammars.recognizer(select: "yn")
        var heardSecond: [RecognitionResult] = []
        let before = audio.duration - rest.duration
        #expect(second.runWithHandover(rest, continuing: before) { heardSecond.append($0); return .goOn } == nil)
        #expect(heardSecond.map(\.text) == ["yes"])
        // Counted from the recording's start, not the rest's: "yes" ends at the recording's end.
        let end = try #require(heardSecond.first?.endpoint)
        #expect(end > before + 1 && end < audio.duration + SpeechRecognizer.tail, "\(end) s, the rest from \(before) s")
    }

    /// A recording's first utterance is measured against what is around it in the recording,
    /// not against the quiet lead-in put before it: said into a noisy room it measured 34 dB
    /// above that lead-in, and was heard as if the room were quiet.
    @Test func aRecordingsLeadInIsNotItsBackground() throws {
        var samples = [Int16](repeating: 0, count: 11025)
        samples += try SpokenFixtures.say("glucose six point five").samples
        samples += [Int16](repeating: 0, count: 22050)
        let room = NoiseMixer.mix(PCMAudio(samples: samples, sampleRate: 22050), noise: .pink, snr: 10, seed: 3)
        var heard: [RecognitionResult] = []
        try Grammars.recognizer(select: "t").run(room) { heard.append($0) }
        let snr = try #require(heard.first?.signalToNoise)
        #expect(snr < AudioBackground.noisyBelowDB, "\(snr) dB")
    }

    /// A new session hears as a recognizer made for it would: the room the last session heard
    /// (the background measured between its utterances) does not move where this one's speech
    /// ends, nor what it is heard as. Both ways round: a quiet session after a noisy one, and a
    /// noisy one after a quiet one.
    @Test(arguments: [true, false])
    func aNewSessionForgetsTheRoomTheLastOneHeard(quietAfterNoisy: Bool) throws {
        let quiet = try SpokenFixtures.session(["glucose six point five", "yes"])
        let noisy = NoiseMixer.mix(try SpokenFixtures.session(["glucose seven point two", "no"], voice: "en-us+m3"),
                                   noise: .pink, snr: 5, seed: 3)
        let (before, session) = quietAfterNoisy ? (noisy, quiet) : (quiet, noisy)
        func heard(_ audio: PCMAudio, by recognizer: SpeechRecognizer) throws -> [RecognitionResult] {
            try recognizer.selectGrammar("t")
            var results: [RecognitionResult] = []
            recognizer.run(audio) { results.append($0) }
            return results
        }
        let expected = try heard(session, by: try Grammars.recognizer())
        try #require(expected.count == 2)

        let reused = try Grammars.recognizer()
        _ = try heard(before, by: reused)
        reused.beginSession()
        let again = try heard(session, by: reused)
        #expect(again.map(\.text) == expected.map(\.text))
        #expect(again.map(\.grammarFit) == expected.map(\.grammarFit))
        #expect(again.map(\.signalToNoise) == expected.map(\.signalToNoise))
        for (one, other) in zip(again, expected) {
            let (a, b) = (try #require(one.endpoint), try #require(other.endpoint))
            #expect(abs(a - b) < 1e-6, "closed at \(a) s, by a new recognizer at \(b) s")
        }
    }

    /// The endpoint says where in the recording each utterance was closed, measured from the
    /// recording's start: about half a second of silence after a sentence that can go on (the
    /// detector waits 0.5 s), about 0.2 s after one that cannot ("yes").
    @Test func endpointsArePositionsInTheRecording() throws {
        let rate = 22050
        var samples = [Int16](repeating: 0, count: rate)                  // 1 s of silence first
        let first = try SpokenFixtures.say("glucose six point five").samples
        let firstEnd = Double(samples.count + (first.lastIndex { abs(Int($0)) > 327 } ?? 0)) / Double(rate)
        samples += first + [Int16](repeating: 0, count: 2 * rate)
        let second = try SpokenFixtures.say("yes").samples
        let secondEnd = Double(samples.count + (second.lastIndex { abs(Int($0)) > 327 } ?? 0)) / Double(rate)
        samples += second + [Int16](repeating: 0, count: rate)

        let recognizer = try Grammars.recognizer(select: "t")
        var results: [RecognitionResult] = []
        recognizer.run(PCMAudio(samples: samples, sampleRate: rate)) { result in
            results.append(result)
            try? recognizer.selectGrammar("yn")
        }
        try #require(results.count == 2)
        for (result, (speechEnd, waits)) in zip(results, [(firstEnd, 0.4..<0.7), (secondEnd, 0.1..<0.4)]) {
            let wait = try #require(result.endpoint) - speechEnd
            #expect(waits.contains(wait), "\(result.text) closed \(wait) s after the speech ended")
            #expect(result.decodingTime > 0 && result.decodingTime < 5)
        }
        #expect(recognizer.decode(try speech16k("yes")).endpoint == nil)
    }

    /// A sentence `endsAtShortestPause` picks out ends after `shortestEndSilence`; another that
    /// may end early still waits `earlyEndSilence`.
    @Test func theSentencesPickedOutEndAtTheShortestPause() throws {
        var configuration = SpeechRecognizer.Configuration()
        configuration.shortestEndSilence = 0.1
        configuration.endsAtShortestPause = { $0 == "yes" }
        let recognizer = try SpeechRecognizer(configuration, grammars: ["yn": Grammars.yesNo])
        var samples = [Int16](repeating: 0, count: 16000)
        var speechEnds: [Double] = []
        for word in ["yes", "no"] {
            let spoken = try speech16k(word)
            speechEnds.append(Double(samples.count + (spoken.lastIndex { abs(Int($0)) > 327 } ?? 0)) / 16000)
            samples += spoken + [Int16](repeating: 0, count: 16000)
        }
        NoiseFloor.apply(to: &samples)
        var results: [RecognitionResult] = []
        recognizer.run(PCMAudio(samples: samples, sampleRate: 16000)) { results.append($0) }
        try #require(results.map(\.text) == ["yes", "no"])
        let waits = try zip(results, speechEnds).map { try #require($0.endpoint) - $1 }
        #expect((0.08..<0.18).contains(waits[0]), "yes closed \(waits[0]) s after the speech ended")
        #expect((0.18..<0.3).contains(waits[1]), "no closed \(waits[1]) s after the speech ended")
    }

    @Test func aGrammarChosenMidUtteranceAppliesToTheNextOne() throws {
        let recognizer = try Grammars.recognizer(select: "t")
        let first = try speech16k("glucose seven point two")
        var gap = [Int16](repeating: 0, count: 16000)
        NoiseFloor.apply(to: &gap)
        var results = recognizer.process(gap + Array(first[0..<(first.count / 2)]))
        #expect(results.isEmpty)
        try recognizer.selectGrammar("yn")       // speech is in progress: deferred
        #expect(recognizer.currentGrammar == "yn")
        results += recognizer.process(Array(first[(first.count / 2)...]) + gap)
        results += recognizer.process(try speech16k("no") + gap)
        #expect(results.map(\.text) == ["glucose seven point two", "no"])
        #expect(results.map(\.grammar) == ["t", "yn"], "each result names the grammar it was decoded with")
        #expect(recognizer.finish() == nil)
    }

    @Test func resetDiscardsAnUtteranceInProgress() throws {
        let recognizer = try Grammars.recognizer(select: "t")
        let sentence = try speech16k("glucose six point five")
        var gap = [Int16](repeating: 0, count: 16000)
        NoiseFloor.apply(to: &gap)
        #expect(recognizer.process(gap + Array(sentence[0..<(sentence.count * 2 / 3)])).isEmpty)
        recognizer.reset()                          // the assistant started talking
        try recognizer.selectGrammar("yn")
        let results = recognizer.process(try speech16k("yes") + gap)
        #expect(results.map(\.text) == ["yes"])
    }

    /// pocketsphinx reads these settings when it builds a search: the same grammar built twice,
    /// once with a prohibitive word insertion penalty, hears fewer words in the same audio.
    @Test func aGrammarsOwnSettingsApplyToItAlone() throws {
        let loop = "#JSGF V1.0; grammar loop; public <d> = (one | two | three | four | five)+;"
        let recognizer = try Grammars.recognizer(["free": loop], select: "free")
        try recognizer.addGrammar(name: "sparing", source: loop, searchOptions: ["-wip": 1e-200])
        let samples = try speech16k("one two three four five")
        try recognizer.selectGrammar("free")
        let free = recognizer.decode(samples).text.split(separator: " ").count
        try recognizer.selectGrammar("sparing")
        let sparing = recognizer.decode(samples).text.split(separator: " ").count
        try recognizer.selectGrammar("free")
        #expect(free == 5)
        #expect(sparing < free)
        #expect(recognizer.decode(samples).text.split(separator: " ").count == free, "the other grammar kept its own")
        #expect(throws: SpeechError.self) { try recognizer.addGrammar(name: "x", source: loop, searchOptions: ["-topn": 4]) }
    }


    /// Words with odds win or lose the choice between paths by them, in every grammar, added
    /// later ones too, unless a grammar has odds of its own; other words and the fit's acoustic
    /// yardstick are left as they were.
    @Test func wordsWinOrLoseByTheirOdds() throws {
        let grammar = "#JSGF V1.0; grammar a; public <a> = help | nope | yes;"
        func heard(_ text: String, odds: Double, addedLater: Bool = false, ownOdds: [String: Double]? = nil) throws -> RecognitionResult {
            var configuration = SpeechRecognizer.Configuration()
            configuration.measuresFit = true
            configuration.wordOdds = ["help": odds, "ambulance": odds]   // a word the grammar lacks
            let recognizer = try SpeechRecognizer(configuration, grammars: ["a": addedLater ? Grammars.yesNo : grammar])
            if addedLater { try recognizer.addGrammar(name: "a", source: grammar, wordOdds: ownOdds) }
            return recognizer.decode(try speech16k(text))
        }
        let plain = try heard("nope", odds: 1)
        #expect(plain.text == "nope")
        #expect(try heard("yes", odds: 1).text == "yes")
        // Odds no sound can outweigh: every utterance becomes the favoured word.
        #expect(try heard("nope", odds: 1e30).text == "help")
        #expect(try heard("yes", odds: 1e30, addedLater: true).text == "help")
        // Moderate odds leave clear words alone.
        #expect(try heard("nope", odds: 10).text == "nope")
        #expect(try heard("nope", odds: 10).grammarFit == plain.grammarFit)
        // A grammar's own odds replace the configuration's; odds below 1 push a word away.
        #expect(try heard("nope", odds: 1e30, addedLater: true, ownOdds: [:]).text == "nope")
        #expect(try heard("help", odds: 1, addedLater: true, ownOdds: ["help": 1e-30]).text != "help")
    }

    /// pocketsphinx frees the search a new one of the same name replaces; when that was the
    /// selected one it went on decoding with freed memory (a crash with `bench recognition
    /// --decoder-option=-wip=...`, which rebuilds the reading grammar the recognizer starts in).
    @Test func replacingTheSelectedGrammarDecodesWithTheNewOne() throws {
        let loop = "#JSGF V1.0; grammar loop; public <d> = (one | two | three | four | five)+;"
        let recognizer = try Grammars.recognizer(["free": loop], select: "free")
        let samples = try speech16k("one two three four five")
        #expect(recognizer.decode(samples).text.split(separator: " ").count == 5)
        try recognizer.addGrammar(name: "free", source: loop, searchOptions: ["-wip": 1e-200])
        #expect(recognizer.currentGrammar == "free")
        #expect(recognizer.decode(samples).text.split(separator: " ").count < 5, "decoded with the replacement's settings")
    }
    /// The fit: words the grammar really has fit the audio nearly as well as free phones do;
    /// a sentence forced onto it fits far worse.
    @Test func aSentenceForcedOntoTheGrammarFitsWorseThanOneItHas() throws {
        var configuration = SpeechRecognizer.Configuration()
        configuration.measuresFit = true
        let recognizer = try SpeechRecognizer(configuration, grammars: ["t": Grammars.sentence])
        let meant = recognizer.decode(try speech16k("glucose six point five before breakfast"))
        let forced = recognizer.decode(try speech16k("could you pass me the salt"))
        #expect(meant.text == "glucose six point five before breakfast")
        #expect(!forced.text.isEmpty, "the grammar forces some words onto it")
        let meantFit = try #require(meant.grammarFit), forcedFit = try #require(forced.grammarFit)
        #expect(meantFit > forcedFit + 10, "fits: meant \(meantFit), forced \(forcedFit)")
        #expect(try Grammars.recognizer().decode(try speech16k("yes")).grammarFit == nil, "measured only when asked")
    }

    /// A search setting tried for the grammars (`bench recognition --decoder-option=-wip=...`)
    /// leaves the fit's yardstick alone: with it on the phone loop too, no phones were found and
    /// no utterance had a fit, so nothing was turned away and the run looked better than it was.
    @Test func aTriedSearchSettingLeavesTheFitsYardstickAlone() throws {
        func fit(_ extra: [String: String]) throws -> Double? {
            var configuration = SpeechRecognizer.Configuration()
            configuration.measuresFit = true
            configuration.extraArguments = extra
            let recognizer = try SpeechRecognizer(configuration, grammars: ["t": Grammars.sentence])
            return recognizer.decode(try speech16k("glucose six point five before breakfast")).grammarFit
        }
        // The grammar's own fit may move with its setting (its path keeps fewer pauses); the
        // phone loop's must still be there to measure it against.
        #expect(try fit([:]) != nil)
        #expect(try fit(["-wip": "1e-4"]) != nil, "a fit with the setting tried")
    }

    /// The loudness swing: how far the loudest tenth of the loud stretch's frames is above its
    /// quietest tenth. A steady hiss barely swings, nor, once pre-emphasized as the decoder hears
    /// it, does the slow rumble of pink noise; sound that comes and goes like syllables does.
    @Test func aSteadyNoiseHardlySwingsAndSyllablesDo() throws {
        func samples(_ color: NoiseColor, _ count: Int = 16000) -> [Int16] {
            NoiseMixer.noise(color, count: count, seed: 3).map { Int16(($0 * 1000).rounded()) }
        }
        func swing(_ audio: [Int16]) -> Double? { SpeechRecognizer.loudnessSwing(of: audio, samplesPerFrame: 160) }
        for color in NoiseColor.allCases {
            let steady = try #require(swing(samples(color)))
            #expect(steady < 2, "a steady \(color) noise swings \(steady) dB")
        }
        // The near-silence before a noise begins is not part of its loud stretch.
        var quiet = [Int16](repeating: 0, count: 8000)
        NoiseFloor.apply(to: &quiet)
        #expect(try #require(swing(quiet + samples(.pink))) < 2)
        // The same hiss, a third as loud in every other 100 ms: 9.5 dB between the two.
        let syllables = samples(.white).enumerated().map { index, sample in (index / 1600) % 2 == 0 ? sample : sample / 3 }
        let bursts = try #require(swing(syllables))
        #expect(bursts > 8, "bursts swing \(bursts) dB")
        #expect(swing(samples(.white, 1500)) == nil, "too short to say")
        #expect(swing([Int16](repeating: 0, count: 16000)) == nil, "silence")
    }

    /// How long the sound was loud: from the first 10 ms frame within 10 dB of the loudest to
    /// the last, quieter sound around it left out; nil for silence.
    @Test func theLoudStretchIsTimed() throws {
        func loud(_ audio: [Int16]) -> Double? { SpeechRecognizer.loudSeconds(of: audio, samplesPerFrame: 160) }
        let hiss = NoiseMixer.noise(.white, count: 16000, seed: 3).map { Int16(($0 * 1000).rounded()) }
        var floor = [Int16](repeating: 0, count: 8000)
        NoiseFloor.apply(to: &floor)
        #expect(abs(try #require(loud(floor + hiss + floor)) - 1.0) < 0.02)
        // 50 ms of hiss in a floor far under it: a burst, not a word.
        #expect(abs(try #require(loud(floor + Array(hiss.prefix(800)) + floor)) - 0.05) < 0.02)
        #expect(loud([Int16](repeating: 0, count: 16000)) == nil)
    }

    /// A steady noise that begins after a silence is heard as words ("bye", fitting -10.7): what
    /// they were heard in swings little. Words said in pink noise 10 dB under them swing far
    /// more. (`SpeechAcceptance` turns the first away.)
    @Test func wordsHeardInASteadyNoiseSwingLessThanWordsSaidInIt() throws {
        var configuration = SpeechRecognizer.Configuration()
        configuration.measuresFit = true
        let grammar = "#JSGF V1.0; grammar calls; public <s> = help | help me | goodbye | bye | yes | no;"
        let recognizer = try SpeechRecognizer(configuration, grammars: ["calls": grammar])
        func heard(_ audio: PCMAudio) -> [RecognitionResult] {
            var results: [RecognitionResult] = []
            recognizer.run(audio) { results.append($0) }
            return results.filter { !$0.text.isEmpty }
        }
        let quiet = PCMAudio(samples: [Int16](repeating: 0, count: 16000), sampleRate: 16000)
        let hiss = PCMAudio(samples: NoiseMixer.noise(.pink, count: 40000, seed: 5).map { Int16(($0 * 1500).rounded()) }, sampleRate: 16000)
        let forced = heard(PCMAudio(samples: quiet.samples + hiss.samples + quiet.samples, sampleRate: 16000))
        try #require(!forced.isEmpty, "the noise's onset is heard as words")
        for result in forced {
            #expect(try #require(result.loudnessSwing) < 2, "\(result.text): swing \(result.loudnessSwing ?? .nan)")
        }
        let help = PCMAudio(samples: try speech16k("help"), sampleRate: 16000)
        // Whatever it is heard as ("no", here): the point is the sound under the words.
        let said = try #require(heard(NoiseMixer.mix(help, noise: .pink, snr: 10, seed: 5)).first)
        #expect(try #require(said.loudnessSwing) > 5, "\(said.text): swing \(said.loudnessSwing ?? .nan)")
    }

    @Test func noiseAloneIsNotAnUtterance() throws {
        let recognizer = try Grammars.recognizer()
        var quiet = [Int16](repeating: 0, count: 16000 * 3)
        NoiseFloor.apply(to: &quiet)
        #expect(recognizer.process(quiet).isEmpty)
        #expect(recognizer.finish() == nil)
    }

    @Test func finishReturnsAnUtteranceCutOffByTheEndOfTheStream() throws {
        let recognizer = try Grammars.recognizer(select: "t")
        var gap = [Int16](repeating: 0, count: 8000)
        NoiseFloor.apply(to: &gap)
        #expect(recognizer.process(gap + (try speech16k("glucose seven point five"))).isEmpty)
        #expect(recognizer.finish()?.text == "glucose seven point five")
        #expect(recognizer.finish() == nil)
    }

    /// Narrow-band audio is harder: at 8 kHz espeak-ng's "six" loses the /s/ energy above 4 kHz and
    /// comes out as "eight", so this sentence avoids "six"; the point here is the file path
    /// (stereo mixdown, 8 kHz, resampling) reaching the recognizer intact.
    @Test func anEightKilohertzStereoWAVDecodesTheSame() throws {
        let sentence = "glucose seven point two before breakfast"
        let speech = try SpokenFixtures.say(sentence)
        let narrow = Resampler.resample(speech, to: 8000).samples
        // Stereo with different channel levels, written by hand since WAVFile writes mono.
        var body: [UInt8] = []
        for s in narrow {
            for v in [s, Int16(Double(s) * 0.6)] {
                let u = UInt16(bitPattern: v)
                body += [UInt8(u & 0xFF), UInt8(u >> 8)]
            }
        }
        var fmt = TestAudio.Bytes(), data = TestAudio.Bytes()
        fmt.chunk("fmt ", TestAudio.Bytes.fmt(tag: 1, channels: 2, rate: 8000, bits: 16))
        data.chunk("data", body)
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("stereo8k.wav")
        try TestAudio.Bytes.wave(fmt.data + data.data).write(to: url)

        let audio = try WAVFile.read(url)
        #expect(audio.sampleRate == 8000)
        let recognizer = try Grammars.recognizer()
        #expect(recognizer.decode(speech).text == sentence)
        #expect(recognizer.decode(audio).text == sentence)
        var texts: [String] = []
        recognizer.run(audio) { texts.append($0.text) }
        #expect(texts == [sentence])
    }

    /// Real people (FSDD): the only honest accuracy figure we have.
    @Test func realSpokenDigitsFromJackson() throws {
        let root = Corpora.fsddDigits
        let manifest = try String(contentsOf: root.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
        var items: [(file: String, digit: Int, take: Int)] = []
        for line in manifest.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3, fields[1] == "digit", fields[0].contains("_jackson_"), let digit = Int(fields[2]),
                  let take = Int(fields[0].split(separator: "_").last!.dropLast(4)) else { continue }
            items.append((fields[0], digit, take))
        }
        #expect(items.count == 100)
        let recognizer = try Grammars.recognizer(select: "digits")
        var decodeRight = 0, runRight = 0, firstFortyRight = 0, firstForty = 0
        var confusions: [String] = []
        for item in items.sorted(by: { ($0.take, $0.digit) < ($1.take, $1.digit) }) {
            let audio = try WAVFile.read(root.appendingPathComponent(item.file))
            let accepted = item.digit == 0 ? ["zero", "oh"] : [words[item.digit]]
            let text = recognizer.decode(audio).text
            let right = accepted.contains(text)
            if right { decodeRight += 1 } else { confusions.append("\(item.file)->\(text.isEmpty ? "(nothing)" : text)") }
            if item.take < 4 { firstForty += 1; if right { firstFortyRight += 1 } }
            var heard: [String] = []
            recognizer.run(audio) { heard.append($0.text) }
            if heard.count == 1 && accepted.contains(heard[0]) { runRight += 1 }
        }
        print("FSDD jackson digits: decode \(decodeRight)/\(items.count), run \(runRight)/\(items.count), takes 0-3 \(firstFortyRight)/\(firstForty); misses: \(confusions.joined(separator: " "))")
        #expect(Double(firstFortyRight) / Double(firstForty) >= 0.6)
        #expect(Double(decodeRight) / Double(items.count) >= 0.6)
        #expect(Double(runRight) / Double(items.count) >= 0.6)
    }

    // MARK: configuration errors

    @Test func aWordMissingFromTheDictionaryIsNamed() throws {
        let grammar = "#JSGF V1.0; grammar g; public <s> = glucose (frobnicatz | six) [millimoles];"
        #expect(throws: SpeechError.badGrammar("g: not in the dictionary: frobnicatz, millimoles")) {
            _ = try SpeechRecognizer(SpeechRecognizer.Configuration(), grammars: ["ok": Grammars.yesNo, "g": grammar])
        }
    }

    @Test func extraWordsMakeNewWordsRecognisable() throws {
        var configuration = SpeechRecognizer.Configuration()
        configuration.extraWords = ["millimoles": "M IH L AH M OW L Z", "frobnicatz": "F R AA B N IH K AE T S"]
        let grammar = "#JSGF V1.0; grammar g; public <s> = six point five (millimoles | frobnicatz);"
        let recognizer = try SpeechRecognizer(configuration, grammars: ["g": grammar])
        #expect(recognizer.decode(try speech16k("six point five millimoles")).text == "six point five millimoles")

        configuration.extraWords = ["blarg": "B L AA R G XX"]
        #expect(throws: SpeechError.self) { _ = try SpeechRecognizer(configuration, grammars: ["g": Grammars.yesNo]) }
    }

    @Test func malformedGrammarsAreRejectedByName() throws {
        for source in ["#JSGF V1.0; grammar g; public <s> = (yes | no;",
                       "#JSGF V1.0; grammar g; <s> = yes | no;",          // no public rule
                       "#JSGF V1.0; grammar g; public <s> = <undefined>;",
                       "#JSGF V1.0; public <s> = yes;",                   // no grammar name
                       "", "this is not JSGF at all"] {
            #expect(throws: SpeechError.self) {
                _ = try SpeechRecognizer(SpeechRecognizer.Configuration(), grammars: ["broken": source])
            }
            do {
                _ = try SpeechRecognizer(SpeechRecognizer.Configuration(), grammars: ["broken": source])
            } catch let SpeechError.badGrammar(message) {
                #expect(message.hasPrefix("broken:"), "\(message)")
            }
        }
        // Neither the parser nor the decoder may write to the terminal.
        let (_, printed) = capturingStandardError(descriptor: 1) {
            capturingStandardError(descriptor: 2) {
                _ = try? SpeechRecognizer(SpeechRecognizer.Configuration(), grammars: ["broken": "this is not JSGF at all"])
                _ = try? SpeechRecognizer(SpeechRecognizer.Configuration(), grammars: ["broken": "#JSGF V1.0; grammar g; public <s> = (yes | no;"])
            }
        }
        #expect(!printed.contains("thisisnot") && !printed.contains("JSGF"), "stdout: \(printed)")
        #expect(throws: SpeechError.badGrammar("no grammars given")) {
            _ = try SpeechRecognizer(SpeechRecognizer.Configuration(), grammars: [:])
        }
    }

    @Test func unknownGrammarAndMissingModel() throws {
        let recognizer = try Grammars.recognizer()
        #expect(throws: SpeechError.unknownGrammar("nope")) { try recognizer.selectGrammar("nope") }
        #expect(recognizer.currentGrammar == "t")

        var configuration = SpeechRecognizer.Configuration()
        configuration.modelDirectory = "/nonexistent/model"
        #expect(throws: SpeechError.recognizerUnavailable("no acoustic model at /nonexistent/model")) {
            _ = try SpeechRecognizer(configuration, grammars: ["yn": Grammars.yesNo])
        }
        configuration = SpeechRecognizer.Configuration()
        configuration.extraArguments = ["-no_such_option": "1"]
        #expect(throws: SpeechError.self) { _ = try SpeechRecognizer(configuration, grammars: ["yn": Grammars.yesNo]) }
    }

    @Test func fileAudioSourceFeedsTheRecognizer() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("utt.wav")
        try WAVFile.write(try SpokenFixtures.say("glucose seven point five"), to: url)
        let source = try FileAudioSource(url: url)
        #expect(source.sampleRate == 16000)
        let recognizer = try Grammars.recognizer(select: "t")
        var texts: [String] = []
        while let chunk = try source.read(frames: 1600) {
            texts += recognizer.process(chunk).map(\.text)
        }
        if let last = recognizer.finish() { texts.append(last.text) }
        #expect(texts == ["glucose seven point five"])
        source.close()
        #expect(try source.read(frames: 10) == nil)
    }
}

/// A phrase without espeak-ng's own silence around it (from the first to the last sample above
/// 1 % of full scale).
private func trimmed(_ samples: [Int16]) -> [Int16] {
    let start = samples.firstIndex { abs(Int($0)) > 327 } ?? 0
    let end = samples.lastIndex { abs(Int($0)) > 327 } ?? samples.count - 1
    return Array(samples[start...end])
}
