import CEspeakNG
import Foundation

public enum SpeechError: Error, Equatable {
    case synthesizerUnavailable(String)
    case recognizerUnavailable(String)
    /// The grammar name passed to `selectGrammar` is not one the recognizer was built with.
    case unknownGrammar(String)
    /// "<grammar name>: <reason>", e.g. "glucose: not in the dictionary: frobnicate".
    case badGrammar(String)
    case audioDevice(String)
    /// Adapting the acoustic model to a voice failed; the reason.
    case adaptationFailed(String)
}

extension SpeechError: CustomStringConvertible {
    /// The reason alone, for the sentence the person is shown.
    public var description: String {
        switch self {
        case .synthesizerUnavailable(let reason), .recognizerUnavailable(let reason), .badGrammar(let reason),
             .audioDevice(let reason), .adaptationFailed(let reason):
            return reason
        case .unknownGrammar(let name):
            return "no grammar named \(name)"
        }
    }
}

/// espeak-ng, in process, synchronous output at its native 22050 Hz.
///
/// espeak-ng keeps all its state in process globals, so there is exactly one synthesizer per
/// process, and every call into the library holds one lock. It is safe to call from any thread;
/// concurrent callers simply take turns.
public final class SpeechSynthesizer: @unchecked Sendable {
    /// Guards every espeak-ng call and the fields below.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var instance: Result<SpeechSynthesizer, SpeechError>?

    /// The one synthesizer. Initialises espeak-ng on first use; if that fails (no
    /// espeak-ng-data, say) every call throws the same `synthesizerUnavailable`.
    public static func shared() throws -> SpeechSynthesizer {
        lock.lock()
        defer { lock.unlock() }
        if instance == nil {
            instance = Result { try SpeechSynthesizer() }.mapError { $0 as? SpeechError ?? .synthesizerUnavailable("\($0)") }
        }
        return try instance!.get()
    }

    public let sampleRate: Int
    private var currentVoice: String?
    private var currentRate: Int?
    private var currentVolume: Int?

    private init() throws {
        espeak_ng_InitializePath(nil) // nil: $ESPEAK_DATA_PATH, else the compiled-in data directory
        var context: espeak_ng_ERROR_CONTEXT?
        let status = espeak_ng_Initialize(&context)
        espeak_ng_ClearErrorContext(&context)
        guard status == ENS_OK else {
            throw SpeechError.synthesizerUnavailable("espeak-ng: \(Self.message(status))")
        }
        let output = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil)
        guard output == ENS_OK else {
            throw SpeechError.synthesizerUnavailable("espeak-ng output: \(Self.message(output))")
        }
        sampleRate = Int(espeak_ng_GetSampleRate())
        espeak_SetSynthCallback(synthCallback)
    }

    /// Speaks `text` into memory.
    /// - Parameters:
    ///   - voice: an espeak-ng voice name, optionally with a variant: "en-us", "en-gb",
    ///     "en-us+f3", "en-gb-x-rp". Unknown names throw `synthesizerUnavailable`.
    ///   - rate: words per minute, clamped to 80...450.
    ///   - volume: 0...200 (100 is normal), clamped.
    public func synthesize(_ text: String, voice: String = "en-us", rate: Int = 150, volume: Int = 100) throws -> PCMAudio {
        var samples: [Int16] = []
        try synthesize(text, voice: voice, rate: rate, volume: volume) { samples.append(contentsOf: $0) }
        return PCMAudio(samples: samples, sampleRate: sampleRate)
    }

    /// Speaks `text`, handing over its sound (at `sampleRate`) piece by piece as espeak-ng makes
    /// it, about 60 ms at a time, so that the first piece can be played while the rest is made.
    /// A piece that throws stops the synthesis, and the error is rethrown. The synthesizer is
    /// held until the last piece is taken: a caller that plays each piece as it comes holds it
    /// for the whole sentence.
    public func synthesize(_ text: String, voice: String = "en-us", rate: Int = 150, volume: Int = 100,
                           pieces: (UnsafeBufferPointer<Int16>) throws -> Void) throws {
        Self.lock.lock()
        defer { Self.lock.unlock() }

        if voice != currentVoice {
            let status = Self.setVoice(voice)
            guard status == ENS_OK else {
                currentVoice = nil
                throw SpeechError.synthesizerUnavailable("voice \(voice): \(Self.message(status))")
            }
            currentVoice = voice
            // A new voice resets the prosody parameters.
            currentRate = nil
            currentVolume = nil
        }
        let rate = min(max(rate, 80), 450)
        if rate != currentRate {
            _ = espeak_ng_SetParameter(espeakRATE, Int32(rate), 0)
            currentRate = rate
        }
        let volume = min(max(volume, 0), 200)
        if volume != currentVolume {
            _ = espeak_ng_SetParameter(espeakVOLUME, Int32(volume), 0)
            currentVolume = volume
        }

        try withoutActuallyEscaping(pieces) { pieces in
            let sink = PieceSink(take: pieces)
            let status: espeak_ng_STATUS = withExtendedLifetime(sink) {
                let userData = Unmanaged.passUnretained(sink).toOpaque()
                let utf8 = Array(text.utf8CString)
                return utf8.withUnsafeBufferPointer { buffer in
                    espeak_ng_Synthesize(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0,
                                         UInt32(espeakCHARS_UTF8), nil, userData)
                }
            }
            if let failure = sink.failure { throw failure }
            guard status == ENS_OK else {
                throw SpeechError.synthesizerUnavailable("espeak-ng synthesis: \(Self.message(status))")
            }
        }
    }

    /// Selects a voice by file name ("en-us", "en-gb-x-rp") or, failing that, by language code
    /// ("en-gb" is the language of the file "en"), keeping any "+variant" suffix. Call with the lock held.
    private static func setVoice(_ name: String) -> espeak_ng_STATUS {
        let direct = espeak_ng_SetVoiceByName(name)
        guard direct != ENS_OK else { return direct }
        let parts = name.split(separator: "+", maxSplits: 1).map(String.init)
        guard let language = parts.first?.lowercased(),
              let file = voiceFiles().filter({ $0.language == language }).min(by: { $0.priority < $1.priority })?.file
        else { return direct }
        let variant = parts.count > 1 ? "+" + parts[1] : ""
        return espeak_ng_SetVoiceByName(file + variant)
    }

    /// (language code, priority, voice file name) for every installed voice. Call with the lock held.
    private static func voiceFiles() -> [(language: String, priority: Int, file: String)] {
        guard let list = espeak_ListVoices(nil) else { return [] }
        var entries: [(language: String, priority: Int, file: String)] = []
        var index = 0
        while let voice = list[index] {
            index += 1
            guard let identifier = voice.pointee.identifier, let languages = voice.pointee.languages else { continue }
            let file = String(cString: identifier).split(separator: "/").last.map(String.init) ?? ""
            guard !file.isEmpty else { continue }
            // `languages` is a run of (priority byte, NUL-terminated name), ended by a 0 priority.
            var p = languages
            while p.pointee != 0 {
                entries.append((String(cString: p + 1).lowercased(), Int(p.pointee), file))
                p += 2 + strlen(p + 1)
            }
        }
        return entries
    }

    /// Language codes usable as `voice:` that are `language` or a dialect of it, e.g. "en" gives
    /// "en", "en-029", "en-gb", "en-gb-x-rp", "en-us", ... Empty when espeak-ng is unavailable.
    public static func availableVoices(language: String) -> [String] {
        guard (try? shared()) != nil else { return [] }
        lock.lock()
        defer { lock.unlock() }
        let wanted = language.lowercased()
        let codes = voiceFiles().map(\.language).filter { $0 == wanted || $0.hasPrefix(wanted + "-") }
        return Array(Set(codes)).sorted()
    }

    private static func message(_ status: espeak_ng_STATUS) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(status, &buffer, buffer.count)
        return String(cString: buffer)
    }
}

/// Takes what espeak-ng hands to the callback during one synthesis, and keeps the error that
/// stopped it, if one did.
private final class PieceSink {
    let take: (UnsafeBufferPointer<Int16>) throws -> Void
    var failure: Error?
    init(take: @escaping (UnsafeBufferPointer<Int16>) throws -> Void) { self.take = take }
}

/// A C callback cannot capture context, so the sink travels in each event's user_data.
private func synthCallback(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32,
                           _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let events, let userData = events.pointee.user_data else { return 0 }
    let sink = Unmanaged<PieceSink>.fromOpaque(userData).takeUnretainedValue()
    guard sink.failure == nil else { return 1 }
    if let wav, count > 0 {
        do { try sink.take(UnsafeBufferPointer(start: wav, count: Int(count))) } catch {
            sink.failure = error
            return 1 // stop synthesizing
        }
    }
    return 0 // keep going
}
