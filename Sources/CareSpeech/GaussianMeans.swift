import Foundation

/// The Gaussian means of an acoustic model, as the s3 float file `means` that pocketsphinx
/// (`-mean`) and sphinxtrain read and write. Pure: bytes in, bytes out.
public struct GaussianMeans: Equatable, Sendable {
    /// Codebooks (42 in Debian's phonetically tied en-us model), feature streams, Gaussians per
    /// codebook, and each stream's vector length (13, 13, 13).
    public var codebooks: Int
    public var densities: Int
    public var vectorLengths: [Int]
    /// Codebook-major: `[codebook][stream][density][component]`.
    public var values: [Float]

    public init(codebooks: Int, densities: Int, vectorLengths: [Int], values: [Float]) {
        precondition(values.count == codebooks * densities * vectorLengths.reduce(0, +))
        self.codebooks = codebooks
        self.densities = densities
        self.vectorLengths = vectorLengths
        self.values = values
    }

    public enum FormatError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case mismatched
        public var description: String {
            switch self {
            case .malformed(let what): return "not a means file: \(what)"
            case .mismatched: return "the means files are of different models"
            }
        }
    }

    /// Reads an s3 float file: text header lines to `endhdr`, the byte-order magic, the codebook,
    /// stream and density counts, each stream's length, the float count, the floats (and, after
    /// a `chksum0` header line, a checksum, which is not checked: the files are our own or the
    /// model's).
    public static func read(_ data: Data) throws -> GaussianMeans {
        guard let end = data.range(of: Data("endhdr\n".utf8)) else { throw FormatError.malformed("no endhdr line") }
        var reader = LittleEndianReader(data: data)
        reader.offset = end.upperBound - data.startIndex
        guard let magic = reader.int32(), UInt32(bitPattern: magic) == 0x1122_3344 else {
            throw FormatError.malformed("not little-endian, or no byte-order magic")
        }
        guard let codebooks = reader.int32(), let streams = reader.int32(), let densities = reader.int32(),
              codebooks > 0, streams > 0, densities > 0 else { throw FormatError.malformed("dimensions") }
        var lengths: [Int] = []
        for _ in 0..<streams {
            guard let length = reader.int32(), length > 0 else { throw FormatError.malformed("stream lengths") }
            lengths.append(Int(length))
        }
        let expected = Int(codebooks) * Int(densities) * lengths.reduce(0, +)
        guard let count = reader.int32(), Int(count) == expected, let bytes = reader.bytes(4 * expected) else {
            throw FormatError.malformed("the means end early or do not match their dimensions")
        }
        let values = stride(from: 0, to: bytes.count, by: 4).map { index in
            Float(bitPattern: UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
        }
        return GaussianMeans(codebooks: Int(codebooks), densities: Int(densities), vectorLengths: lengths, values: values)
    }

    /// The s3 file, without a checksum (as `MixtureWeights.s3File`).
    public func s3File() -> Data {
        var data = Data("s3\nversion 1.0\n  endhdr\n".utf8)  // padded so the numbers are 4-byte aligned
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(0x1122_3344)
        append(UInt32(codebooks)); append(UInt32(vectorLengths.count)); append(UInt32(densities))
        for length in vectorLengths { append(UInt32(length)) }
        append(UInt32(values.count))
        for value in values { append(value.bitPattern) }
        return data
    }

    /// These means moved `share` of the way `before` moved to become `after` (1: as far): what
    /// changed between two adaptations of one model to the same speech (heard clean, and heard
    /// in noise), applied to means that learned from none of it. The speakers both learned
    /// from cancel out.
    public func moved(from before: GaussianMeans, to after: GaussianMeans, share: Float = 1) throws -> GaussianMeans {
        guard before.hasShape(of: self), after.hasShape(of: self) else { throw FormatError.mismatched }
        var moved = self
        for index in values.indices { moved.values[index] += share * (after.values[index] - before.values[index]) }
        return moved
    }

    /// Throws unless the means file at `path` can be read and has the shape of the `model`
    /// means file's: what pocketsphinx may be given in their place (`-mean`).
    public static func fit(_ path: String, model: String) throws {
        let means = try read(Data(contentsOf: URL(fileURLWithPath: path)))
        guard means.hasShape(of: try read(Data(contentsOf: URL(fileURLWithPath: model)))) else { throw FormatError.mismatched }
    }

    func hasShape(of other: GaussianMeans) -> Bool {
        codebooks == other.codebooks && densities == other.densities && vectorLengths == other.vectorLengths
    }
}
