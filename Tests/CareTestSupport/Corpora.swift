import Foundation

/// The shared test corpora: `shared/corpora` beside the checkout, as CI has them.
public enum Corpora {
    /// Real people saying single digits at 8 kHz (../shared/corpora/fsdd-digits/README.md).
    public static let fsddDigits = CLI.root.deletingLastPathComponent().appendingPathComponent("shared/corpora/fsdd-digits")

    /// One FSDD recording: `fsdd(7, "jackson", take: 3)` is jackson's fourth "seven".
    public static func fsdd(_ digit: Int, _ speaker: String, take: Int) -> URL {
        fsddDigits.appendingPathComponent("wav/\(digit)_\(speaker)_\(take).wav")
    }
}
