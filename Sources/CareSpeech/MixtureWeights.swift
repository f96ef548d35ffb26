import Foundation

/// The mixture weights of a phonetically tied acoustic model, moved between the two files that
/// hold them. pocketsphinx reads a quantized `sendump`; sphinxtrain's `bw` and `map_adapt` read
/// and write float `mixture_weights`. Debian's en-us model ships only the sendump, so adapting it
/// to a voice starts by converting it (sphinxtrain's own converter is Python 2). Pure: bytes in,
/// bytes out.
public struct MixtureWeights: Equatable, Sendable {
    public var senones: Int
    public var features: Int
    public var densities: Int
    /// Probabilities, senone-major: `[senone][feature][density]` (sphinxtrain's order).
    public var values: [Float]

    public init(senones: Int, features: Int, densities: Int, values: [Float]) {
        precondition(values.count == senones * features * densities)
        self.senones = senones
        self.features = features
        self.densities = densities
        self.values = values
    }

    public subscript(senone: Int, feature: Int, density: Int) -> Float {
        values[(senone * features + feature) * densities + density]
    }

    public enum FormatError: Error, Equatable, CustomStringConvertible {
        case truncated(String)
        case unsupported(String)
        public var description: String {
            switch self {
            case .truncated(let what): return "the sendump ends early (\(what))"
            case .unsupported(let what): return "unsupported sendump: \(what)"
            }
        }
    }

    /// pocketsphinx's log base (`-logbase`, default 1.0001) and the shift of its 8-bit mixture
    /// weight table (SENSCR_SHIFT): a stored byte q means probability logbase^(-q * 2^shift).
    static let logBase = 1.0001
    static let scoreShift = 10

    /// Reads pocketsphinx's `sendump` (as `read_sendump` in ptm_mgau.c): length-prefixed header
    /// strings ending with an empty one, the row and column counts, then one byte per
    /// (feature, density, senone). Clustered (4-bit) dumps are not used by Debian's models and are
    /// refused.
    public static func readSendump(_ data: Data) throws -> MixtureWeights {
        var reader = LittleEndianReader(data: data)
        var features = 1, clusters = 0
        while true {
            guard let length = reader.int32() else { throw FormatError.truncated("header") }
            if length == 0 { break }
            guard length > 0, let bytes = reader.bytes(Int(length)) else { throw FormatError.truncated("header string") }
            let line = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) {
                switch parts[0] {
                case "feature_count": features = value
                case "cluster_count": clusters = value
                default: break
                }
            }
        }
        guard clusters == 0 else { throw FormatError.unsupported("clustered weights (cluster_count \(clusters))") }
        guard let rows = reader.int32(), let columns = reader.int32(), rows > 0, columns > 0 else {
            throw FormatError.truncated("dimensions")
        }
        let densities = Int(rows), senones = Int(columns)
        guard let bytes = reader.bytes(features * densities * senones) else { throw FormatError.truncated("weights") }
        // One table lookup per byte value instead of an exp per weight.
        let scale = Double(1 << scoreShift) * log(logBase)
        let probability = (0...255).map { Float(exp(-Double($0) * scale)) }
        var values = [Float](repeating: 0, count: bytes.count)
        bytes.withUnsafeBufferPointer { source in
            var index = 0
            for feature in 0..<features {
                for density in 0..<densities {
                    for senone in 0..<senones {
                        values[(senone * features + feature) * densities + density] = probability[Int(source[index])]
                        index += 1
                    }
                }
            }
        }
        return MixtureWeights(senones: senones, features: features, densities: densities, values: values)
    }

    /// sphinxtrain's `mixture_weights` file (s3 header, byte-order magic, dimensions, floats).
    /// No `chksum0` line: with one, `bw` fails with only "initialization failed".
    public func s3File() -> Data {
        var data = Data("s3\nversion 1.0\n  endhdr\n".utf8)  // padded so the numbers are 4-byte aligned
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(0x1122_3344)
        append(UInt32(senones)); append(UInt32(features)); append(UInt32(densities)); append(UInt32(values.count))
        for value in values { append(value.bitPattern) }
        return data
    }
}

/// Reads little-endian numbers and byte runs from the front of `data`.
struct LittleEndianReader {
    let data: Data
    var offset = 0

    init(data: Data) { self.data = data }

    mutating func int32() -> Int32? {
        guard offset + 4 <= data.count else { return nil }
        defer { offset += 4 }
        let raw = data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        return Int32(bitPattern: UInt32(littleEndian: raw))
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, offset + count <= data.count else { return nil }
        let start = data.startIndex + offset
        offset += count
        return [UInt8](data[start..<(start + count)])
    }
}
