import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How output should look. Colour only when stdout is a terminal and neither NO_COLOR nor --plain is set.
///
/// Colour never carries meaning on its own: screen readers do not announce it, so
/// every styled text must read correctly without it.
public struct OutputStyle: Sendable, Equatable {
    public var useColor: Bool

    public init(useColor: Bool) {
        self.useColor = useColor
    }

    /// No escape codes at all.
    public static let plain = OutputStyle(useColor: false)

    public static func detect(
        plainRequested: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        stdoutIsTerminal: Bool = isatty(STDOUT_FILENO) == 1
    ) -> OutputStyle {
        if plainRequested || !stdoutIsTerminal { return .plain }
        // no-color.org: NO_COLOR counts when present and not empty, whatever its value.
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .plain }
        // A dumb terminal (Emacs shell, some braille setups) would show the codes as text.
        if environment["TERM"] == "dumb" { return .plain }
        return OutputStyle(useColor: true)
    }

    /// Bold when colour is on, else the text unchanged.
    public func emphasis(_ text: String) -> String {
        styled(text, code: "1")
    }

    /// Bold red when colour is on, else the text unchanged (the wording must say it is a warning).
    public func warning(_ text: String) -> String {
        styled(text, code: "1;31")
    }

    private func styled(_ text: String, code: String) -> String {
        guard useColor, !text.isEmpty else { return text }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
