import ArgumentParser
import CareAssistant
import CareModel
import CareSpeech
import CareTerminal
import Foundation

/// Means for a noisy room, to measure with `bench recognition --noisy-room-means` (the assistant
/// does not hear with them: models/README.md, "A noisy room's means"): how taking a noisy
/// room's noise out moves speech, learned by contrast and applied to the model's own means. The model
/// is adapted (MAP, sphinxtrain through `VoiceAdapter`) twice to the same recordings, once as
/// they are and once with noise mixed in (heard with it taken out, as `sphinx_fe` and a noisy
/// room's recognizer do), and the model's means are moved by the difference of the two: what
/// the voices themselves taught both adaptations cancels out, what the noise taught stays.
struct BenchNoisyRoomMeans: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "noisy-room-means",
        abstract: "Learn the means for a noisy room from clean recordings of several voices, and write them.")

    @OptionGroup var common: CommonOptions
    @Option(help: "Clean recordings by several speakers whose words are known: a manifest with a speaker column (bench corpus).")
    var manifest: String
    @Option(help: "Write the means to this file.")
    var write: String
    @Option(help: "Pink noise this many dB under the speech, mixed into the copy learned from.")
    var snr: Double = NoisyRoomMeans.snr
    @Option(help: "How far to move the model's means, as a share of how far the noise moved the adapted ones (1: as far).")
    var share: Double = 1
    @Flag(help: "Print the recordings left out (not sounding like their words).") var misses = false

    func validate() throws {
        guard (0...2).contains(share) else { throw ValidationError("--share must be from 0 to 2") }
        guard (-10...40).contains(snr) else { throw ValidationError("--snr must be from -10 to 40 dB") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        // Each speaker's clear recordings, checked against their words and the speaker's other takes.
        let enrollment = try VoiceEnrollment(table: env.table, resources: env.resources)
        let bySpeaker = try clearRecordingsBySpeaker(try readManifest(manifest), manifest: manifest, env: env,
                                                     enrollment: enrollment, tellLeftOut: misses)
        let clean = bySpeaker.flatMap(\.takes)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-noisy-room-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let means = try NoisyRoomMeans.learn(from: clean, snr: snr, share: share, enrollment: enrollment, work: work,
                                             modelMeans: RecognizerFactory.modelMeans(env.table))
        let destination = URL(fileURLWithPath: write)
        do { try means.s3File().write(to: destination) } catch {
            throw CommandFailure("cannot write \(write): \(error.localizedDescription)")
        }
        Console.line("wrote the means for a noisy room, learned from \(clean.count) recordings of \(bySpeaker.count) speakers (pink noise at \(String(format: "%g", snr)) dB"
                     + (share == 1 ? "" : String(format: ", moved %.2f of the way", share)) + "), to \(write)")
    }
}
