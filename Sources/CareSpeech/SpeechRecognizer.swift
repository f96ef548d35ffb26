import CPocketSphinx
import Foundation
import Logging

public struct RecognitionResult: Sendable, Equatable {
    /// Hypothesis words joined by single spaces, lowercase; "" when nothing was recognised.
    public var text: String
    /// Path score from ps_get_hyp.
    public var score: Int32
    /// Posterior probability of the hypothesis, 0...1 (ps_get_prob through logmath_exp); 0 if unavailable.
    /// With JSGF grammars pocketsphinx 0.8 never has one, so this is 0 for every grammar result:
    /// do not use it to skip confirmation.
    public var confidence: Double
    /// Seconds of speech the decoder processed in this utterance.
    public var audioDuration: Double
    /// Where the end of the utterance was detected, in seconds of audio since listening began
    /// (for `run`, since the start of the recording); nil for `decode`, which has no stream.
    public var endpoint: Double?
    /// Wall-clock seconds the final decode took, between detecting the end and returning; where
    /// the utterance told the room changed, also making the room's recognizer and its hearing
    /// the utterance again (`BackgroundFollower`), which the reply waits for too; in a noisy
    /// room, at least until its words heard with the noise left in were ready
    /// (`SpeechRecognizer.makeNoiseLeftIn`): how far that hearing was behind, and its ending.
    public var decodingTime: Double
    /// Seconds the hearing was behind the sound when the utterance ended, which the reply waits
    /// for too: how far the listening thread was behind where a recording stands in for the
    /// microphone (`runWithHandover`, as a live one would lag), plus, for words a noisy room's
    /// recognizer heard beside the quiet room's, how far its own thread was behind (making it,
    /// catching up with the utterance so far: `BesideHearing`). 0 where not measured.
    public var behind = 0.0
    /// How well the grammar's best path fits the audio compared with a free sequence of phones
    /// decoded from the same audio: the difference of their acoustic scores (pocketsphinx's
    /// scaled log units) per frame of recognised words. Near 0 or above when the grammar explains the
    /// sound as well as any phones do, far below 0 when words were forced onto it. nil unless
    /// `Configuration.measuresFit`, or when nothing was recognised.
    public var grammarFit: Double?
    /// How long the recognised words themselves lasted, silence and padding left out (their
    /// frames in the grammar's alignment). nil when the fit was not measured.
    public var speechSeconds: Double?
    /// How much the loudness of the utterance's sound varies where it is loud, in dB
    /// (`SpeechRecognizer.loudnessSwing`): speech rises and falls with its syllables, a steady
    /// noise (a fan, running water, a hiss) hardly at all, so words heard in the one swing far
    /// more than words forced onto the other. Nil when nothing was recognised, or the sound was
    /// too short or silent to say.
    public var loudnessSwing: Double?
    /// How long the utterance's sound was loud, in seconds as said: its loud stretch
    /// (`SpeechRecognizer.loudnessSwing`), from the first 10 ms within 10 dB of its loudest to
    /// the last. A word said whole is loud for a syllable at least; a click, or the burst of a
    /// word cut in two, for less. Nil when nothing was recognised, or the sound was silent.
    public var loudSeconds: Double?
    /// The grammar it was decoded with: not always the one selected when it is delivered, since
    /// a grammar chosen mid-utterance applies to the next one.
    public var grammar: String
    /// The samples the final decode saw (padded, noise-floored, at the configured rate), for
    /// adapting the model to this voice; empty unless `Configuration.keepsAudio`.
    public var audio: [Int16] = []
    /// How many samples at the start of `audio` were put there, not heard: the lead-in, and any
    /// of a recording's own lead-in (`runWithHandover`) that came before the utterance.
    public var paddingBeforeSound = 0
    /// How far the utterance's speech was above what the stream carried between utterances, in
    /// dB (`BackgroundLevel`): a microphone's background, or a recording's (its lead-in left
    /// out), which `AudioBackground.following` judges utterance by utterance; where too little
    /// was heard to know it, no less than above its own quietest moments (`endedSignalToNoise`).
    /// Nil when nothing was heard around the utterance.
    public var signalToNoise: Double?
    /// The other words the utterance was heard as by `Configuration.otherWords` (in their own
    /// spelling, "my knee hurts"), when they explained it better than the grammar; nil when the
    /// grammar did, or nothing checked it.
    public var otherWords: String?
    /// The room the recognizer that heard it was made for: `.noisy` when the noise was taken out
    /// (`Configuration.background`).
    public var heardOver = AudioBackground.quiet
    /// When its words were heard (`SpeechRecognizer.Hearing`).
    public var hearing = SpeechRecognizer.Hearing.whole

    public init(text: String, score: Int32, confidence: Double, audioDuration: Double,
                endpoint: Double? = nil, decodingTime: Double = 0, grammarFit: Double? = nil, grammar: String = "") {
        self.text = text
        self.score = score
        self.confidence = confidence
        self.audioDuration = audioDuration
        self.endpoint = endpoint
        self.decodingTime = decodingTime
        self.grammarFit = grammarFit
        self.grammar = grammar
    }
}

/// pocketsphinx 0.8 (5prealpha), constrained by JSGF grammars.
///
/// Not thread-safe: an instance belongs to the thread (or serial queue) that uses it, and is
/// deliberately not `Sendable`. Separate instances may live on separate threads.
public final class SpeechRecognizer {
    /// When an utterance's words were heard.
    public enum Hearing: String, Sendable {
        /// As it was said: they are ready as soon as it ends.
        case asSaid = "as said"
        /// As a whole, after it ended (or given whole, `decode`): the reply waits for it.
        case whole
    }

    public struct Configuration: Sendable {
        public var modelDirectory: String = "/usr/share/pocketsphinx/model/en-us/en-us"
        public var dictionary: String = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"
        /// Pronunciations for words the dictionary lacks, e.g. ["millimoles": "M IH L AH M OW L Z"]
        /// (CMU phones, space-separated). Words the dictionary already has keep their entries.
        public var extraWords: [String: String] = [:]
        /// Spells, on demand, words neither the dictionary nor `extraWords` has: Chinese words in
        /// the English model's phones (`PinyinPhones`). Nil gives nil: the word is unknown.
        public var pronounce: (@Sendable (String) -> String?)?
        public var sampleRate: Int = 16000
        /// Gaussian means that replace the acoustic model's own (pocketsphinx's -mean), e.g. the
        /// means adapted to telephone-band speech (`AudioBand.narrow`); nil: the model's.
        public var meansFile: String?
        /// Where `meansFile` fits only speech close over noise (a noisy room's means): an
        /// utterance in the stream said at least this many dB above the room
        /// (`clearestSignalToNoise`) is answered with the words heard beside with the noise left
        /// in (`makeNoiseLeftIn`), which hears with the model's own means. Clean speech heard with
        /// a noisy room's means was turned away or misheard (ec45, every recording heard as a
        /// noisy room's: readings 55 -> 0 of 100), and the utterance that tells the room is quiet
        /// again is heard by a noisy room's recognizer. Nil: this recognizer's words are answered.
        public var noiseLeftInAnswersFromDB: Double?
        /// Decoder options beyond pocketsphinx's defaults. Measured with `carevoice bench loop
        /// --count 100 --seed 5` (5 espeak-ng voices): wider beams and 16 Gaussians per frame
        /// instead of 4 took exact readings from 53 % to 65 %.
        public var decoderOptions: [String: String] = [
            "-beam": "1e-80", "-pbeam": "1e-80", "-wbeam": "1e-60",
            "-topn": "16",
        ]
        /// What the speech is heard over: noise is taken out of noisy audio only
        /// (`AudioBackground.decoderOptions`).
        public var background = AudioBackground.quiet
        /// Raw decoder options, e.g. ["-vad_threshold": "3.0"]; they win over the ones above.
        public var extraArguments: [String: String] = [:]
        /// Hear every utterance a second time as a free sequence of phones, the yardstick for
        /// `RecognitionResult.grammarFit`: a second decoder, searching beside the grammar's (about
        /// half as much processing again, and the model loaded twice).
        public var measuresFit = false
        /// The pause, in seconds, that ends an utterance whose words are a whole sentence that
        /// cannot go on (a reading with its tag) or can be answered at once (`answersAtOnce`),
        /// instead of the detector's half second.
        public var earlyEndSilence = 0.2
        /// Whether words that are a whole sentence, though a longer one starts with them, can be
        /// answered without waiting for more ("yes", which "please" may follow): then they too
        /// end after `earlyEndSilence`. Nil: only a sentence that nothing can follow does.
        public var answersAtOnce: (@Sendable (String) -> Bool)?
        /// When the fit is measured, a sentence ends early only if its words fit the sound at
        /// least this well so far: forced onto a grammar, unrelated speech is a whole sentence at
        /// many a pause ("could you | pass me the salt" was cut in two in a yes-or-no grammar, and
        /// each half judged alone). Nil: the words alone decide.
        public var earlyEndMinimumFit: Double?
        /// A pause shorter than `earlyEndSilence`, in seconds, that ends the sentences
        /// `endsAtShortestPause` picks out among those that may end early (a reading, whose
        /// read-back should start within a quarter of a second). Nil: none is shorter.
        public var shortestEndSilence: Double?
        public var endsAtShortestPause: (@Sendable (String) -> Bool)?
        /// `answersAtOnce` for an utterance that turns out noisy (its speech so far less than
        /// `AudioBackground.noisyBelowDB` above the background heard before it) where the
        /// recognizer was made for a quiet room: the first words said in a noisy one, before
        /// the stream has told it is noisy. Then `endsAtShortestPause` does not apply either.
        /// Nil: the rules above, whatever the utterance sounds like.
        public var answersAtOnceOverNoise: (@Sendable (String) -> Bool)?
        /// A pause longer than `earlyEndSilence`, in seconds, that the sentences
        /// `waitsLongerOverNoise` picks out need before they end early where the utterance is
        /// noisy (the recognizer is a noisy room's, or its speech so far sounds noisy): in noise
        /// the detector hears pauses inside words, and where a sentence's last syllable decides
        /// it (午饭前, 午饭后) the words heard at such a pause are a guess. Nil: none waits longer.
        public var longerEndSilenceOverNoise: Double?
        public var waitsLongerOverNoise: (@Sendable (String) -> Bool)?
        /// How many times as likely as the grammar alone makes it each of these words is heard,
        /// in every grammar without odds of its own (`addGrammar`): above 1 for words to be heard
        /// rather than missed (a call for help), below 1 for words costly to hear by mistake.
        /// The odds move only the choice between paths; the grammar fit, which rejection judges,
        /// stays acoustic.
        public var wordOdds: [String: Double] = [:]
        /// Return the audio of each utterance with its result (`RecognitionResult.audio`).
        public var keepsAudio = false
        /// How much higher (above 1) or lower the voice is heard: everything the recognizer hears
        /// is scaled so (`FrequencyScaler`; chosen per person, `VoiceScale`), and its pauses are
        /// counted in the time they took to say.
        public var frequencyScale = 1.0
        /// A second opinion on what one grammar hears: that grammar with other words beside it
        /// (`OtherWordsCheck`), heard by a third decoder. Nil: none.
        public var otherWords: OtherWordsCheck?
        /// Whether words heard so, as they measured, are a call for help to answer (an emergency
        /// phrase above its floor): a call one hearing of an utterance hears wins over the
        /// other's words (`makeNoiseLeftIn`, `heardFirst`). Nil: no words are.
        public var isCallForHelp: (@Sendable (RecognitionResult) -> Bool)?
        public init() {}
    }

    public let configuration: Configuration
    /// Names of the grammars it has (given to `init` or added since), sorted.
    public private(set) var grammarNames: [String]
    /// The grammar the next utterance will be decoded with.
    public var currentGrammar: String { pendingGrammar ?? activeGrammar }

    /// The decoder of the grammars (and language models).
    private let decoder: OpaquePointer
    private let config: OpaquePointer
    /// A second decoder that hears the same samples as `decoder` with a free loop of phones, the
    /// yardstick of `RecognitionResult.grammarFit`; nil unless `Configuration.measuresFit`. Its
    /// own, so that both search as the audio streams in and an utterance's result is ready as
    /// soon as its end is found.
    private let fitDecoder: OpaquePointer?
    private let fitConfig: OpaquePointer?
    /// A third decoder, hearing `Configuration.otherWords`'s grammar beside the others; nil
    /// without one.
    private let otherWordsDecoder: OpaquePointer?
    private let otherWordsConfig: OpaquePointer?
    /// argv for cmd_ln_parse_r; kept until after ps_free because the configs may point into it.
    private let argv: [UnsafeMutablePointer<CChar>?]
    private let logger = Logger(label: "carevoice.speech.recognizer")

    private var activeGrammar: String
    private var pendingGrammar: String?
    /// Each grammar's finite-state form, to tell whether the words heard so far are a whole
    /// sentence that cannot go on (`endsEarly`).
    private var grammarShapes: [String: GrammarShape] = [:]

    /// The decoders are in an utterance, all alike (`hearing`).
    /// They hear utterances only, not the silence between them: their running cepstral mean
    /// (sphinxbase's live mode) is set at each utterance's end from its speech and subtracted
    /// from the next, so it follows the person's voice. Heard between utterances too, the mean
    /// came from the few frames since the last one: "glucose six point five before breakfast"
    /// was heard without its tag.
    private var hearsUtterance = false
    /// Frames of utterances the decoders have searched since they were made (or since
    /// `beginSession`): until they have heard `framesToLearnTheMean` of them, the running mean
    /// (which sphinxbase starts from its -cmninit) has learned little of the voice, so an
    /// utterance is decoded again as a whole once it has ended, with a mean that now includes it.
    private var framesHeard = 0
    /// Three seconds of speech: a reading or two.
    static let framesToLearnTheMean = 300
    /// Where a stream's utterances end: pocketsphinx's voice-activity detector with the
    /// configuration's hangover (-vad_postspeech, 0.5 s), on its own front end.
    private let endDetector: SpeechDetector
    /// The same detector with a short hangover (`earlyEndSilence`): where an utterance whose
    /// words are a whole sentence that cannot go on ends (see `endsEarly`).
    private let earlyEndDetector: SpeechDetector
    private let earlyEndConfig: OpaquePointer
    /// The same with the shortest hangover (`Configuration.shortestEndSilence`), if there is one.
    private let shortestEndDetector: SpeechDetector?
    private let shortestEndConfig: OpaquePointer?
    /// The same with the longer hangover (`Configuration.longerEndSilenceOverNoise`), if there is one.
    private let longerEndDetector: SpeechDetector?
    private let longerEndConfig: OpaquePointer?
    private var detectors: [SpeechDetector] { [endDetector, earlyEndDetector] + [shortestEndDetector, longerEndDetector].compactMap { $0 } }
    /// What the decoders knew of the cepstral mean when they were made (the model's generic
    /// mean, its -cmninit), where a session starts: restored by `beginSession`.
    private var initialMeans: [OpaquePointer] = []
    /// The end detector has reported speech in the current utterance, and the decoders hear it.
    private var speechSeen = false
    /// Whether the stream is within an utterance: speech was heard and its end not yet found.
    public var isInUtterance: Bool { speechSeen }
    /// Whether the detector's noise estimate has been calibrated, and the audio held back for it.
    private var calibrated = false
    private var calibrationBuffer: [Int16] = []
    /// The audio of the utterance in progress, from `preRoll` before speech was detected.
    private var utteranceAudio: [Int16] = []
    /// How many samples at the start of `utteranceAudio` are a recording's lead-in
    /// (`paddingToCome`), not its sound.
    private var leadInInUtterance = 0
    /// Samples fed to the stream so far: the clock for `RecognitionResult.endpoint`.
    private var samplesHeard = 0
    /// Scales what the recognizer hears (`Configuration.frequencyScale`).
    private var scaler: FrequencyScaler
    /// Seconds said so far: `samplesHeard` were scaled.
    private var secondsHeard: Double { Double(samplesHeard) * configuration.frequencyScale / Double(configuration.sampleRate) }
    /// What the stream carried outside utterances, for `RecognitionResult.signalToNoise`.
    private var background = BackgroundLevel()
    /// Samples still to come that are padding (`runWithHandover`'s lead-in), not the background.
    private var paddingToCome = 0
    /// Samples still to come before the padding after a recording's sound (`runWithHandover`'s
    /// tail); nil: nothing is put after what is heard (a microphone).
    private var soundBeforeTail: Int?
    /// How many samples at the end of `utteranceAudio` are that tail, not the recording's sound.
    private var tailInUtterance = 0
    /// The level of the noise put around an utterance, in dBFS (`learnPaddingLevel`).
    private var paddingLevel = NoiseFloor.levelDBFS
    /// The stream's audio outside speech before the pre-roll, its last `roomLeadIn` seconds:
    /// what a noisy room's decoders hear before an utterance (`decoderLeadIn`).
    private var roomBeforeUtterance: [Int16] = []
    /// What the decoders heard before the utterance in progress (`decoderLeadIn`).
    private var utteranceLeadIn: [Int16] = []

    /// Makes a noisy room's recognizer like this quiet room's one (nil when it cannot), when
    /// asked (`prepareOverNoise`) or else as soon as an utterance sounds noisy while it is said
    /// (`utteranceSoundsNoisy`), on a thread of its own (`BesideHearing`): once an utterance
    /// sounds noisy, it hears the rest of it beside this one (made ahead, the whole of it where
    /// the room is not known yet: `listenOverNoiseFromTheStart`), so that its words with the
    /// noise taken out are ready (`takeOverNoise`) when the utterance ends, instead of heard
    /// again then while the person waits for the reply. Made once; called on that thread.
    public var makeOverNoise: (() -> SpeechRecognizer?)? { didSet { overNoise = nil } }
    /// The recognizer `makeOverNoise` makes, at work on its own thread.
    private var overNoise: BesideHearing?
    /// `overNoise` was asked to hear the utterance in progress beside this one.
    private var overNoiseHears = false
    /// The utterance in progress sounded noisy while it was said (`utteranceSoundsNoisy`), and
    /// `overNoise` hears it: that one's words decide where it ends (`endsEarly`), and this one
    /// stops hearing other words. Until then `overNoise` may hear it only in case it does
    /// (`listenOverNoiseFromTheStart`).
    private var overNoiseJudges = false
    /// Seconds this thread has waited for the recognizers beside it (`overNoise`, `noiseLeftIn`),
    /// in all: how far each was behind is counted in its words (`BesideHearing`), so
    /// `runWithHandover` does not count the wait.
    private var waitedBeside = 0.0
    /// What `overNoise` heard of the utterance this one ended last, where it heard it beside.
    private(set) var heardOverNoise: RecognitionResult?
    /// Each listener's cepstral mean before it began to hear the utterance beside another
    /// recognizer to take it over (`startBeside`), until it is ended or forgotten.
    private var meansBeforeTakingOver: [OpaquePointer] = []
    /// The pause, in seconds as said, at which the utterance heard beside another recognizer
    /// ended early by these words (`endsEarlyBeside`); nil when it did not.
    private var endedEarlyBeside: Double?
    /// How often, in seconds of an utterance, whether it sounds noisy is measured.
    static let overNoiseCheck = 0.2

    /// Makes a quiet room's recognizer like this noisy room's one (nil when it cannot), to hear
    /// every utterance beside it with the noise left in, on a thread of its own
    /// (`BesideHearing`), for calls for help only: where this one hears none and that one hears
    /// one (`Configuration.isCallForHelp`), the call is the utterance's words. The noise removal
    /// (-remove_noise) takes the h of "help" with the noise: in 10 dB of pink noise there a
    /// second before and after each (`bench recognition --noise pink --snr 10 --noise-around
    /// 1`), em62's 105 calls were heard 96 times with the noise taken out, 100 with this hearing
    /// beside (four of en-gb+grandma's lone "help"s, heard as "pardon"), em61's 105 both ways.
    /// It costs false alarms: em61's and em62's other 108 utterances heard as a call 5 -> 6, 190
    /// yes/no answers 6 -> 10. Made when this one first hears an utterance, or when asked
    /// (`prepareNoiseLeftIn`); called on that thread.
    public var makeNoiseLeftIn: (() -> SpeechRecognizer?)? { didSet { noiseLeftIn = nil } }
    /// The recognizer `makeNoiseLeftIn` makes, at work on its own thread.
    private var noiseLeftIn: BesideHearing?
    /// `noiseLeftIn` hears the utterance in progress.
    private var noiseLeftInHears = false

    /// What a recognizer beside another hears an utterance for (`startBeside`).
    enum BesideRole {
        /// To take over from it: the room got noisy (`makeOverNoise`). It learns its cepstral
        /// mean afresh from the utterance, and hears its other words too.
        case takingOver
        /// To hear the calls for help it may miss (`makeNoiseLeftIn`): it goes on with the mean
        /// of the utterances it heard before, and hears only the grammar and its fit.
        case listeningForCalls
    }

    /// Serialises model loading and grammar compilation across instances: sphinxbase keeps a
    /// little global state (its log, the JSGF parser's error reporting) that is not thread-safe.
    private static let setupLock = NSLock()
    /// Silences the decoder's chatty log once per process (it goes to stderr by default).
    private static let quietLog: Void = { err_set_logfp(nil) }()

    /// Loads the acoustic model and dictionary and compiles every grammar (name -> JSGF source).
    /// The alphabetically first grammar is selected.
    /// - Throws: `recognizerUnavailable` when the model cannot be loaded; `badGrammar("<name>: <reason>")`
    ///   when a grammar does not parse or uses a word that is not in the dictionary.
    public init(_ configuration: Configuration, grammars: [String: String]) throws {
        self.configuration = configuration
        Self.setupLock.lock()
        defer { Self.setupLock.unlock() }
        _ = Self.quietLog

        let fm = FileManager.default
        guard fm.fileExists(atPath: configuration.modelDirectory + "/mdef") else {
            throw SpeechError.recognizerUnavailable("no acoustic model at \(configuration.modelDirectory)")
        }
        guard fm.fileExists(atPath: configuration.dictionary) else {
            throw SpeechError.recognizerUnavailable("no dictionary at \(configuration.dictionary)")
        }
        guard !grammars.isEmpty else { throw SpeechError.badGrammar("no grammars given") }

        var options: [String: String] = [
            "-hmm": configuration.modelDirectory,
            "-dict": configuration.dictionary,
            "-samprate": String(configuration.sampleRate),
        ]
        if let meansFile = configuration.meansFile {
            guard fm.isReadableFile(atPath: meansFile) else {
                throw SpeechError.recognizerUnavailable("no acoustic means at \(meansFile)")
            }
            // pocketsphinx ends the process, silently, on means it cannot read: check them first.
            do {
                try GaussianMeans.fit(meansFile, model: configuration.modelDirectory + "/means")
            } catch {
                throw SpeechError.recognizerUnavailable("the acoustic means at \(meansFile) cannot be used: \(error)")
            }
            options["-mean"] = meansFile
        }
        options.merge(configuration.decoderOptions) { _, tuned in tuned }
        options.merge(configuration.background.decoderOptions) { _, heard in heard }
        options.merge(configuration.extraArguments) { _, extra in extra }
        // The early end detectors are the end detector with shorter hangovers (in frames). Scaled
        // audio lasts 1/scale as long as what was said: a pause is that many frames.
        let scale = configuration.frequencyScale
        let hangover = Int(options["-vad_postspeech"] ?? "") ?? Self.defaultHangoverFrames
        func earlyOptions(_ pause: Double) -> [String: String] {
            var early = options
            let frames = min(Double(hangover), (pause * Self.framesPerSecond).rounded())
            early["-vad_postspeech"] = String(Int((frames / scale).rounded()))
            return early
        }
        if scale != 1 { options["-vad_postspeech"] = String(Int((Double(hangover) / scale).rounded())) }

        // Until self owns them all (then deinit releases them), a throw releases what was made.
        var arguments: [UnsafeMutablePointer<CChar>?] = []
        var release: [() -> Void] = []
        var owned = false
        defer {
            if !owned {
                release.reversed().forEach { $0() }
                arguments.forEach { free($0) }
            }
        }
        func parse(_ options: [String: String]) throws -> OpaquePointer {
            let argv: [UnsafeMutablePointer<CChar>?] = options.sorted { $0.key < $1.key }.flatMap { [strdup($0.key), strdup($0.value)] }
            arguments += argv
            var parseArgv = argv + [nil]
            guard let config = parseArgv.withUnsafeMutableBufferPointer({ buffer in
                cmd_ln_parse_r(nil, ps_args(), Int32(argv.count), buffer.baseAddress, 1)
            }) else {
                throw SpeechError.recognizerUnavailable("pocketsphinx rejected the options \(options.keys.sorted())")
            }
            release.append { cmd_ln_free_r(config) }
            return config
        }
        func load(_ config: OpaquePointer) throws -> OpaquePointer {
            guard let decoder = ps_init(config) else {
                throw SpeechError.recognizerUnavailable("pocketsphinx could not load \(configuration.modelDirectory)")
            }
            release.append { ps_free(decoder) }
            return decoder
        }
        func detector(_ config: OpaquePointer) throws -> SpeechDetector {
            let detector = try SpeechDetector(config: config)
            release.append { detector.close() }
            return detector
        }
        let started = Date()
        let config = try parse(options), decoder = try load(config)
        // The phone loop is the fit's yardstick: search settings tried with `extraArguments`
        // are the grammars' (`searchOverrides`), not its own; a word penalty there left it with
        // no phones at all, and every utterance with no fit.
        var fitOptions = options
        for name in configuration.extraArguments.keys where Self.searchOptionNames.contains(name) {
            fitOptions[name] = configuration.decoderOptions[name]
        }
        let fitConfig = configuration.measuresFit ? try parse(fitOptions) : nil
        let fitDecoder = try fitConfig.map(load)
        var otherWordsOptions = options
        if let most = configuration.otherWords?.maxHMMsPerFrame { otherWordsOptions["-maxhmmpf"] = String(most) }
        let otherWordsConfig = configuration.otherWords == nil ? nil : try parse(otherWordsOptions)
        let otherWordsDecoder = try otherWordsConfig.map(load)
        let earlyEndConfig = try parse(earlyOptions(configuration.earlyEndSilence))
        let shortestEndConfig = try configuration.shortestEndSilence.map { try parse(earlyOptions($0)) }
        let longerEndConfig = try configuration.longerEndSilenceOverNoise.map { try parse(earlyOptions($0)) }
        self.endDetector = try detector(config)
        self.earlyEndDetector = try detector(earlyEndConfig)
        self.shortestEndDetector = try shortestEndConfig.map(detector)
        self.longerEndDetector = try longerEndConfig.map(detector)
        self.decoder = decoder
        self.config = config
        self.fitDecoder = fitDecoder
        self.fitConfig = fitConfig
        self.otherWordsDecoder = otherWordsDecoder
        self.otherWordsConfig = otherWordsConfig
        self.earlyEndConfig = earlyEndConfig
        self.shortestEndConfig = shortestEndConfig
        self.longerEndConfig = longerEndConfig
        self.scaler = FrequencyScaler(factor: scale, sampleRate: configuration.sampleRate)
        self.argv = arguments
        self.grammarNames = grammars.keys.sorted()
        self.activeGrammar = grammarNames[0]
        owned = true
        // From here on deinit releases everything, so a throw below cannot leak.

        for (word, phones) in configuration.extraWords.sorted(by: { $0.key < $1.key }) {
            if let known = ps_lookup_word(decoder, word) {
                free(known)
                continue
            }
            // update = 0: with no search built yet, asking for an update would crash 5prealpha.
            guard ps_add_word(decoder, word, phones, 0) >= 0 else {
                throw SpeechError.recognizerUnavailable("cannot add word \(word) as \"\(phones)\" (unknown phone?)")
            }
        }
        for name in grammarNames {
            try compile(name: name, source: grammars[name]!)
        }
        if let fitDecoder, let fitConfig {
            for phone in Self.modelPhones where ps_add_word(fitDecoder, Self.phoneWord(phone), phone, 0) < 0 {
                throw SpeechError.recognizerUnavailable("the acoustic model has no phone \(phone)")
            }
            let loop = "#JSGF V1.0;\ngrammar carevoice_phone_loop;\npublic <phones> = <phone>+;\n<phone> = "
                + Self.modelPhones.map(Self.phoneWord).joined(separator: " | ") + ";\n"
            guard Self.withSearchOptions(Self.phoneLoopOptions, in: fitConfig, { ps_set_jsgf_string(fitDecoder, Self.phoneLoop, loop) }) == 0 else {
                throw SpeechError.recognizerUnavailable("pocketsphinx could not build the phone loop")
            }
        }
        if let check = configuration.otherWords, let otherWordsDecoder, let otherWordsConfig {
            try build(check, in: otherWordsDecoder, config: otherWordsConfig)
        }
        guard ps_set_search(decoder, activeGrammar) == 0 else {
            throw SpeechError.badGrammar("\(activeGrammar): pocketsphinx cannot select it")
        }
        initialMeans = listeners.compactMap { carevoice_cmn_state_save($0) }
        logger.debug("pocketsphinx ready", metadata: ["seconds": "\(Date().timeIntervalSince(started))"])
    }

    deinit {
        stopHearing()
        // The detectors hold their configurations, which point into argv.
        detectors.forEach { $0.close() }
        listeners.forEach { ps_free($0) }
        initialMeans.forEach { carevoice_cmn_state_free($0) }
        meansBeforeTakingOver.forEach { carevoice_cmn_state_free($0) }
        [config, fitConfig, otherWordsConfig, earlyEndConfig, shortestEndConfig, longerEndConfig].forEach { if let c = $0 { cmd_ln_free_r(c) } }
        argv.forEach { free($0) }
    }

    /// Every decoder: the grammars', the phone loop's when the fit is measured, and the other
    /// words' when there are some.
    private var listeners: [OpaquePointer] { [decoder] + [fitDecoder, otherWordsDecoder].compactMap { $0 } }

    /// The decoders that hear the utterance in progress, alike: the other words' only where
    /// its grammar is heard. Elsewhere it would only cost time: 13 ms more at the end of an
    /// answer (`bench loop --count 100 --seed 5`, p95 of replies to anything but a reading).
    private var hearing: [OpaquePointer] = []
    /// The other words' decoder is among `hearing`, or was when the utterance ended.
    private var hearsOtherWords = false
    /// The other words' decoder stopped before the utterance ended (`stopHearingOtherWords`).
    private var otherWordsCutShort = false

    /// The search name of the grammar with other words beside it; no grammar may have it.
    static let otherWordsSearch = "_other_words"

    /// Builds the check's grammar in its decoder: the loop's words (those the dictionary can
    /// say, each under its `OtherWordsCheck.loopWord` spelling), the odds of the checked
    /// grammar's words (the configuration's) and of the loop's (`oddsPerPhone` to the power of
    /// its phones).
    private func build(_ check: OtherWordsCheck, in checker: OpaquePointer, config checkerConfig: OpaquePointer) throws {
        var odds = configuration.wordOdds
        var loopWords: [String] = []
        var loopSounds = Set<String>()
        for word in check.words {
            // One loop word for each sound: another with the same phones adds only work
            // (shi and shu are both SH UW to this model).
            guard let phones = pronunciation(of: word), loopSounds.insert(phones).inserted else { continue }
            let loopWord = OtherWordsCheck.loopWord(word)
            guard ps_add_word(checker, loopWord, phones, 0) >= 0 else {
                throw SpeechError.recognizerUnavailable("cannot add word \(loopWord) as \"\(phones)\"")
            }
            loopWords.append(loopWord)
            odds[loopWord] = pow(check.oddsPerPhone, Double(phones.split(separator: " ").count))
        }
        let source = check.source(loopWords)
        // The checked grammar's words as the grammars' decoder says them (extra words, words
        // spelled on demand).
        guard let words = Self.words(of: source) else {
            throw SpeechError.badGrammar("\(Self.otherWordsSearch): not valid JSGF with a public rule")
        }
        for word in words {
            if let known = ps_lookup_word(checker, word) { free(known); continue }
            guard let phones = pronunciation(of: word), ps_add_word(checker, word, phones, 0) >= 0 else {
                throw SpeechError.badGrammar("\(Self.otherWordsSearch): not in the dictionary: \(word)")
            }
        }
        guard Self.setGrammar(Self.otherWordsSearch, source: source, odds: odds, in: checker, config: checkerConfig) == 0,
              ps_set_search(checker, Self.otherWordsSearch) == 0 else {
            throw SpeechError.badGrammar("\(Self.otherWordsSearch): pocketsphinx rejected it")
        }
    }

    private func compile(name: String, source: String, searchOptions: [String: Double] = [:],
                         wordOdds: [String: Double]? = nil) throws {
        // The JSGF lexer echoes text it cannot match before the header to stdout, so never hand it any.
        guard Self.startsWithJSGFHeader(source) else {
            throw SpeechError.badGrammar("\(name): does not start with a #JSGF header")
        }
        // pocketsphinx only logs which word is missing, so find it first.
        guard let words = Self.words(of: source) else {
            throw SpeechError.badGrammar("\(name): not valid JSGF with a public rule")
        }
        guard !words.isEmpty else {
            // What a reference to an undefined rule compiles to.
            throw SpeechError.badGrammar("\(name): the public rule produces no words (undefined rule?)")
        }
        let missing = words.filter { pronunciation(of: $0) == nil }
        guard missing.isEmpty else {
            throw SpeechError.badGrammar("\(name): not in the dictionary: \(missing.joined(separator: ", "))")
        }
        // pocketsphinx reads the search settings from the config when it builds the search, so
        // setting them just for this call gives the grammar its own; the rest keep theirs.
        let unknown = searchOptions.keys.filter { !Self.searchOptionNames.contains($0) }
        guard unknown.isEmpty else {
            throw SpeechError.badGrammar("\(name): not a per-grammar setting: \(unknown.sorted().joined(separator: ", "))")
        }
        guard Self.withSearchOptions(searchOptions, in: config, {
            Self.setGrammar(name, source: source, odds: wordOdds ?? configuration.wordOdds, in: decoder, config: config)
        }) == 0 else {
            throw SpeechError.badGrammar("\(name): pocketsphinx rejected it")
        }
        grammarShapes[name] = GrammarShape(jsgf: source)
    }

    /// Builds a grammar's search in a decoder, each word of `odds` that many times as likely as
    /// the grammar alone makes it (`carevoice_set_jsgf_with_odds`); 0 when it was built.
    private static func setGrammar(_ name: String, source: String, odds: [String: Double],
                                   in decoder: OpaquePointer, config: OpaquePointer) -> Int32 {
        let sorted = odds.sorted { $0.key < $1.key }
        let words = sorted.map { strdup($0.key) }
        defer { words.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = words.map { $0.map { UnsafePointer($0) } }
        return carevoice_set_jsgf_with_odds(decoder, config, name, source, pointers, sorted.map(\.value), sorted.count)
    }

    /// The words a JSGF grammar's public rule can produce; nil when it is not valid JSGF.
    private static func words(of source: String) -> [String]? {
        guard let list = carevoice_jsgf_words(source) else { return nil }
        defer { free(list) }
        return String(cString: list).split(separator: "\n").map(String.init)
    }

    /// Runs `build` (which creates a search) with these options set in the config, then restores it.
    private static func withSearchOptions(_ options: [String: Double], in config: OpaquePointer, _ build: () -> Int32) -> Int32 {
        let saved = options.keys.map { ($0, cmd_ln_float_r(config, $0)) }
        for (option, value) in options { cmd_ln_set_float_r(config, option, value) }
        defer { for (option, value) in saved { cmd_ln_set_float_r(config, option, value) } }
        return build()
    }

    /// The decoder options pocketsphinx 0.8 reads when it builds a grammar's search (fsg_search_init
    /// and ps_set_jsgf_string), so that each grammar may have its own: word and phone insertion
    /// probabilities, the language weight, silence and filler probabilities, the beams.
    public static let searchOptionNames: Set<String> = ["-wip", "-pip", "-lw", "-silprob", "-fillprob", "-beam", "-pbeam", "-wbeam"]

    /// Adds (or replaces) a grammar after start-up, e.g. one built from words `canPronounce` accepts.
    /// - Parameter searchOptions: settings for this grammar only (see `searchOptionNames`),
    ///   e.g. ["-wip": 1e-6]; the others are the decoder's.
    /// - Parameter wordOdds: this grammar's own odds of words (see `Configuration.wordOdds`);
    ///   nil: the configuration's.
    public func addGrammar(name: String, source: String, searchOptions: [String: Double] = [:],
                           wordOdds: [String: Double]? = nil) throws {
        Self.setupLock.lock()
        defer { Self.setupLock.unlock() }
        let replacingSelected = name == activeGrammar
        // An utterance in progress belongs to the search about to be freed.
        if replacingSelected { reset() }
        // Searches are built with the decoders out of an utterance; one being said goes on being
        // collected and is decoded whole at its end (`endUtteranceInStream`).
        stopHearing()
        try compile(name: name, source: source, searchOptions: searchOptions, wordOdds: wordOdds)
        // pocketsphinx frees the search a new one of the same name replaces, but keeps pointing
        // at it when it was the selected one: point it at the new one.
        if replacingSelected && ps_set_search(decoder, name) != 0 {
            throw SpeechError.badGrammar("\(name): pocketsphinx cannot select it")
        }
        if !grammarNames.contains(name) { grammarNames = (grammarNames + [name]).sorted() }
    }

    /// Language models registered by `addLanguageModel`, loaded the first time they are selected.
    private var pendingLanguageModels: [String: (path: String, searchOptions: [String: Double])] = [:]
    /// Searches that hear free words: no grammar fit is measured for them (free words fit any
    /// sound somehow, and the phone loop would be a third decode of the utterance).
    private var languageModelNames = Set<String>()

    /// Adds a search that hears free words with a statistical language model (an ARPA or binary
    /// .lm file whose words the dictionary has), under `name`, beside the grammars. Loading a
    /// general model takes a while, so it is read the first time `name` is selected.
    /// - Parameter searchOptions: settings for this search only (see `searchOptionNames`).
    public func addLanguageModel(name: String, path: String, searchOptions: [String: Double] = [:]) throws {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw SpeechError.recognizerUnavailable("no language model at \(path)")
        }
        let unknown = searchOptions.keys.filter { !Self.searchOptionNames.contains($0) }
        guard unknown.isEmpty else {
            throw SpeechError.badGrammar("\(name): not a per-search setting: \(unknown.sorted().joined(separator: ", "))")
        }
        pendingLanguageModels[name] = (path, searchOptions)
        languageModelNames.insert(name)
        if !grammarNames.contains(name) { grammarNames = (grammarNames + [name]).sorted() }
    }

    private func loadLanguageModel(_ name: String) throws {
        guard let (path, options) = pendingLanguageModels[name] else { return }
        Self.setupLock.lock()
        defer { Self.setupLock.unlock() }
        stopHearing()   // as in addGrammar
        let started = Date()
        guard Self.withSearchOptions(options, in: config, { ps_set_lm_file(decoder, name, path) }) == 0 else {
            throw SpeechError.recognizerUnavailable("pocketsphinx could not load the language model \(path)")
        }
        pendingLanguageModels[name] = nil
        logger.debug("language model loaded", metadata: ["seconds": "\(Date().timeIntervalSince(started))"])
    }

    /// Whether the dictionary (or the extra words) has a pronunciation for `word`.
    public func canPronounce(_ word: String) -> Bool { pronunciation(of: word) != nil }

    /// The phones the decoder uses for `word` (its first pronunciation), e.g. "S IH K S"; nil when
    /// neither the dictionary nor the extra words have it.
    /// A word the configuration's `pronounce` spells is added to the dictionary here.
    public func pronunciation(of word: String) -> String? {
        if let phones = ps_lookup_word(decoder, word) {
            defer { free(phones) }
            return String(cString: phones)
        }
        // update = 0: searches built later see the word; the current one does not need it.
        guard let spelled = configuration.pronounce?(word), ps_add_word(decoder, word, spelled, 0) >= 0 else { return nil }
        return spelled
    }

    /// True when the text, after blanks and comments, begins with "#JSGF".
    static func startsWithJSGFHeader(_ source: String) -> Bool {
        var rest = Substring(source)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("//") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*") {
                guard let end = rest.range(of: "*/") else { return false }
                rest = rest[end.upperBound...]
            } else {
                return rest.hasPrefix("#JSGF")
            }
        }
    }

    /// Chooses the grammar for the next utterance. If an utterance is in progress (speech has
    /// been heard and has not ended), it keeps its grammar and this one applies afterwards.
    public func selectGrammar(_ name: String) throws {
        guard grammarNames.contains(name) else { throw SpeechError.unknownGrammar(name) }
        try loadLanguageModel(name)
        if endDetector.started && speechSeen {
            pendingGrammar = name == activeGrammar ? nil : name
            return
        }
        // Only silence so far, if anything: the new search applies right away.
        pendingGrammar = name
        applyPendingGrammar()
    }

    private func applyPendingGrammar() {
        guard let name = pendingGrammar else { return }
        pendingGrammar = nil
        guard name != activeGrammar else { return }
        // Only names it has get here (selectGrammar); the decoder switches to it for the next decode.
        activeGrammar = name
    }

    /// Noise-only audio put before and after a recording: pocketsphinx's voice-activity detector
    /// calibrates on the first frames and needs trailing non-speech to close an utterance, and
    /// tightly trimmed recordings give it neither (measured on the FSDD digits: +2-3 % for
    /// `decode`, +10 % for `run`). A stream's utterance has the lead-in only: it ends in silence.
    static let leadIn = 0.25, tail = 0.5

    /// Decodes one whole utterance (samples at `configuration.sampleRate`, already noise-floored)
    /// with the current grammar, all of it in one call (with the running cepstral mean: see
    /// `hearsUtterance`). A little noise is padded on both ends (see `leadIn`). Anything in
    /// progress from `process` is discarded.
    public func decode(_ samples: [Int16]) -> RecognitionResult {
        reset()
        let audio = PCMAudio(samples: samples, sampleRate: configuration.sampleRate)
        return decodeWhole(Resampler.scaleFrequencies(of: audio, by: configuration.frequencyScale).samples)
    }

    /// An utterance `other` heard in its stream (its `audio`, kept by `keepsAudio`), heard again
    /// whole by this recognizer with the grammar it was heard with: for a listener that learned
    /// from that utterance that the room calls for this one. Its endpoint and signal-to-noise stay
    /// the stream's. Nil when no audio was kept, or `other` hears at another rate or scale.
    public func hearAgain(_ heard: RecognitionResult, from other: SpeechRecognizer) -> RecognitionResult? {
        guard !heard.audio.isEmpty, other.configuration.sampleRate == configuration.sampleRate,
              other.configuration.frequencyScale == configuration.frequencyScale else { return nil }
        let started = Date()
        reset()
        guard (try? selectGrammar(heard.grammar)) != nil else { return nil }
        // The kept audio starts with the other's lead-in; this decode puts its own.
        let lead = Int(Self.leadIn * Double(configuration.sampleRate))
        var result = decodeWhole(Array(heard.audio.dropFirst(lead)), leadIn: max(0, heard.paddingBeforeSound - lead))
        framesHeard += Int(ps_get_n_frames(decoder))
        result.endpoint = heard.endpoint
        result.signalToNoise = heard.signalToNoise
        result.behind = heard.behind
        result.decodingTime = heard.decodingTime + Date().timeIntervalSince(started)
        return result
    }

    /// The whole-utterance decode itself, with the grammar in force.
    /// - Parameter hearingOtherWords: false: the other words' decoder does not hear it, and the
    ///   result has no `otherWords`.
    /// - Parameter leadIn: how many of `samples` are a recording's lead-in, not its sound.
    /// - Parameter room: what the decoders hear before it in place of the lead-in, where that
    ///   is the room's noise (`decoderLeadIn`); the audio kept has the lead-in all the same.
    private func decodeWhole(_ samples: [Int16], leadIn: Int = 0, hearingOtherWords: Bool = true,
                             room: [Int16]? = nil) -> RecognitionResult {
        learnPaddingLevel(from: samples)
        let padding = paddedLeadIn
        let before = room ?? padding
        startHearing(otherWords: hearingOtherWords)
        // One call: full_utt = 1 means "this block is the entire utterance".
        let heard = before + samples + paddedTail
        heard.withUnsafeBufferPointer { hear($0, wholeUtterance: true) }
        var result = endUtterance(heard: heard, soundFrom: before.count + leadIn)
        if configuration.keepsAudio { (result.audio, result.paddingBeforeSound) = (padding + samples + paddedTail, padding.count + leadIn) }
        return result
    }

    /// What the decoders hear before an utterance's pre-roll. In a noisy room, the room itself
    /// as it sounded just before (`roomBeforeUtterance`): the noise removal (-remove_noise)
    /// learns the noise from what it hears, and after the quiet lead-in and the pre-roll's half
    /// second it had barely learned it when the words came. A "yes" said in pink noise 10 dB
    /// under it fitted -0.1 so, +16.7 with a second of the room before it; the 340 yes/no
    /// answers in that noise were heard right 267 -> 279 times, with the recordings padded with
    /// their room too (`bench recognition --noise pink --snr 10 --noise-around 1`). Else the
    /// lead-in a whole decode has (`paddedLeadIn`).
    private var decoderLeadIn: [Int16] { roomHeardBefore ?? paddedLeadIn }

    /// The room a noisy room's decoders hear before an utterance (`decoderLeadIn`); nil in a
    /// quiet room, or before any was heard.
    private var roomHeardBefore: [Int16]? {
        configuration.background == .noisy && !roomBeforeUtterance.isEmpty ? roomBeforeUtterance : nil
    }

    /// How much of the room before an utterance's pre-roll a noisy room's decoders hear
    /// (`decoderLeadIn`), in seconds.
    static let roomLeadIn = 1.0

    /// Keeps the audio heard outside speech that leaves the pre-roll, up to `roomLeadIn`.
    private func keepRoom(_ samples: ArraySlice<Int16>) {
        guard configuration.background == .noisy else { return }
        roomBeforeUtterance.append(contentsOf: samples)
        let most = Int(Self.roomLeadIn * Double(configuration.sampleRate))
        if roomBeforeUtterance.count > most { roomBeforeUtterance.removeFirst(roomBeforeUtterance.count - most) }
    }

    /// Hears what comes next as a session's first words: the cepstral mean learned from the
    /// utterances so far is forgotten (the decoders' is put back as it was when they were made),
    /// and the next ones are decoded whole again (`framesToLearnTheMean`), against a background
    /// not heard yet. For `bench recognition --first-of-session` and `bench loop`'s sessions.
    ///
    /// - Parameter startingMean: a mean learned in an earlier session (`learnedMean`), of the same
    ///   voice through the same microphone: the session starts from it, and its first utterances
    ///   are heard as they stream in like all the others. One of another size is ignored.
    public func beginSession(startingMean: [Float]? = nil) {
        reset()
        roomBeforeUtterance = []
        // A new session makes its own noisy room's recognizer, from the mean kept for it.
        overNoise = nil
        heardOverNoise = nil
        noiseLeftIn?.beginSession()
        framesHeard = 0
        // Nor does it know the room the last one heard: a quiet session's first words, after a
        // noisy one, measured 7.9 dB above its background, where a new recognizer measured 36.5.
        background = BackgroundLevel()
        if initialMeans.count == listeners.count {
            for (listener, state) in zip(listeners, initialMeans) { carevoice_cmn_state_restore(listener, state) }
        }
        guard let startingMean, startingMean.count == Self.cepstrumSize else { return }
        for listener in listeners { _ = carevoice_cmn_mean_set(listener, startingMean, Int32(startingMean.count)) }
        framesHeard = Self.framesToLearnTheMean
    }

    /// The cepstral mean learned from this session's voice, once it has heard
    /// `framesToLearnTheMean` frames of speech (nil before): where a later session with the same
    /// microphone may start (`beginSession(startingMean:)`).
    public var learnedMean: [Float]? {
        guard framesHeard >= Self.framesToLearnTheMean else { return nil }
        return cepstralMean
    }

    /// The most HMMs a frame the grammars' search and the other words' keep, as their decoders
    /// were made (pocketsphinx's -maxhmmpf; -1: no limit); nil without other words.
    var mostHMMsPerFrame: (grammars: Int, otherWords: Int?) {
        (cmd_ln_int_r(config, "-maxhmmpf"), otherWordsConfig.map { cmd_ln_int_r($0, "-maxhmmpf") })
    }

    /// Cepstral coefficients per frame in the acoustic model's features (-ceplen).
    static let cepstrumSize = 13

    /// The lead-in (`leadIn`): noise at `paddingLevel`.
    private var paddedLeadIn: [Int16] {
        var lead = [Int16](repeating: 0, count: Int(Self.leadIn * Double(configuration.sampleRate)))
        NoiseFloor.apply(to: &lead, seed: 1, level: paddingLevel)
        return lead
    }

    /// The tail (`tail`): noise at `paddingLevel`.
    private var paddedTail: [Int16] {
        var tail = [Int16](repeating: 0, count: Int(Self.tail * Double(configuration.sampleRate)))
        NoiseFloor.apply(to: &tail, seed: 2, level: paddingLevel)
        return tail
    }

    /// The noise put around an utterance (lead-in, tail) is `NoiseFloor.paddingBelowSpeech`
    /// under the speech last heard: how loud a person speaks into their microphone varies little
    /// from one utterance to the next.
    private func learnPaddingLevel(from samples: [Int16]) {
        let audio = PCMAudio(samples: samples, sampleRate: configuration.sampleRate)
        paddingLevel = NoiseFloor.level(under: audio, by: NoiseFloor.paddingBelowSpeech)
    }

    /// pocketsphinx's feature frames per second (its -frate, left at the default).
    static let framesPerSecond = 100.0
    /// pocketsphinx's -vad_postspeech when not set: half a second.
    static let defaultHangoverFrames = 50

    /// The search name of the phone loop; no grammar may have it.
    static let phoneLoop = "_phone_loop"
    /// The phones of Debian's en-us acoustic model (CMU's set, without silence).
    static let modelPhones = ["AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G", "HH",
                              "IH", "IY", "JH", "K", "L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH", "T", "TH",
                              "UH", "UW", "V", "W", "Y", "Z", "ZH"]
    /// The loop's word for a phone: no dictionary word has an underscore.
    static func phoneWord(_ phone: String) -> String { "ph_" + phone.lowercased() }
    /// The loop's beams. pocketsphinx's allphone search took 2-20 s per utterance here; this
    /// grammar of one-phone words about 0.2-0.5 s for 3 s of audio (half the grammar's decode).
    static let phoneLoopOptions: [String: Double] = ["-beam": 1e-10, "-pbeam": 1e-10, "-wbeam": 1e-10]

    /// The acoustic score of the best path a decoder just decoded (language scores and insertion
    /// penalties left out, so that grammars and the phone loop compare fairly), and the frames its
    /// words (not silence or fillers) cover.
    private static func segments(_ decoder: OpaquePointer) -> (acousticScore: Int, wordFrames: Int) {
        var score = 0, frames = 0
        var segment = ps_seg_iter(decoder)
        while let current = segment {
            var acoustic: Int32 = 0, language: Int32 = 0, backoff: Int32 = 0
            _ = ps_seg_prob(current, &acoustic, &language, &backoff)
            score += Int(acoustic)
            let word = ps_seg_word(current).map { String(cString: $0) } ?? ""
            if !word.hasPrefix("<"), !word.hasPrefix("[") {
                var start: Int32 = 0, end: Int32 = 0
                ps_seg_frames(current, &start, &end)
                frames += Int(end - start + 1)
            }
            segment = ps_seg_next(current)
        }
        return (score, frames)
    }

    /// `RecognitionResult.loudnessSwing`: how much the loudness of `audio` varies where it is
    /// loud, in dB. Its 10 ms frames are pre-emphasized as the decoder's front end does (so the
    /// slow rumble of a pink noise does not count as a swing); the loud stretch runs from the
    /// first frame within `loudRangeDB` of the loudest to the last; and the swing is how far the
    /// 90th percentile of the stretch's frame powers is above the 10th. Nil when the stretch is
    /// shorter than `minimumSwingFrames`, or the audio silent.
    static func loudnessSwing(of audio: [Int16], samplesPerFrame: Int) -> Double? {
        guard let stretch = loudStretch(of: audio, samplesPerFrame: samplesPerFrame),
              stretch.count >= minimumSwingFrames else { return nil }
        // + 1: digital silence has no logarithm.
        let sorted = stretch.map { $0 + 1 }.sorted()
        return 10 * log10(sorted[sorted.count * 9 / 10] / sorted[sorted.count / 10])
    }

    /// `RecognitionResult.loudSeconds`: how long the loud stretch of `audio` (`loudnessSwing`)
    /// lasted, in seconds, frames of `samplesPerFrame` being 10 ms. Nil when the audio is silent.
    static func loudSeconds(of audio: [Int16], samplesPerFrame: Int) -> Double? {
        loudStretch(of: audio, samplesPerFrame: samplesPerFrame).map { Double($0.count) / framesPerSecond }
    }

    /// The powers of the loud stretch's frames (`loudnessSwing`); nil when the audio is silent.
    private static func loudStretch(of audio: [Int16], samplesPerFrame: Int) -> ArraySlice<Double>? {
        guard samplesPerFrame > 0 else { return nil }
        var powers: [Double] = []
        var previous = 0.0, start = 0
        while start + samplesPerFrame <= audio.count {
            var sum = 0.0
            for sample in audio[start..<(start + samplesPerFrame)] {
                let emphasized = Double(sample) - preEmphasis * previous
                previous = Double(sample)
                sum += emphasized * emphasized
            }
            powers.append(sum / Double(samplesPerFrame))
            start += samplesPerFrame
        }
        guard let loudest = powers.max(), loudest > 0 else { return nil }
        let loud = loudest * pow(10, -loudRangeDB / 10)
        guard let first = powers.firstIndex(where: { $0 >= loud }), let last = powers.lastIndex(where: { $0 >= loud }) else { return nil }
        return powers[first...last]
    }

    /// pocketsphinx's -alpha.
    static let preEmphasis = 0.97
    /// Frames this far under the loudest, or nearer, are the loud stretch: a word's quiet sounds
    /// are within it, the near-silence before a noise begins is not.
    static let loudRangeDB = 10.0

    /// A loud stretch shorter than this (100 ms) has no swing worth measuring.
    static let minimumSwingFrames = 10

    /// Audio used to calibrate the voice-activity detector's noise estimate at the start of a
    /// stream. The detector seeds its estimate from a single frame, so on a fresh decoder it
    /// reports ~0.9 s of "speech" in pure noise; running the first half second through once
    /// (and discarding the result) before decoding it for real removes that phantom utterance.
    static let calibration = 0.5

    /// Audio kept from before the voice-activity detector reports speech: it reports it only
    /// after 0.1-0.3 s of it, and a word's first sound must not be cut off.
    static let preRoll = 0.5

    /// The stream's audio before an utterance that a recognizer made during it needs to hear it
    /// from its start: its calibration, then the pre-roll (`MicrophoneListener`'s hand-over).
    public static var audioBeforeUtterance: Double { calibration + preRoll }

    /// Streaming: feeds a chunk of audio (at `configuration.sampleRate`) and returns the utterances
    /// that ended in it. Utterances are delimited by pocketsphinx's voice-activity detector: one
    /// ends when it stops reporting speech after having reported it (about 0.5 s after the last
    /// word), or sooner when the words so far are a whole sentence that cannot go on
    /// (`endsEarly`). Chunks are fed in blocks (`blockSeconds`, 10 ms), so endpoints do not depend
    /// on chunk size and are found within a block. The first 0.5 s a new recognizer hears is held
    /// back until it can calibrate (see `calibration`).
    ///
    /// The decoders search an utterance as it streams in, from `preRoll` before the detector
    /// heard speech, with the lead-in a whole decode has, so that its result is ready as soon as
    /// its end is found. `carevoice bench recognition` on a synthetic corpus of 159 recordings,
    /// release build: the search closed in a median 3 ms (p95 4 ms) after the end, where decoding
    /// the whole utterance then took 407 ms (p95 647 ms); 126 right where 119 were.
    public func process(_ chunk: [Int16]) -> [RecognitionResult] {
        let chunk = scaler.process(chunk)
        guard calibrated else {
            calibrationBuffer += chunk
            guard calibrationBuffer.count >= Int(Self.calibration * Double(configuration.sampleRate)) else { return [] }
            return calibrate()
        }
        return feed(chunk)
    }

    /// Runs the held-back audio through a throw-away utterance, then decodes it for real.
    private func calibrate() -> [RecognitionResult] {
        let audio = calibrationBuffer
        calibrationBuffer = []
        calibrated = true
        for detector in detectors {
            detector.start()
            audio.withUnsafeBufferPointer { _ = detector.hearsSpeech($0) }
            detector.end()
        }
        return feed(audio)
    }

    /// The audio fed to the detectors and decoders at a time, in seconds: one feature frame's
    /// step, so that the end of speech is found at the frame where the detector hears it. In
    /// 20 ms blocks it was found a median 4 ms later (`bench loop --count 100 --seed 5`, end of
    /// speech to the reply: median 242 ms, p95 260; in 10 ms blocks 239 and 251).
    public static let blockSeconds = 0.01

    /// Samples in a block (`blockSeconds`) at `sampleRate`.
    public static func blockSamples(_ sampleRate: Int) -> Int { max(1, Int((Double(sampleRate) * blockSeconds).rounded())) }

    private func feed(_ chunk: [Int16]) -> [RecognitionResult] {
        var results: [RecognitionResult] = []
        let step = Self.blockSamples(configuration.sampleRate)
        chunk.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let block = UnsafeBufferPointer(rebasing: buffer[offset..<min(offset + step, buffer.count)])
                if !endDetector.started {
                    applyPendingGrammar()
                    detectors.forEach { $0.start() }
                    speechSeen = false
                }
                let inSpeech = endDetector.hearsSpeech(block)
                let pausing = !earlyEndDetector.hearsSpeech(block)
                let pausingBriefly = shortestEndDetector.map { !$0.hearsSpeech(block) } ?? pausing
                let pausingLonger = longerEndDetector.map { !$0.hearsSpeech(block) } ?? pausing
                samplesHeard += block.count
                utteranceAudio.append(contentsOf: block)
                let isPadding = paddingToCome > 0
                if let sound = soundBeforeTail {
                    tailInUtterance += block.count - min(block.count, max(0, sound))
                    soundBeforeTail = sound - block.count
                }
                // Counted while the utterance's audio is all lead-in from its start.
                if leadInInUtterance == utteranceAudio.count - block.count { leadInInUtterance += min(block.count, paddingToCome) }
                paddingToCome = max(0, paddingToCome - block.count)
                if speechSeen {
                    hear(block)
                    hearOverNoise(block)
                    if noiseLeftInHears { noiseLeftIn?.hear(Array(block), arriving: Double(block.count) / Double(configuration.sampleRate)) }
                    if !inSpeech || (pausingBriefly && endsEarly(afterLongerPause: pausing, afterLongestPause: pausingLonger)) { results.append(endUtteranceInStream()) }
                } else if inSpeech {
                    speechSeen = true
                    startHearing()
                    utteranceLeadIn = decoderLeadIn
                    (utteranceLeadIn + utteranceAudio).withUnsafeBufferPointer { hear($0) }
                    listenOverNoiseFromTheStart(arriving: Double(block.count) / Double(configuration.sampleRate))
                    listenForCallsWithNoiseLeftIn(arriving: Double(block.count) / Double(configuration.sampleRate))
                } else {
                    if !isPadding { background.hear(block) }
                    let keep = Int(Self.preRoll * Double(configuration.sampleRate))
                    if utteranceAudio.count > keep {
                        leadInInUtterance = max(0, leadInInUtterance - (utteranceAudio.count - keep))
                        tailInUtterance = min(tailInUtterance, keep)
                        keepRoom(utteranceAudio.prefix(utteranceAudio.count - keep))
                        utteranceAudio.removeFirst(utteranceAudio.count - keep)
                    }
                }
                offset += block.count
            }
        }
        return results
    }

    /// Whether the words heard so far in this utterance are a whole sentence of its grammar that
    /// no sentence goes on from (a reading with its tag), or that can be answered without waiting
    /// for more (`Configuration.answersAtOnce`), so that a short pause
    /// (`Configuration.earlyEndSilence`; `shortestEndSilence` for the sentences it is for)
    /// ends it; in noise, the sentences that wait longer there after
    /// `longerEndSilenceOverNoise`. Any other sentence that can go on ("glucose twenty", which
    /// "one" may follow) waits the whole hangover, as does anything else. `afterLongerPause`:
    /// the pause has lasted `earlyEndSilence`, not only `shortestEndSilence`;
    /// `afterLongestPause`: it has lasted `longerEndSilenceOverNoise`.
    private func endsEarly(afterLongerPause: Bool, afterLongestPause: Bool) -> Bool {
        guard hearsUtterance else { return false }
        // Where the noisy room's recognizer hears the utterance beside this one, its words are
        // the ones used, and its fit judges them: this one's, over noise it does not take out,
        // were too poor to end a reading early (`bench loop --noise pink --snr 10`).
        if overNoiseJudges, let overNoise {
            let waitStarted = Date()
            defer { waitedBeside += Date().timeIntervalSince(waitStarted) }
            // The pause as this recognizer's detectors heard it, in seconds as said.
            let pause = afterLongestPause ? configuration.longerEndSilenceOverNoise ?? configuration.earlyEndSilence
                : afterLongerPause ? configuration.earlyEndSilence : configuration.shortestEndSilence ?? configuration.earlyEndSilence
            if let ends = overNoise.endsEarly(afterLongerPause: afterLongerPause, afterLongestPause: afterLongestPause, pause: pause) {
                return ends
            }
        }
        guard let shape = grammarShapes[activeGrammar] else { return false }
        var score: Int32 = 0
        guard let hypothesis = ps_get_hyp(decoder, &score).map({ String(cString: $0) }) else { return false }
        func ends(answersAtOnce: ((String) -> Bool)?, atShortestPause: ((String) -> Bool)?) -> Bool {
            Self.sentenceCanEnd(hypothesis, standing: shape.standing(of:), answersAtOnce: answersAtOnce)
                && (afterLongerPause || atShortestPause?(hypothesis) == true)
        }
        guard ends(answersAtOnce: configuration.answersAtOnce, atShortestPause: configuration.endsAtShortestPause) else { return false }
        // Measured only here, where the quiet room's rules would end it: the pause may be one
        // the noise made inside a word.
        if let overNoise = configuration.answersAtOnceOverNoise, utteranceSoundsNoisy,
           !ends(answersAtOnce: overNoise, atShortestPause: nil) { return false }
        if !afterLongestPause, configuration.waitsLongerOverNoise?(hypothesis) == true,
           configuration.background == .noisy || utteranceSoundsNoisy { return false }
        guard let minimum = configuration.earlyEndMinimumFit else { return true }
        return (fitSoFar() ?? -.infinity) >= minimum
    }

    /// The utterance so far is less than `AudioBackground.noisyBelowDB` above the background
    /// heard before it, as `RecognitionResult.signalToNoise` will measure it, where enough of
    /// that was heard to tell (`BackgroundLevel.isKnown`); else above its own quietest moments
    /// since speech was heard, as a recording is judged (`AudioBackground.signalToNoise`), once
    /// that has lasted long enough to have some (the pre-roll before it may be a recording's
    /// quiet lead-in). A stream's first words, said as soon as it listens (after the greeting,
    /// which it does not hear), have little heard before them: judged quiet, the first reading
    /// said into a noisy room was ended at a pause the noise made ("my blood sugar is three point
    /// two millimole" | "reading two before dinner", `bench loop --seed 7 --noise pink --snr 10`).
    private var utteranceSoundsNoisy: Bool {
        let snr = background.isKnown ? background.signalToNoise(of: utteranceAudio, sampleRate: configuration.sampleRate)
            : utteranceAgainstItsQuietestMoments
        return snr.map { $0 < AudioBackground.noisyBelowDB } ?? false
    }

    /// The utterance so far, after the pre-roll before the detector heard it and without the
    /// padding after a recording (`tailInUtterance`), measured against its own quietest moments
    /// (`AudioBackground.signalToNoise`); nil while it is too short. The padding is 40 dB under
    /// the speech: with it, readings said in pink noise 11 dB under them measured 34.
    private var utteranceAgainstItsQuietestMoments: Double? {
        let speech = utteranceAudio.dropFirst(Int(Self.preRoll * Double(configuration.sampleRate))).dropLast(tailInUtterance)
        return AudioBackground.signalToNoise(PCMAudio(samples: Array(speech), sampleRate: configuration.sampleRate))
    }

    /// The signal-to-noise of the utterance that ends (`RecognitionResult.signalToNoise`), which
    /// tells the room (`AudioBackground.following`): above what was heard around it, whatever
    /// that was, so that a noise that starts just before the words is heard so. Where too little
    /// was heard before it to know the room (`BackgroundLevel.isKnown`), what was heard is mostly
    /// the start of the words, which the detector hears 0.1-0.3 s late: a quiet room's first
    /// reading, said as soon as the stream listened, measured a few dB and was heard again as a
    /// noisy room's, with the noise taken out of clean speech. There it is also measured against
    /// its own quietest moments, once it is long enough to have some, and sounds noisy only if
    /// both say so.
    private var endedSignalToNoise: Double? {
        let aboveWhatWasHeard = background.signalToNoise(of: utteranceAudio, sampleRate: configuration.sampleRate)
        guard let aboveWhatWasHeard, !background.isKnown, let own = utteranceAgainstItsQuietestMoments else {
            return aboveWhatWasHeard
        }
        return max(aboveWhatWasHeard, own)
    }

    /// The utterance that ends measured both ways, above what was heard around it
    /// (`endedSignalToNoise`) and above its own quietest moments, the higher: whether it was said
    /// clearly enough over the room that a noisy room's means would mishear it
    /// (`Configuration.noiseLeftInAnswersFromDB`). Said in a noisy room, both are low: its own
    /// pauses, and the one that ended it, are the room's noise. A recording's tightly cut clean
    /// utterances, heard one after another, have little but their own starts heard around them
    /// (the detector hears speech late): ec45's measured 6-9 dB above that.
    private func clearestSignalToNoise(aboveHeard: Double?) -> Double? {
        [aboveHeard, utteranceAgainstItsQuietestMoments].compactMap { $0 }.max()
    }

    /// Hands `overNoise` the block where it hears the utterance beside this one; and, every
    /// `overNoiseCheck` of the utterance until it sounds noisy, measures it: once it does,
    /// `overNoise` judges it (`overNoiseJudges`), starting on the utterance so far if it was
    /// not hearing it yet (made first, if it is not made yet).
    private func hearOverNoise(_ block: UnsafeBufferPointer<Int16>) {
        let seconds = Double(block.count) / Double(configuration.sampleRate)
        if overNoiseHears { overNoise?.hear(Array(block), arriving: seconds) }
        // The cheap checks before `utteranceSoundsNoisy`, which measures the utterance so far.
        guard !overNoiseJudges, makeOverNoise != nil, configuration.background == .quiet, hearsUtterance,
              utteranceAudio.count % Int(Self.overNoiseCheck * Double(configuration.sampleRate)) < block.count,
              utteranceSoundsNoisy, let overNoise = hearingOverNoise() else { return }
        if !overNoiseHears {
            overNoise.start(grammar: activeGrammar, heard: utteranceAudio, leadIn: leadInInUtterance, paddingLevel: paddingLevel, role: .takingOver, arriving: seconds)
            overNoiseHears = true
        }
        overNoiseJudges = true
        stopHearingOtherWords()
    }

    /// Has `overNoise`, where it was made ahead (`prepareOverNoise`), hear the utterance that
    /// starts from its start, in case it sounds noisy once measured, where the room it is said in
    /// is not known yet (`BackgroundLevel.isKnown`): then measuring it takes its first second
    /// (`AudioBackground.shortestMeasured`), and catching up with that second took the noisy
    /// room's recognizer 0.8-1.5 s (`bench loop --noise pink --snr 10`), which the reply to a
    /// short reading waited for. In a quiet room it is forgotten when the utterance ends
    /// (`forgetBeside`).
    private func listenOverNoiseFromTheStart(arriving seconds: Double) {
        guard let overNoise, makeOverNoise != nil, configuration.background == .quiet, hearsUtterance,
              !background.isKnown else { return }
        overNoise.start(grammar: activeGrammar, heard: utteranceAudio, leadIn: leadInInUtterance, paddingLevel: paddingLevel, role: .takingOver, arriving: seconds)
        overNoiseHears = true
    }

    /// `overNoise`, set up first if it is not yet; nil where this recognizer has none to make.
    private func hearingOverNoise() -> BesideHearing? {
        guard let makeOverNoise, configuration.background == .quiet else { return nil }
        if overNoise == nil {
            let (rate, scale) = (configuration.sampleRate, configuration.frequencyScale)
            overNoise = BesideHearing(make: makeOverNoise, usable: {
                $0.configuration.sampleRate == rate && $0.configuration.frequencyScale == scale
            })
        }
        return overNoise
    }

    /// Has the recognizer `makeOverNoise` makes made now, on its own thread, before any
    /// utterance sounds noisy, so that the first one that does is heard beside from its start
    /// instead of waiting for the making. For a listener starting to hear a quiet room
    /// (`BackgroundFollower.prepare`): made while the greeting or a reply is said, it costs a
    /// second recognizer's memory in a room that may stay quiet.
    public func prepareOverNoise() {
        hearingOverNoise()?.prepare(startingMean: nil)
    }

    /// Has `noiseLeftIn` hear the utterance that starts, from its audio so far (made first, if
    /// it is not made yet), where this recognizer is a noisy room's that has one to make.
    private func listenForCallsWithNoiseLeftIn(arriving seconds: Double) {
        guard hearsUtterance, let noiseLeftIn = hearingWithNoiseLeftIn() else { return }
        noiseLeftIn.start(grammar: activeGrammar, heard: utteranceAudio, leadIn: leadInInUtterance, paddingLevel: paddingLevel, role: .listeningForCalls,
                           arriving: seconds)
        noiseLeftInHears = true
    }

    /// `noiseLeftIn`, set up first if it is not yet; nil where this recognizer has none to make.
    private func hearingWithNoiseLeftIn() -> BesideHearing? {
        guard let makeNoiseLeftIn, configuration.background == .noisy, configuration.isCallForHelp != nil else { return nil }
        if noiseLeftIn == nil {
            let (rate, scale) = (configuration.sampleRate, configuration.frequencyScale)
            noiseLeftIn = BesideHearing(make: makeNoiseLeftIn, usable: {
                $0.configuration.sampleRate == rate && $0.configuration.frequencyScale == scale && $0.configuration.background == .quiet
            })
        }
        return noiseLeftIn
    }

    /// Has the recognizer `makeNoiseLeftIn` makes made now, on its own thread, where this one is
    /// to hear with one beside: about a second's work, which the first utterance would otherwise
    /// wait for. For a listener about to hear a noisy room with this one, instead of `quiet`,
    /// which heard that room with the noise left in: that one starts from its cepstral mean.
    /// From the model's own, the first answer heard in the noisy room was far from it, and heard
    /// again as a whole: its reply waited 150-200 ms more (`bench loop --noise pink --snr 10`).
    public func prepareNoiseLeftIn(meanFrom quiet: SpeechRecognizer) {
        hearingWithNoiseLeftIn()?.prepare(startingMean: quiet.cepstralMean)
    }

    /// Whether these words are a call for help to answer (`Configuration.isCallForHelp`).
    public func hearsCall(_ result: RecognitionResult) -> Bool {
        configuration.isCallForHelp?(result) == true
    }

    /// Of two hearings of one utterance, the words to answer: `preferred`'s, unless only
    /// `other`'s are a call for help (`hearsCall`). A false alarm costs one spoken question; a
    /// missed call can cost a life.
    public func heardFirst(_ preferred: RecognitionResult, other: RecognitionResult) -> RecognitionResult {
        !hearsCall(preferred) && hearsCall(other) ? other : preferred
    }

    /// Stops the other words' decoder on the utterance in progress, once the noisy room's
    /// recognizer hears it beside this one: where the room is noisy, that one's words, and its
    /// own other-words verdict, are the ones used. This one's is the costliest of its decoders:
    /// on a reading said over pink noise 10 dB under it, 4921 HMMs a frame against the grammar's
    /// 1700 and the phone loop's 387 (pocketsphinx's log), and with it the listening was 8.5 s
    /// behind the 3.7 s utterance when it ended, on a machine three times slower than the one
    /// the code was first measured on (`BackgroundFollowerTests`). Where the room turns out quiet
    /// after all, the utterance is heard again as a whole.
    private func stopHearingOtherWords() {
        guard hearsUtterance, hearsOtherWords, let otherWordsDecoder else { return }
        ps_end_utt(otherWordsDecoder)
        hearing.removeAll { $0 == otherWordsDecoder }
        hearsOtherWords = false
        otherWordsCutShort = true
    }

    /// Starts hearing an utterance another recognizer's stream hears: its grammar and its audio
    /// so far (as that one heard it: scaled, with a noise floor). To take over, the running
    /// cepstral mean is learned afresh from it, so that the utterances after it start from its
    /// own mean, as they do after it is heard again as a whole (`hearAgain`).
    func startBeside(grammar: String, heard audio: [Int16], leadIn: Int, paddingLevel: Double, role: BesideRole) -> Bool {
        reset()
        endedEarlyBeside = nil
        guard (try? selectGrammar(grammar)) != nil else { return false }
        self.paddingLevel = paddingLevel
        if role == .takingOver {
            letGoOfMeansBeforeTakingOver(restoringThem: false)
            meansBeforeTakingOver = listeners.compactMap { carevoice_cmn_state_save($0) }
            listeners.forEach { carevoice_cmn_learn_afresh($0) }
        }
        utteranceAudio = audio
        leadInInUtterance = leadIn
        startHearing(otherWords: role == .takingOver)
        (paddedLeadIn + audio).withUnsafeBufferPointer { hear($0) }
        return true
    }

    /// The next block of the utterance heard beside another recognizer (`startBeside`).
    func hearBeside(_ block: [Int16]) {
        utteranceAudio.append(contentsOf: block)
        block.withUnsafeBufferPointer { hear($0) }
    }

    /// Whether the words this recognizer has heard so far of the utterance it hears beside
    /// another (`startBeside`) end it at the pause that one's detectors hear (`endsEarly`).
    /// - Parameter pause: how long the pause has lasted, in seconds as said.
    func endsEarlyBeside(afterLongerPause: Bool, afterLongestPause: Bool, pause: Double) -> Bool {
        guard endsEarly(afterLongerPause: afterLongerPause, afterLongestPause: afterLongestPause) else { return false }
        endedEarlyBeside = pause
        return true
    }

    /// The pause an utterance ended early by these words (`endedEarlyBeside`) was heard with,
    /// heard again to the end detector's full hangover: the room's noise after the words.
    private var pauseHeardAgain: [Int16] {
        guard let pause = endedEarlyBeside else { return [] }
        let samplesPerSecond = Double(configuration.sampleRate)
        let heard = Array(utteranceAudio.suffix(Int(pause / configuration.frequencyScale * samplesPerSecond)))
        let hangover = Double(cmd_ln_int_r(config, "-vad_postspeech")) / Self.framesPerSecond
        let missing = Int(max(0, hangover - pause / configuration.frequencyScale) * samplesPerSecond)
        guard !heard.isEmpty, missing > 0 else { return [] }
        return (0..<missing).map { heard[$0 % heard.count] }
    }

    /// Ends the utterance heard beside another recognizer (`startBeside`): its search's result,
    /// or, where the utterance's own cepstral mean is far from the one it was heard with
    /// (`besideMeanTolerance`), the utterance heard again as a whole with its own.
    /// `wholeWithItsOwnMean`: heard again so in any case, for the words that fit better (clean
    /// speech after a noisy room's, `Configuration.noiseLeftInAnswersFromDB`).
    /// Where the noise is taken out, it ends with the tail a whole decode has: the noise removal
    /// (-remove_noise) goes on from one utterance's end to the next utterance, and without that
    /// tail the yes said after a reading heard beside fitted 9.7 points worse and was doubted
    /// (`BackgroundFollowerTests`). For the same reason an utterance these words ended at a short
    /// pause (`endsEarlyBeside`) first hears that pause again, to a full pause's length: ended
    /// short, that yes fitted 6.5 points worse.
    /// Where the noise is left in, the tail's quiet only pulls the
    /// running cepstral mean away from the room's: a quiet room's recognizer hearing 190 yes/no
    /// answers beside a noisy room's (`makeNoiseLeftIn`) took 15 of them for a call for help
    /// with it, 10 without.
    func endBeside(wholeWithItsOwnMean: Bool = false) -> RecognitionResult {
        if configuration.background == .noisy {
            hearBeside(pauseHeardAgain)
            paddedTail.withUnsafeBufferPointer { hear($0) }
        }
        endedEarlyBeside = nil
        letGoOfMeansBeforeTakingOver(restoringThem: false)
        let heardWith = cepstralMean
        var result = endUtterance(heard: paddedLeadIn + utteranceAudio, soundFrom: paddedLeadIn.count + leadInInUtterance)
        result.hearing = .asSaid
        framesHeard += Int(ps_get_n_frames(decoder))
        if wholeWithItsOwnMean {
            // Heard whole once from no mean at all, the decoders' mean is the utterance's own.
            // The words that fit better are kept: a short answer's own mean is a poor one ("yes
            // thanks" fitted -21 heard whole so, -16 as it was said).
            listeners.forEach { carevoice_cmn_learn_afresh($0) }
            _ = decodeWhole(utteranceAudio, leadIn: leadInInUtterance, hearingOtherWords: false)
            let whole = decodeWhole(utteranceAudio, leadIn: leadInInUtterance, hearingOtherWords: false)
            if (whole.grammarFit ?? -.infinity) > (result.grammarFit ?? -.infinity) { result = whole }
        } else if let heardWith, let own = cepstralMean, Self.isHeardAgain(ownMean: own, heardWith: heardWith) {
            // The other words are not heard again: their decoder is the slowest of the three
            // (0.66-1.2 s of a 1.1-1.6 s whole decode), and what it heard as the words were said
            // turned away as much unrelated speech (`bench loop --unrelated-first`).
            let otherWordsAsSaid = result.otherWords
            result = decodeWhole(utteranceAudio, leadIn: leadInInUtterance, hearingOtherWords: false)
            if !result.text.isEmpty { result.otherWords = otherWordsAsSaid }
        } else if configuration.keepsAudio {
            (result.audio, result.paddingBeforeSound) = (paddedLeadIn + utteranceAudio, paddedLeadIn.count + leadInInUtterance)
        }
        stopDetectors()
        return result
    }

    /// Forgets the utterance heard beside another recognizer (`startBeside`) without ending it,
    /// and, where it was heard to take over, the cepstral mean learned from it: the utterance
    /// is another recognizer's after all (a quiet room's), and the next one this one takes over
    /// starts from the mean it had.
    func forgetBeside() {
        reset()
        letGoOfMeansBeforeTakingOver(restoringThem: true)
    }

    /// Lets go of the cepstral means kept when an utterance began to be heard to take over
    /// (`meansBeforeTakingOver`), restoring them first if `restoringThem`.
    private func letGoOfMeansBeforeTakingOver(restoringThem: Bool) {
        if restoringThem, meansBeforeTakingOver.count == listeners.count {
            for (listener, state) in zip(listeners, meansBeforeTakingOver) { carevoice_cmn_state_restore(listener, state) }
        }
        meansBeforeTakingOver.forEach { carevoice_cmn_state_free($0) }
        meansBeforeTakingOver = []
    }

    /// How far (Euclidean, over the cepstrum) an utterance heard beside may be from its own
    /// cepstral mean before it is heard again as a whole. `bench loop --count 100 --seed 5
    /// --noise pink --snr 10`: where each session started from the last session's mean, whoever
    /// spoke, distances had quartiles 6.4, 8.3, 12.7; of the 8 readings heard wrong beside and
    /// right again, 5 were beyond 10 (and 2 of 3 the other way round). With each voice's own
    /// mean (`--mean-per-voice`, as a person's data directory keeps it) 3 in 100 were beyond 10.
    static let besideMeanTolerance: Float = 10

    /// Whether an utterance heard beside, whose own cepstral mean is `ownMean`, is heard again
    /// as a whole, having been heard with `heardWith` (`besideMeanTolerance`).
    static func isHeardAgain(ownMean: [Float], heardWith: [Float]) -> Bool {
        sqrt(zip(heardWith, ownMean).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)) > besideMeanTolerance
    }

    /// The cepstral mean the decoder subtracts now.
    var cepstralMean: [Float]? {
        var mean = [Float](repeating: 0, count: Self.cepstrumSize)
        return carevoice_cmn_mean_get(decoder, &mean, Int32(mean.count)) == Self.cepstrumSize ? mean : nil
    }

    /// The noisy room's recognizer `makeOverNoise` made, for the stream to go on with (this one
    /// keeps none), and what it heard of the utterance this one ended last, where it heard it
    /// beside this one (with this one's endpoint, signal-to-noise and wait); nil when none was made.
    public func takeOverNoise() -> (recognizer: SpeechRecognizer, lastUtterance: RecognitionResult?)? {
        defer {
            overNoise = nil
            overNoiseHears = false
            overNoiseJudges = false
            heardOverNoise = nil
        }
        return overNoise?.take().map { ($0, heardOverNoise) }
    }

    /// Whether the words heard so far, standing so in their grammar, are a sentence that may
    /// end at a short pause (`endsEarly`). Mid-utterance the search's best path need not end
    /// where a sentence may: in the pause after "five point five millimoles per litre" it had
    /// begun "on" (of "on an empty stomach"), which the final search, held to whole sentences,
    /// dropped. So a last word that only starts a longer sentence is not counted.
    static func sentenceCanEnd(_ words: String, standing: (String) -> GrammarShape.Standing,
                               answersAtOnce: ((String) -> Bool)?) -> Bool {
        func canEnd(_ words: String) -> Bool {
            switch standing(words) {
            case .complete(goesOn: false): return true
            case .complete(goesOn: true): return answersAtOnce?(words) == true
            case .partial, .outside: return false
            }
        }
        guard !canEnd(words) else { return true }
        let allButLast = words.split(separator: " ").dropLast().joined(separator: " ")
        return standing(words) == .partial && !allButLast.isEmpty && canEnd(allButLast)
    }

    /// `RecognitionResult.grammarFit` of the best paths so far, mid-utterance or at its end; nil
    /// when it is not measured, or no words have been heard yet.
    private func fitSoFar() -> Double? {
        guard let fitDecoder else { return nil }
        var score: Int32 = 0
        guard ps_get_hyp(fitDecoder, &score) != nil else { return nil }
        let grammar = Self.segments(decoder), loop = Self.segments(fitDecoder)
        guard grammar.wordFrames > 0 else { return nil }
        return Double(grammar.acousticScore - loop.acousticScore) / Double(grammar.wordFrames)
    }

    /// Starts an utterance in the decoders that hear it (`hearing`): the current grammar, the
    /// phone loop beside it, and the other words where they are heard (unless `otherWords` is false).
    private func startHearing(otherWords: Bool = true) {
        stopHearing()
        _ = ps_set_search(decoder, activeGrammar)
        if let fitDecoder { _ = ps_set_search(fitDecoder, Self.phoneLoop) }
        if let otherWordsDecoder { _ = ps_set_search(otherWordsDecoder, Self.otherWordsSearch) }
        hearing = [decoder] + [fitDecoder].compactMap { $0 }
        hearsOtherWords = otherWords && otherWordsDecoder != nil && configuration.otherWords?.grammar == activeGrammar
        otherWordsCutShort = false
        if hearsOtherWords, let otherWordsDecoder { hearing.append(otherWordsDecoder) }
        hearing.forEach { ps_start_utt($0) }
        hearsUtterance = true
    }

    /// Feeds the decoders. A stream is fed in blocks (`blockSamples`), however much comes
    /// at once: given the lead-in and pre-roll (0.75 s) in one call, pocketsphinx 0.8's streaming
    /// search lost words ("glucose six point five before breakfast" came out without its tag,
    /// or as nothing).
    /// Nothing is fed outside an utterance: after ps_end_utt, ps_process_raw takes no samples
    /// and loops for ever on them.
    private func hear(_ samples: UnsafeBufferPointer<Int16>, wholeUtterance: Bool = false) {
        guard hearsUtterance, !samples.isEmpty else { return }
        if wholeUtterance {
            // The decoders are independent: a whole utterance is heard by each on a core of its
            // own, and the reply waits for the slowest instead of for all of them in turn.
            let decoders = hearing
            DispatchQueue.concurrentPerform(iterations: decoders.count) { index in
                _ = ps_process_raw(decoders[index], samples.baseAddress, samples.count, 0, 1)
            }
            return
        }
        let step = Self.blockSamples(configuration.sampleRate)
        var offset = 0
        while offset < samples.count {
            let block = UnsafeBufferPointer(rebasing: samples[offset..<min(offset + step, samples.count)])
            for listener in hearing {
                _ = ps_process_raw(listener, block.baseAddress, block.count, 0, 0)
            }
            offset += block.count
        }
    }

    private func stopHearing() {
        guard hearsUtterance else { return }
        hearing.forEach { ps_end_utt($0) }
        hearing = []
        hearsUtterance = false
    }

    /// End of stream: ends and returns the utterance in progress, if speech was heard in it.
    public func finish() -> RecognitionResult? {
        defer { applyPendingGrammar() }
        // A stream shorter than the calibration period is decoded as it is.
        var ended: RecognitionResult?
        if !calibrated && !calibrationBuffer.isEmpty { ended = calibrate().last }
        guard endDetector.started else { return ended }
        if speechSeen { return endUtteranceInStream() }
        stopDetectors()
        return ended
    }

    /// Discards whatever is in progress (for instance while the assistant itself is speaking).
    public func reset() {
        calibrationBuffer = []
        scaler.reset()
        stopDetectors()
        applyPendingGrammar()
    }

    private func stopDetectors() {
        stopHearing()
        if overNoiseHears {
            overNoise?.reset()
            overNoiseHears = false
        }
        overNoiseJudges = false
        if noiseLeftInHears {
            noiseLeftIn?.reset()
            noiseLeftInHears = false
        }
        detectors.forEach { $0.end() }
        speechSeen = false
        utteranceAudio = []
        leadInInUtterance = 0
        tailInUtterance = 0
    }

    /// The utterance that just ended in the stream: its search finished, or, when it was not
    /// heard as it was said, decoded as a whole.
    private func endUtteranceInStream() -> RecognitionResult {
        let started = Date()
        // False when a search was built while it was said (`addGrammar`, a language model's
        // first use): the decoders stopped, and only its audio was kept.
        let heardAsSaid = hearsUtterance
        let signalToNoise = endedSignalToNoise
        // The noisy room's recognizer heard it beside this one, and the room it tells of is
        // noisy: that one's words are the ones used (`BackgroundFollower`), so this one's are not
        // worth hearing again. Where the room is not noisy after all, they go unused: that one is
        // reset with the detectors, not ended (which may hear it again as a whole).
        let waitStarted = Date()
        let beside = overNoiseHears && signalToNoise.map { configuration.background.following($0) == .noisy } == true
            ? overNoise?.end() : nil
        // The wait for that one is not this one's decoding: it is counted as how far that one
        // was behind (`BesideHearing`) and how long its ending took.
        let waited = Date().timeIntervalSince(waitStarted)
        waitedBeside += waited
        if beside != nil { overNoiseHears = false }
        let heardBetterBeside = beside != nil
        var result: RecognitionResult
        // Without the other words to its end (`stopHearingOtherWords`), this one's search is
        // ended only to give way to the beside words.
        let heardEnough = heardBetterBeside || !otherWordsCutShort
        if heardAsSaid && heardEnough && (framesHeard >= Self.framesToLearnTheMean || heardBetterBeside) {
            result = endUtterance(heard: utteranceLeadIn + utteranceAudio, soundFrom: utteranceLeadIn.count + leadInInUtterance)
            result.hearing = .asSaid
            framesHeard += Int(ps_get_n_frames(decoder))
            learnPaddingLevel(from: utteranceAudio)
            if configuration.keepsAudio { (result.audio, result.paddingBeforeSound) = (paddedLeadIn + utteranceAudio, paddedLeadIn.count + leadInInUtterance) }
        } else {
            // The first utterances are decoded again with a mean that now includes them: with the
            // generic mean, "血糖六点五早餐前", the first utterance of a Chinese session, was heard
            // as 血糖六点五毫克晚餐前.
            if heardAsSaid {
                stopHearing()
                framesHeard += Int(ps_get_n_frames(decoder))
            }
            result = decodeWhole(utteranceAudio, leadIn: leadInInUtterance, room: roomHeardBefore)
        }
        result.signalToNoise = signalToNoise
        result.endpoint = secondsHeard
        heardOverNoise = beside.map {
            var heard = $0.result
            heard.endpoint = result.endpoint
            heard.signalToNoise = result.signalToNoise
            heard.behind = $0.behind
            return heard
        }
        // Where this one heard no call, the reply waits for the words heard with the noise left in
        // too: until that one's thread has caught up and ended them (`BesideHearing`). Not the
        // wall-clock wait, which a recording fed faster than it was said would count in full.
        var waitedWithNoise = 0.0, readyWithNoise = 0.0
        if noiseLeftInHears {
            noiseLeftInHears = false
            // Said clearly over the room, it is answered with the words heard with the noise left
            // in (`Configuration.noiseLeftInAnswersFromDB`), heard whole with its own cepstral
            // mean: that one's, learned from the noisy room's speech, misheard clean speech.
            let answersWithNoiseLeftIn = configuration.noiseLeftInAnswersFromDB.map { from in
                clearestSignalToNoise(aboveHeard: signalToNoise).map { $0 >= from } ?? false
            } ?? false
            if hearsCall(result) && !answersWithNoiseLeftIn {
                noiseLeftIn?.reset()
            } else {
                let waitStarted = Date()
                let ended = noiseLeftIn?.end(wholeWithItsOwnMean: answersWithNoiseLeftIn)
                waitedWithNoise = Date().timeIntervalSince(waitStarted)
                waitedBeside += waitedWithNoise
                if let ended {
                    var withNoise = ended.result
                    withNoise.endpoint = result.endpoint
                    withNoise.signalToNoise = result.signalToNoise
                    readyWithNoise = ended.behind + ended.ending
                    if answersWithNoiseLeftIn {
                        // Its audio is the same sound: a reading confirmed so is learned from too.
                        (withNoise.audio, withNoise.paddingBeforeSound) = (result.audio, result.paddingBeforeSound)
                        result = heardFirst(withNoise, other: result)
                    } else {
                        result = heardFirst(result, other: withNoise)
                    }
                }
            }
        }
        stopDetectors()
        let decoding = Date().timeIntervalSince(started) - waited - waitedWithNoise
        result.decodingTime = max(decoding, readyWithNoise)
        heardOverNoise?.decodingTime = decoding + (beside?.ending ?? 0)
        return result
    }

    /// Ends the utterance the decoders hear and reads the grammar's result (and its fit).
    /// - Parameters:
    ///   - heard: the samples the decoders heard in it, for its loudness swing;
    ///   - soundFrom: where in them the sound given starts. The padding and lead-in before it
    ///     are left out of the swing: a hum 25-30 dB under a recording's speech steps up from its
    ///     lead-in's floor, and with those frames the noise alone swung 3-8 dB and was taken
    ///     for "help".
    private func endUtterance(heard: [Int16], soundFrom: Int) -> RecognitionResult {
        stopHearing()
        var score: Int32 = 0
        let hypothesis = ps_get_hyp(decoder, &score).map { String(cString: $0) } ?? ""
        let text = hypothesis.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // ps_get_prob returns a log posterior, but 0 (= probability 1) is also what a search returns
        // when it has no estimate, and the 5prealpha grammar (FSG) search always does that. So a raw
        // 0 is reported as "unavailable" (0), never as certainty.
        var confidence = 0.0
        let logPosterior = ps_get_prob(decoder)
        if !text.isEmpty, logPosterior != 0, let logmath = ps_get_logmath(decoder) {
            let p = logmath_exp(logmath, logPosterior)
            confidence = p.isFinite ? min(max(p, 0), 1) : 0
        }
        var speech = 0.0, cpu = 0.0, wall = 0.0
        ps_get_utt_time(decoder, &speech, &cpu, &wall)
        var result = RecognitionResult(text: text, score: score, confidence: confidence, audioDuration: speech, grammar: activeGrammar)
        result.heardOver = configuration.background
        if !text.isEmpty {
            let samplesPerFrame = configuration.sampleRate / Int(Self.framesPerSecond)
            let sound = Array(heard.dropFirst(soundFrom))
            result.loudnessSwing = Self.loudnessSwing(of: sound, samplesPerFrame: samplesPerFrame)
            // Heard scaled (`Configuration.frequencyScale`): counted in the time it took to say.
            result.loudSeconds = Self.loudSeconds(of: sound, samplesPerFrame: samplesPerFrame).map { $0 * configuration.frequencyScale }
        }
        // Free words fit any sound somehow: no fit for a language model's.
        if fitDecoder != nil, !text.isEmpty, !languageModelNames.contains(activeGrammar) {
            result.speechSeconds = Double(Self.segments(decoder).wordFrames) / Self.framesPerSecond
            result.grammarFit = fitSoFar()
        }
        if hearsOtherWords, let otherWordsDecoder, let check = configuration.otherWords, !text.isEmpty {
            var checkScore: Int32 = 0
            result.otherWords = ps_get_hyp(otherWordsDecoder, &checkScore).flatMap { check.otherWords(in: String(cString: $0)) }
        }
        return result
    }
}

/// The C decoder must stay on one thread at a time; say so to the compiler.
@available(*, unavailable)
extension SpeechRecognizer: Sendable {}

extension SpeechRecognizer {
    /// Splits a whole recording into utterances exactly as live audio is split (see `process`),
    /// calling `onUtterance` for each as it ends, so the caller can select the grammar for the
    /// next one. The audio may have any sample rate: it is resampled, padded with 0.25 s before
    /// and 0.5 s after (as a microphone that was already listening would be) and given a noise
    /// floor under its speech here (`NoiseFloor.belowSpeech`). Starts from a clean state
    /// (`reset`) and ends with `finish`.
    public func run(_ audio: PCMAudio, onUtterance: (RecognitionResult) -> Void) {
        _ = runWithHandover(audio, onUtterance: { result in
            onUtterance(result)
            return .goOn
        })
    }

    /// What `runWithHandover` does after an utterance.
    public enum RecordingStep: Sendable { case goOn, handOver }

    /// `run`, except that when `onUtterance` answers `.handOver` (the conversation changed
    /// language, the room got noisy) it stops after that utterance and returns the rest of the
    /// recording, at its own rate, for another recognizer to go on with; nil when the recording
    /// was heard to its end.
    ///
    /// - Parameter continuing: where `audio` is the rest of a recording another recognizer was
    ///   hearing, the seconds of it heard before: then nothing is put before it (a microphone's
    ///   next recognizer hears the next chunk, not a quiet lead-in that the room's noise would
    ///   break into as a phantom word), and endpoints count from the recording's start.
    public func runWithHandover(_ audio: PCMAudio, continuing: Double? = nil,
                                onUtterance: (RecognitionResult) -> RecordingStep) -> PCMAudio? {
        let rate = configuration.sampleRate
        let lead = continuing == nil ? Int(Self.leadIn * Double(rate)) : 0
        let recording = Resampler.resample(audio, to: rate)
        var samples = Self.padding(count: lead, at: .start, of: recording) + recording.samples
            + Self.padding(count: Int(Self.tail * Double(rate)), at: .end, of: recording)
        NoiseFloor.apply(to: &samples, level: NoiseFloor.level(under: recording, by: NoiseFloor.belowSpeech))
        learnPaddingLevel(from: recording.samples)
        reset()
        // A recording heard from its start has a room of its own: the detectors learn it
        // afresh, from a calibration, as a recognizer made for it would. From the last
        // recording's or session's room, a noisy recording after a quiet one was heard as speech
        // from its first frame, and what was heard before its words was its lead-in alone.
        if continuing == nil {
            roomBeforeUtterance = []
            detectors.forEach { $0.startStream() }
            calibrated = false
        }
        // Counted as the scaler gives it on (`Configuration.frequencyScale`).
        soundBeforeTail = Int(Double(lead + recording.samples.count) / configuration.frequencyScale)
        defer { soundBeforeTail = nil }
        // The quiet lead-in is not the recording's background: a noisy room's first utterance
        // measured 34 dB above it, and was heard as a quiet room's.
        paddingToCome = lead
        // Endpoints relative to the recording, not to the padding or to earlier streams.
        let origin = secondsHeard + (continuing.map { -$0 } ?? Self.leadIn)
        func deliver(_ result: RecognitionResult) -> RecordingStep {
            var result = result
            result.endpoint = result.endpoint.map { $0 - origin }
            return onUtterance(result)
        }
        let chunk = max(1, configuration.sampleRate / 10)
        var offset = 0
        // How far the hearing is behind a microphone that would give it `chunk` at a time.
        var behind = 0.0
        while offset < samples.count {
            let end = min(offset + chunk, samples.count)
            let started = Date(), waitedBefore = waitedBeside
            var results = process(Array(samples[offset..<end]))
            let streaming = Date().timeIntervalSince(started) - results.map(\.decodingTime).reduce(0, +)
                - (waitedBeside - waitedBefore)
            behind = max(0, behind + streaming - Double(end - offset) / Double(rate))
            for index in results.indices { results[index].behind += behind }
            for result in results where deliver(result) == .handOver {
                // The rest begins where this chunk ended, counted in the recording's own samples.
                let heard = (end - lead) * audio.sampleRate / rate
                guard heard < audio.samples.count else { return nil }
                return PCMAudio(samples: Array(audio.samples[max(0, heard)...]), sampleRate: audio.sampleRate)
            }
            offset = end
        }
        if let last = finish() { _ = deliver(last) }
        return nil
    }

    /// An end of a recording, where `runWithHandover` pads it.
    enum RecordingEdge { case start, end }

    /// The padding put at an edge of a recording heard from its start (`runWithHandover`),
    /// `count` samples: where the recording has its room's background there (`edgeIsBackground`),
    /// that stretch mirrored, so that the room sounds on past the edge, as a microphone hears it
    /// before and after anyone speaks; else silence, which the floor fills. A quiet padding
    /// around a noisy room's recording is a step into the noise that the detector heard as
    /// speech: in pink noise 10 dB under the speech, heard as "no" before "don't save" was, or
    /// as "help"; and with the noise put before a recording alone, one recording's quiet tail
    /// stepped into the next one's noise, and most of 340 answers were heard after a "help".
    static func padding(count: Int, at edge: RecordingEdge, of recording: PCMAudio) -> [Int16] {
        let silence = [Int16](repeating: 0, count: count)
        guard count > 0, recording.samples.count >= count else { return silence }
        let powers = recording.framePowers.sorted()
        let quietest = powers.prefix(max(1, powers.count / 10))
        let background = quietest.reduce(0, +) / Double(quietest.count)
        let stretch = Array(edge == .start ? recording.samples.prefix(count) : recording.samples.suffix(count))
        let stretchPowers = PCMAudio(samples: stretch, sampleRate: recording.sampleRate).framePowers
        guard background > 0, let loudest = stretchPowers.max() else { return silence }
        let mean = stretchPowers.reduce(0, +) / Double(stretchPowers.count)
        let limits = edgeIsBackground
        guard mean <= background * pow(10, limits.meanWithinDB / 10),
              loudest <= background * pow(10, limits.loudestWithinDB / 10) else { return silence }
        return stretch.reversed()
    }

    /// How far above a recording's quietest tenth of 20 ms frames the stretch at its edge may
    /// be, on the whole and at its loudest, and still be its background
    /// (`padding(count:at:of:)`). Pink noise's frames are 2 dB above their quietest tenth at the
    /// median and 4-8 dB at the loudest; words are 10 dB or more above it, even 10 dB under a
    /// noisy room's speech.
    static let edgeIsBackground = (meanWithinDB: 6.0, loudestWithinDB: 12.0)

    /// Convenience: prepares audio of any rate for `decode` (resample + noise floor under its
    /// speech) and decodes it.
    public func decode(_ audio: PCMAudio) -> RecognitionResult {
        decode(NoiseFloor.applied(to: Resampler.resample(audio, to: configuration.sampleRate)).samples)
    }
}
