import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes whole lines to stdout and flushes (no partial lines, no carriage-return redraws). Thread-safe.
///
/// Screen readers announce what is appended to the screen, so every write is one
/// complete line, flushed at once, never interleaved with another thread's line.
public enum Console {
    private static let lock = NSLock()

    public static func line(_ text: String) {
        write(text, to: stdout)
    }

    /// Same, on stderr.
    public static func error(_ text: String) {
        write(text, to: stderr)
    }

    private static func write(_ text: String, to stream: UnsafeMutablePointer<FILE>) {
        var whole = text + "\n"
        lock.lock()
        defer { lock.unlock() }
        // Anything print() left in stdout's buffer belongs before this line.
        fflush(stdout)
        // fwrite, not fputs: the text may legitimately contain NUL.
        whole.withUTF8 { bytes in
            _ = fwrite(bytes.baseAddress, 1, bytes.count, stream)
        }
        fflush(stream)
    }
}

/// Plain lines when stdin is not a terminal: readLine() from stdin, nil at end of input.
public enum PlainLineReader {
    public static func readLine() -> String? {
        Swift.readLine(strippingNewline: true)
    }
}
