import CareSpeech
import Foundation

/// How means for a noisy room are learned (`carevoice bench noisy-room-means`): the
/// acoustic model adapted (MAP) to clean recordings of several voices, and again to the same
/// recordings with pink noise mixed in; the model's own means moved by the difference. A noisy
/// room's recognizer takes the noise out (`-remove_noise`), and what is left of speech is not
/// what the model learned from: the difference is that, without the voices (both adaptations
/// learned them alike). Adapted to the noisy copies alone, the model would learn the voices too,
/// synthetic ones here, and hear people less well.
public enum NoisyRoomMeans {
    /// The noise the copies have: a kitchen's or a television's level, where readings were
    /// misheard most (README, "How well it hears").
    public static let snr = 10.0

    /// - Parameter clean: recordings as the decoder saw them (`VoiceEnrollment.take`).
    /// - Parameter share: how much of the difference the model's means are moved by (1: all).
    /// - Parameter modelMeans: the means file of the model that both adaptations start from.
    public static func learn(from clean: [VoiceAdapter.Utterance], snr: Double = snr, share: Double = 1,
                             enrollment: VoiceEnrollment, work: URL, modelMeans: String) throws -> GaussianMeans {
        // Seeds of their own: not the noise a benchmark mixes into what it decodes, nor an
        // enrollment's copies.
        let noisy = clean.enumerated().map { index, utterance in
            var copy = utterance
            copy.samples = NoiseMixer.mix(PCMAudio(samples: utterance.samples, sampleRate: enrollment.sampleRate),
                                          noise: .pink, snr: snr, seed: UInt64(50_000 + index)).samples
            return copy
        }
        let copies = enrollment.noisyCopies
        enrollment.noisyCopies = []
        defer { enrollment.noisyCopies = copies }
        // Learned as readings confirmed in use are: no copies made of them.
        let heardClean = try enrollment.learn(phrases: [], confirmed: clean, method: .map, into: work.appendingPathComponent("clean"))
        let heardInNoise = try enrollment.learn(phrases: [], confirmed: noisy, method: .map, into: work.appendingPathComponent("noisy"))
        func means(_ path: String) throws -> GaussianMeans {
            do { return try GaussianMeans.read(Data(contentsOf: URL(fileURLWithPath: path))) } catch {
                throw SpeechError.adaptationFailed("cannot read the means at \(path): \(error)")
            }
        }
        return try means(modelMeans).moved(from: means(heardClean.modelDirectory.appendingPathComponent("means").path),
                                           to: means(heardInNoise.modelDirectory.appendingPathComponent("means").path),
                                           share: Float(share))
    }
}
