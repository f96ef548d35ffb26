import CareTestSupport
import Foundation
import Testing
@testable import CareSpeech

/// How a stored voice makes the recognizer hear with it.
@Suite struct AdaptedVoiceTests {
    static func store(_ method: AdaptedVoice.Method, baseMeans: Bool, in directory: URL) throws -> AdaptedVoice {
        let fm = FileManager.default
        try fm.createDirectory(at: directory.appendingPathComponent("model"), withIntermediateDirectories: true)
        for file in ["model/sendump", "mllr_matrix"] + (baseMeans ? ["base-means"] : []) {
            try Data("x".utf8).write(to: directory.appendingPathComponent(file))
        }
        let voice = AdaptedVoice(directory: directory, record: .init(method: method, enrolled: Date(timeIntervalSince1970: 0),
                                                                     utterances: 20, seconds: 9))
        try voice.writeRecord()
        return try #require(try AdaptedVoice.load(from: directory))
    }

    @Test func mapHearsWithItsOwnModel() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var configuration = SpeechRecognizer.Configuration()
        try Self.store(.map, baseMeans: true, in: dir).apply(to: &configuration)
        #expect(configuration.modelDirectory == dir.appendingPathComponent("model").path)
        #expect(configuration.meansFile == nil)
        #expect(configuration.extraArguments["-mllr"] == nil)
    }

    /// An MLLR transform was solved against the means the voice was learned from: the model's
    /// own, or (for a voice heard over a telephone band) those kept beside it.
    @Test func mllrTransformsTheMeansItWasLearnedFrom() throws {
        for baseMeans in [false, true] {
            let dir = CLI.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: dir) }
            var configuration = SpeechRecognizer.Configuration()
            try Self.store(.mllr, baseMeans: baseMeans, in: dir).apply(to: &configuration)
            #expect(configuration.extraArguments["-mllr"] == dir.appendingPathComponent("mllr_matrix").path)
            #expect(configuration.meansFile == (baseMeans ? dir.appendingPathComponent("base-means").path : nil))
            #expect(configuration.modelDirectory == SpeechRecognizer.Configuration().modelDirectory)
        }
    }
}
