import ArgumentParser
import CareAssistant
import CareLanguage
import CareModel
import CareSpeech
import CareStore
import CareTerminal
import Foundation

/// Learning the person's voice: about twenty short phrases, said after the assistant, adapt
/// the acoustic model to them; from then on every command recognises with it.
struct EnrollCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll",
        abstract: "Learn your voice (about two minutes), so that CareVoice hears you better.",
        discussion: "Run it again to learn your voice again; --forget goes back to the general voice model.")

    @OptionGroup var common: CommonOptions
    @OptionGroup var session: SessionOptions
    @Option(help: "Learn from the recordings in this manifest (columns file, kind, expected; text for what was said) instead of the microphone.")
    var manifest: String?
    @Option(name: .customLong("from-speaker"), help: "With --manifest: only the recordings of this speaker (the speaker column, or FSDD file names).") var speaker: String?
    @Option(help: "With --manifest: at most this many recordings, each expected value in turn.") var count: Int?
    @Option(help: "Adaptation to use: map (stronger for the words enrolled) or mllr (one transform for all words).")
    var method: AdaptedVoice.Method = .preferred
    @Flag(help: "Forget your voice and use the general model again.") var forget = false
    @Flag(help: "Say which voice model is in use.") var status = false

    func validate() throws {
        if forget && status { throw ValidationError("--forget and --status cannot be used together") }
        if manifest == nil && (speaker != nil || count != nil) { throw ValidationError("--from-speaker and --count need --manifest") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let directory = env.dataDirectory.voiceDirectory
        if forget {
            return Console.line(book.text(try env.dataDirectory.forgetVoice() ? .enrollForgotten : .enrollNothingToForget))
        }
        if status {
            guard let voice = env.storedVoice() else { return Console.line(book.text(.enrollStatusNone)) }
            let date = DateFormatter.localizedString(from: voice.record.enrolled, dateStyle: .long, timeStyle: .short)
            return Console.line(book.text(.enrollStatus, ["date": date, "count": String(voice.record.utterances),
                                                          "method": voice.record.method.rawValue.uppercased()]))
        }
        try env.dataDirectory.prepare()
        let enrollment = try VoiceEnrollment(table: env.table, resources: env.resources)
        let (utterances, band) = try manifest.map { try fromManifest($0, env: env, enrollment: enrollment) }
            ?? fromPerson(env: env, enrollment: enrollment)
        let outcome = enrollment.learn(phrases: utterances, method: method, into: directory, band: band) {
            Console.line(book.text(.enrollLearning))
        }
        guard case .learned = outcome else { throw CommandFailure(outcome.message(book).display) }
        Console.line(outcome.message(book).display)
    }

    /// The clear recordings of a corpus, each checked against its words, and their band.
    private func fromManifest(_ path: String, env: AppEnvironment, enrollment: VoiceEnrollment) throws -> ([VoiceAdapter.Utterance], AudioBand) {
        var items = try readManifest(path).filter { speaker == nil || $0.speaker == speaker }
        if let count { items = VoiceEnrollment.balancedSelection(items, count: count) }
        return (try clearRecordings(items, manifest: path, env: env, enrollment: enrollment, tellLeftOut: true), band(of: items))
    }

    /// The phrases of the locale table, said by the person into the microphone (or a recording
    /// standing in for it with --audio-in), and what they were heard over.
    private func fromPerson(env: AppEnvironment, enrollment: VoiceEnrollment) throws -> ([VoiceAdapter.Utterance], AudioBand) {
        let book = env.phrasebook
        var ignored: [Message] = []
        let settings = (try? openStore(env).settings()) ?? env.defaultSettings
        let speech = makeSpeechOutput(env, session, settings: settings, notices: &ignored)
        let openSource: () throws -> AudioSource
        var band = AudioBand.wide
        if let audioIn = session.audioIn {
            band = AudioBand.of(try readRecording(audioIn, book))
            let recording: FileAudioSource
            do { recording = try FileAudioSource(url: URL(fileURLWithPath: audioIn)) } catch {
                throw CommandFailure(book.text(.audioFileError, ["path": audioIn, "reason": describe(error, book)]))
            }
            openSource = { recording }
        } else {
            do { _ = try MicrophoneSource(device: session.microphone) } catch {
                throw CommandFailure(book.text(.enrollNeedsMicrophone, ["reason": "\(error)"]))
            }
            openSource = { [microphone = session.microphone] in try MicrophoneSource(device: microphone) }
        }
        let person = EnrollmentSession(book: book, speech: speech, openSource: openSource)
        return (try person.record(VoiceEnrollment.prompts(env.table), with: enrollment), band)
    }
}

/// What a set of recordings carries: telephone band when every one that can be read does (a
/// voice heard that way is learned from the means for it).
func band(of items: [CorpusItem]) -> AudioBand {
    let bands = items.compactMap { try? WAVFile.read($0.file) }.map(AudioBand.of)
    return !bands.isEmpty && bands.allSatisfy { $0 == .narrow } ? .narrow : .wide
}

/// The clear recordings of each speaker in a manifest (`clearRecordings`, each voice begun
/// anew), in the order of their names, for what learns from several voices (`bench
/// narrowband`, `bench noisy-room-means`); only the items whose words are known. `speakersNamedBy`:
/// how the manifest names its speakers, for the message when it names fewer than two.
func clearRecordingsBySpeaker(_ items: [CorpusItem], manifest: String, env: AppEnvironment, enrollment: VoiceEnrollment,
                              tellLeftOut: Bool, speakersNamedBy naming: String = "a speaker column")
    throws -> [(speaker: String, takes: [VoiceAdapter.Utterance])] {
    let spoken = items.filter { VoiceEnrollment.words(for: $0, table: env.table) != nil }
    let speakers = Array(Set(spoken.compactMap(\.speaker))).sorted()
    guard speakers.count >= 2 else {
        throw CommandFailure("\(manifest) needs recordings by at least two speakers (\(naming))")
    }
    return try speakers.map { speaker in
        enrollment.beginVoice()
        return (speaker, try clearRecordings(spoken.filter { $0.speaker == speaker }, manifest: manifest, env: env,
                                             enrollment: enrollment, tellLeftOut: tellLeftOut))
    }
}

/// Each corpus recording checked against the words it says: those that sound like them, ready
/// to learn from (`carevoice enroll --manifest`, `bench enrollment`).
/// `heard` gives a recording as it was heard, when that was not as it is (noise mixed in).
func clearRecordings(_ items: [CorpusItem], manifest: String, env: AppEnvironment, enrollment: VoiceEnrollment,
                     tellLeftOut: Bool, tellTaken: Bool = false,
                     heard: ((CorpusItem) throws -> PCMAudio)? = nil) throws -> [VoiceAdapter.Utterance] {
    var utterances: [VoiceAdapter.Utterance] = []
    for item in items {
        guard let words = VoiceEnrollment.words(for: item, table: env.table) else {
            throw CommandFailure("\(manifest) line \(item.line): say what was spoken in a text column")
        }
        if let word = enrollment.unpronounceable(words) {
            throw CommandFailure("\(manifest) line \(item.line): I don't know how to pronounce \(word)")
        }
        let audio: PCMAudio
        do { audio = try heard?(item) ?? WAVFile.read(item.file) } catch {
            throw CommandFailure(env.phrasebook.text(.audioFileError, ["path": item.file.path, "reason": describe(error, env.phrasebook)]))
        }
        switch try enrollment.take(audio, words: words) {
        case .usable(let utterance, let fit):
            utterances.append(utterance)
            if tellTaken {
                Console.line(String(format: "learned from line %d %@: \"%@\" (fit %.1f)", item.line, item.file.lastPathComponent,
                                    words.joined(separator: " "), fit) + backgroundNote(audio))
            }
        case .unclear(let fit) where tellLeftOut:
            Console.line("left out line \(item.line) \(item.file.lastPathComponent): does not sound like \"\(words.joined(separator: " "))\""
                         + (fit.map { String(format: " (fit %.1f)", $0) } ?? " (nothing heard)"))
        case .unclear: break
        }
    }
    return utterances
}

extension AdaptedVoice.Method: ExpressibleByArgument {}

/// Reads a corpus manifest (../shared/corpora/README.md), with messages a person can act on.
func readManifest(_ path: String) throws -> [CorpusItem] {
    let url = URL(fileURLWithPath: path)
    let text: String
    do {
        text = try String(contentsOf: url, encoding: .utf8)
    } catch {
        throw CommandFailure("I can't read the manifest \(path): \(error.localizedDescription)")
    }
    do {
        return try CorpusManifest.parse(text, directory: url.deletingLastPathComponent())
    } catch let error as ManifestError {
        throw CommandFailure("\(path): \(error.description)")
    }
}
