import CPocketSphinx

/// pocketsphinx's voice-activity detector without a search: sphinxbase's front end made from a
/// decoder's configuration, so it tells speech from silence exactly as the decoder's own would.
/// It goes on deciding while the decoder decodes an utterance as a whole.
///
/// Not thread-safe; it belongs to the `SpeechRecognizer` that made it.
final class SpeechDetector {
    private var vad: OpaquePointer?
    /// Whether an utterance is open (between `start` and `end`).
    private(set) var started = false

    init(config: OpaquePointer) throws {
        guard let vad = carevoice_vad_init(config) else {
            throw SpeechError.recognizerUnavailable("sphinxbase could not make a voice-activity detector")
        }
        self.vad = vad
    }

    deinit { close() }

    /// Frees the front end now: it holds the decoder's configuration, which its owner frees.
    func close() {
        carevoice_vad_free(vad)
        vad = nil
        started = false
    }

    func start() {
        guard let vad else { return }
        carevoice_vad_start_utt(vad)
        started = true
    }

    /// Forgets the noise learned so far (`carevoice_vad_start_stream`); the next frames seed it
    /// afresh, and, as in a detector just made, call for a calibration first
    /// (`SpeechRecognizer.calibration`).
    func startStream() {
        guard let vad else { return }
        carevoice_vad_start_stream(vad)
    }

    func end() {
        guard started, let vad else { return }
        carevoice_vad_end_utt(vad)
        started = false
    }

    /// Feeds samples (an utterance must be open); true when the last frame is speech or within
    /// the hangover after it.
    func hearsSpeech(_ samples: UnsafeBufferPointer<Int16>) -> Bool {
        guard let vad else { return false }
        return carevoice_vad_process(vad, samples.baseAddress, samples.count) == 1
    }
}
