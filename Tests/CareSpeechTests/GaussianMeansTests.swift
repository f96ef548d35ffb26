import Foundation
import Testing
@testable import CareSpeech

@Suite struct GaussianMeansTests {
    static let small = GaussianMeans(codebooks: 2, densities: 2, vectorLengths: [2, 1], values: (0..<12).map { Float($0) / 4 })

    @Test func theS3FileIsReadBackAsWritten() throws {
        let file = Self.small.s3File()
        let header = try #require(file.range(of: Data("endhdr\n".utf8)))
        #expect(header.upperBound % 4 == 0)
        #expect(try GaussianMeans.read(file) == Self.small)
    }

    /// Debian's model as pocketsphinx reads it: 42 codebooks of 128 Gaussians over three
    /// streams of 13, its file carrying a checksum after the numbers.
    @Test func debiansMeansAreRead() throws {
        let path = SpeechRecognizer.Configuration().modelDirectory + "/means"
        let means = try GaussianMeans.read(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(means.codebooks == 42)
        #expect(means.densities == 128)
        #expect(means.vectorLengths == [13, 13, 13])
        #expect(means.values.count == 42 * 128 * 39)
        #expect(means.values.allSatisfy { $0.isFinite })
    }

    @Test func meansMoveAsFarAsAnotherPairMoved() throws {
        var before = Self.small, after = Self.small
        before.values = Array(repeating: 1, count: 12)
        after.values = (0..<12).map { 1 + Float($0 % 3) }
        let moved = try Self.small.moved(from: before, to: after)
        let expected: [Float] = (0..<12).map { Float($0) / 4 + Float($0 % 3) }
        #expect(moved.values == expected)
        let halfway = try Self.small.moved(from: before, to: after, share: 0.5)
        let expectedHalfway: [Float] = (0..<12).map { Float($0) / 4 + Float($0 % 3) / 2 }
        #expect(halfway.values == expectedHalfway)
    }

    @Test func damagedOrMismatchedFilesAreRefused() {
        let file = Self.small.s3File()
        #expect(throws: GaussianMeans.FormatError.malformed("the means end early or do not match their dimensions")) {
            try GaussianMeans.read(file.dropLast(3))
        }
        #expect(throws: GaussianMeans.FormatError.malformed("no endhdr line")) {
            try GaussianMeans.read(Data("s3\nversion 1.0\n".utf8))
        }
        let other = GaussianMeans(codebooks: 1, densities: 4, vectorLengths: [2, 1], values: Array(repeating: 0, count: 12))
        #expect(throws: GaussianMeans.FormatError.mismatched) { try Self.small.moved(from: other, to: Self.small) }
    }
}
