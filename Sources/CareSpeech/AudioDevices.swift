import CALSA
import Foundation

/// Something that yields mono chunks (16 kHz unless `sampleRate` says otherwise) until it ends.
/// Not thread-safe: read and close from one thread.
public protocol AudioSource: AnyObject {
    var sampleRate: Int { get }
    /// Up to `frames` samples; nil at end of stream (or after `close`).
    func read(frames: Int) throws -> [Int16]?
    func close()
}

/// Process-wide ALSA setup.
public enum AudioSystem {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var silenced = false

    /// Routes ALSA's error messages to nowhere; every ALSA entry point here calls this first,
    /// so a machine without a sound card never prints "ALSA lib ..." lines.
    static func prepareALSA() {
        lock.lock()
        defer { lock.unlock() }
        if !silenced {
            carevoice_alsa_silence_errors()
            silenced = true
        }
    }

    /// Makes ALSA read its configuration from `path` (which should begin with
    /// `</usr/share/alsa/alsa.conf>` to keep the standard devices) instead of the default files.
    /// ALSA caches its configuration but compares the ALSA_CONFIG_PATH file list on every update,
    /// so the new file takes effect at once, even if ALSA was used before. (Dropping the cache with
    /// snd_config_update_free_global would also work but is unsafe while another thread opens a
    /// device.) Throws `audioDevice` when ALSA cannot parse the file.
    public static func useALSAConfiguration(at path: String) throws {
        prepareALSA()
        lock.lock()
        defer { lock.unlock() }
        setenv("ALSA_CONFIG_PATH", path, 1)
        let updated = snd_config_update()
        guard updated >= 0 else {
            throw SpeechError.audioDevice("ALSA configuration \(path): \(alsaMessage(updated))")
        }
    }
}

private func alsaMessage(_ code: Int32) -> String {
    String(cString: snd_strerror(code))
}

/// ALSA capture, S16_LE mono, in 10 ms periods of a 200 ms buffer (see `periodTime`).
/// "default" reaches PulseAudio/PipeWire where they run. Overruns are recovered silently.
public final class MicrophoneSource: AudioSource {
    public let sampleRate: Int
    public let device: String
    /// How many overruns (lost audio) were recovered so far.
    public private(set) var overruns = 0
    private var pcm: OpaquePointer?
    /// Frames the device delivers at a time (one period): what was said reaches the reader
    /// within this much of being said. Also the most one snd_pcm_readi asks for, since some
    /// plugins (the `file` plugin's infile among them) cannot serve a read larger than that.
    public let framesPerPeriod: Int

    /// A period is when captured audio reaches us: the recognizer's own block
    /// (`SpeechRecognizer.blockSeconds`). With snd_pcm_set_params's 100 ms buffer (25 ms periods)
    /// read in 0.1 s chunks, replies on a live microphone (the `file` plugin fed in real time, 12
    /// readings and their yeses) came a median 322-324 ms after the speech, 76-78 ms later than
    /// `bench loop` measured; read 20 ms at a time, 252-257 ms; 10 ms at a time, 249 ms.
    static let periodTime = UInt32((SpeechRecognizer.blockSeconds * 1_000_000).rounded())
    /// Microseconds the capture thread may be held up before audio is lost (an overrun).
    static let bufferTime: UInt32 = 200_000

    /// - Throws: `SpeechError.audioDevice` with a short reason when the device cannot be opened
    ///   or does not accept the format.
    public init(device: String = "default", sampleRate: Int = 16000) throws {
        AudioSystem.prepareALSA()
        self.device = device
        self.sampleRate = sampleRate
        var handle: OpaquePointer?
        let opened = snd_pcm_open(&handle, device, SND_PCM_STREAM_CAPTURE, 0)
        guard opened >= 0, let handle else {
            throw SpeechError.audioDevice("cannot open capture device \(device): \(alsaMessage(opened))")
        }
        do {
            framesPerPeriod = try Self.configure(handle, sampleRate: sampleRate, device: device)
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        pcm = handle
    }

    deinit { close() }

    /// 16-bit mono at `sampleRate` (ALSA resamples where the device cannot), in periods of about
    /// `periodTime`; the device may choose others near them. Returns the frames per period.
    private static func configure(_ pcm: OpaquePointer, sampleRate: Int, device: String) throws -> Int {
        var allocated: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&allocated) >= 0, let params = allocated else {
            throw SpeechError.audioDevice("capture device \(device): out of memory")
        }
        defer { snd_pcm_hw_params_free(params) }
        func check(_ code: Int32) throws {
            guard code < 0 else { return }
            throw SpeechError.audioDevice("capture device \(device) refuses 16-bit mono at \(sampleRate) Hz: \(alsaMessage(code))")
        }
        try check(snd_pcm_hw_params_any(pcm, params))
        try check(snd_pcm_hw_params_set_rate_resample(pcm, params, 1))
        try check(snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED))
        try check(snd_pcm_hw_params_set_format(pcm, params, SND_PCM_FORMAT_S16_LE))
        try check(snd_pcm_hw_params_set_channels(pcm, params, 1))
        try check(snd_pcm_hw_params_set_rate(pcm, params, UInt32(clamping: sampleRate), 0))
        // Near values: a device that cannot do them keeps its own.
        var buffer = bufferTime, period = periodTime, direction: Int32 = 0
        _ = snd_pcm_hw_params_set_buffer_time_near(pcm, params, &buffer, &direction)
        _ = snd_pcm_hw_params_set_period_time_near(pcm, params, &period, &direction)
        try check(snd_pcm_hw_params(pcm, params))
        var frames: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_period_size(params, &frames, &direction)
        return max(1, Int(frames))
    }

    /// Blocks until `frames` samples have been captured.
    public func read(frames: Int) throws -> [Int16]? {
        guard let pcm else { return nil }
        guard frames > 0 else { return [] }
        var samples = [Int16](repeating: 0, count: frames)
        var filled = 0
        try samples.withUnsafeMutableBufferPointer { buffer in
            while filled < frames {
                let want = min(framesPerPeriod, frames - filled)
                let got = snd_pcm_readi(pcm, buffer.baseAddress! + filled, snd_pcm_uframes_t(want))
                if got > 0 {
                    filled += got
                    continue
                }
                if got == 0 || got == -Int(EAGAIN) { continue }
                // Overrun (EPIPE) or suspend (ESTRPIPE): restart the stream and keep reading.
                let recovered = snd_pcm_recover(pcm, Int32(got), 1)
                guard recovered >= 0 else {
                    throw SpeechError.audioDevice("capture from \(device) failed: \(alsaMessage(Int32(got)))")
                }
                overruns += 1
            }
        }
        return samples
    }

    public func close() {
        if let pcm {
            snd_pcm_close(pcm)
            self.pcm = nil
        }
    }
}

/// Audio already in memory, served in chunks; the building block of `FileAudioSource`.
public final class BufferAudioSource: AudioSource {
    public let sampleRate: Int
    private var samples: [Int16]
    private var position = 0
    private var closed = false

    public init(_ audio: PCMAudio) {
        sampleRate = audio.sampleRate
        samples = audio.samples
    }

    public func read(frames: Int) throws -> [Int16]? {
        guard !closed, position < samples.count else { return nil }
        let end = min(position + max(frames, 0), samples.count)
        defer { position = end }
        return Array(samples[position..<end])
    }

    public func close() {
        closed = true
        samples = []
    }

    /// What has not been read yet; nil when nothing is left.
    public var remainder: PCMAudio? {
        guard !closed, position < samples.count else { return nil }
        return PCMAudio(samples: Array(samples[position...]), sampleRate: sampleRate)
    }
}

/// A WAV file as a source: resampled to 16 kHz and, unless told otherwise, given the noise
/// floor a real microphone would have under the speech (`NoiseFloor.applied`; the recognizer
/// misbehaves on digital silence).
public final class FileAudioSource: AudioSource {
    private let buffer: BufferAudioSource
    public var sampleRate: Int { buffer.sampleRate }

    public init(url: URL, sampleRate: Int = 16000, noiseFloor: Bool = true) throws {
        var audio = Resampler.resample(try WAVFile.read(url), to: sampleRate)
        if noiseFloor { audio = NoiseFloor.applied(to: audio) }
        buffer = BufferAudioSource(audio)
    }

    public func read(frames: Int) throws -> [Int16]? { try buffer.read(frames: frames) }
    public func close() { buffer.close() }
}

/// ALSA playback. `play` blocks until the sound has been played (snd_pcm_drain). A sound made
/// piece by piece is played as it comes: `write` each piece, then `finish`.
public final class SpeakerSink {
    public let device: String
    private var pcm: OpaquePointer?
    private var configuredRate: Int?
    /// Whether pieces have been written since the last `finish`.
    private var playing = false
    /// Seconds of sound ALSA buffers; it starts playing once the buffer is full (or the sound
    /// is finished), so the first sample is heard once this much has been written.
    public static let bufferSeconds = 0.1

    /// - Throws: `SpeechError.audioDevice` when the device cannot be opened.
    public init(device: String = "default") throws {
        AudioSystem.prepareALSA()
        self.device = device
        var handle: OpaquePointer?
        let opened = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0)
        guard opened >= 0, let handle else {
            throw SpeechError.audioDevice("cannot open playback device \(device): \(alsaMessage(opened))")
        }
        pcm = handle
    }

    deinit {
        if let pcm { snd_pcm_close(pcm) }
    }

    public func play(_ audio: PCMAudio) throws {
        try audio.samples.withUnsafeBufferPointer { try write($0, sampleRate: audio.sampleRate) }
        try finish()
    }

    /// Plays a piece of a sound: the first pieces start the sound (once `bufferSeconds` of it are
    /// written), and each later one follows without a gap. Blocks while the buffer is full. Every
    /// piece of one sound has the same rate.
    public func write(_ samples: UnsafeBufferPointer<Int16>, sampleRate: Int) throws {
        guard let pcm else { throw SpeechError.audioDevice("playback device \(device) is closed") }
        guard let start = samples.baseAddress, !samples.isEmpty else { return }
        if !playing {
            if configuredRate != sampleRate {
                let configured = snd_pcm_set_params(pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED,
                                                    1, UInt32(clamping: sampleRate), 1, UInt32(Self.bufferSeconds * 1_000_000))
                guard configured >= 0 else {
                    configuredRate = nil
                    throw SpeechError.audioDevice("playback device \(device) refuses 16-bit mono at \(sampleRate) Hz: \(alsaMessage(configured))")
                }
                configuredRate = sampleRate
            }
            // After the previous drain the stream is stopped; prepare it again.
            let prepared = snd_pcm_prepare(pcm)
            guard prepared >= 0 else { throw SpeechError.audioDevice("playback device \(device): \(alsaMessage(prepared))") }
            playing = true
        }
        var written = 0
        while written < samples.count {
            let put = snd_pcm_writei(pcm, start + written, snd_pcm_uframes_t(samples.count - written))
            if put > 0 {
                written += put
                continue
            }
            if put == 0 || put == -Int(EAGAIN) { continue }
            // Underrun (EPIPE) or suspend: recover and go on writing.
            guard snd_pcm_recover(pcm, Int32(put), 1) >= 0 else {
                throw SpeechError.audioDevice("playback on \(device) failed: \(alsaMessage(Int32(put)))")
            }
        }
    }

    /// Waits until the sound written has been played. Nothing written, nothing to wait for.
    public func finish() throws {
        guard playing, let pcm else { return }
        playing = false
        let drained = snd_pcm_drain(pcm)
        guard drained >= 0 else { throw SpeechError.audioDevice("playback on \(device): \(alsaMessage(drained))") }
    }
}
