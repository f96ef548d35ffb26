/// Turns terminal bytes into Unicode scalars one byte at a time.
///
/// The editor reads the terminal itself (to watch the interrupt pipe at the same
/// time), so it must assemble multi-byte UTF-8 characters itself as well.
/// Malformed input is dropped rather than shown as U+FFFD: a stray byte from a
/// confused terminal should not appear in a health record.
struct UTF8KeyDecoder: Sendable {
    enum Step: Equatable, Sendable {
        case scalar(Unicode.Scalar)
        case needMore
        /// The bytes so far are not UTF-8. If `reprocess` is set, that byte was not a
        /// continuation byte and starts something new: feed it again.
        case invalid(reprocess: UInt8?)
    }

    private var value: UInt32 = 0
    private var remaining = 0
    private var minimum: UInt32 = 0

    var isMidCharacter: Bool { remaining > 0 }

    mutating func feed(_ byte: UInt8) -> Step {
        if remaining > 0 {
            guard byte & 0xC0 == 0x80 else {
                reset()
                return .invalid(reprocess: byte)
            }
            value = value << 6 | UInt32(byte & 0x3F)
            remaining -= 1
            guard remaining == 0 else { return .needMore }
            let complete = value
            let least = minimum
            reset()
            // Overlong forms and surrogates are not characters.
            guard complete >= least, let scalar = Unicode.Scalar(complete) else { return .invalid(reprocess: nil) }
            return .scalar(scalar)
        }
        switch byte {
        case 0x00...0x7F:
            return .scalar(Unicode.Scalar(byte))
        case 0xC2...0xDF:
            start(UInt32(byte & 0x1F), following: 1, minimum: 0x80)
        case 0xE0...0xEF:
            start(UInt32(byte & 0x0F), following: 2, minimum: 0x800)
        case 0xF0...0xF4:
            start(UInt32(byte & 0x07), following: 3, minimum: 0x10000)
        default:
            return .invalid(reprocess: nil)
        }
        return .needMore
    }

    mutating func reset() {
        value = 0
        remaining = 0
        minimum = 0
    }

    private mutating func start(_ bits: UInt32, following: Int, minimum: UInt32) {
        value = bits
        remaining = following
        self.minimum = minimum
    }
}
