/// SplitMix64: a tiny, well-mixed generator whose sequence depends only on its seed. For
/// reproducible choices (benchmark readings, grammar samples, dither), never for secrets.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A sequence of its own for the thing `key` names, under `seed`: what is drawn for one thing
    /// stays the same when other things are added or taken away (FNV-1a of the key's UTF-8).
    public init(seed: UInt64, key: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        state = seed ^ hash
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
