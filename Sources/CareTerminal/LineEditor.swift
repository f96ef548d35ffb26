import CEditLine
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads one line from a real terminal with libedit's native API, pre-filled with editable text (el_push), cursor at the end.
///
/// Design notes:
/// - libedit never reads the terminal itself: a custom read function (EL_GETCFN) polls
///   the terminal and a self-pipe together, so `interrupt()` can end a read at once, a
///   lone Escape can be told from an arrow key, and UTF-8 is decoded without relying on
///   the C library's multibyte state.
/// - Ctrl-C: ISIG is switched off for the editing termios only (`setty -d -isig`), so
///   Ctrl-C (the terminal's VINTR key) arrives as a byte and cancels the line. No signal
///   handler is installed; Ctrl-C outside the editor still sends SIGINT as usual.
///   The same holds for Ctrl-Z and Ctrl-\, which do nothing while editing.
/// - libedit's own signal handling (EL_SIGNAL) stays off: it swaps process-wide handlers
///   on every line and re-raises with kill(0, …) to the whole process group.
///   libedit re-reads the window size at the start of every line anyway.
/// - After `readLine` returns, the terminal is in its normal mode again and the cursor
///   is at the start of a fresh line, whatever the outcome.
/// - One line at a time: concurrent `readLine` calls wait for each other.
public final class LineEditor: @unchecked Sendable {
    public enum Outcome: Equatable, Sendable {
        case accepted(String)   // Enter; the line as it stands (may equal the prefill, may be empty)
        case cancelled          // Escape (a lone ESC, not the start of an arrow-key sequence) or Ctrl-C while editing
        case endOfInput         // Ctrl-D on an empty line, or the terminal went away
        case interrupted        // interrupt() was called from another thread (the user answered by voice)
    }

    /// How long to wait after ESC for the rest of a key sequence. Terminals send a
    /// key's whole sequence in one burst, so silence this long means Escape alone.
    static let escapeWaitMilliseconds: Int32 = 50

    /// Lines kept for Up-arrow recall.
    static let historySize: Int32 = 100

    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private let inputFD: Int32
    private let inputFile: UnsafeMutablePointer<FILE>
    private let outputFile: UnsafeMutablePointer<FILE>
    private let wakeReadFD: Int32
    private let wakeWriteFD: Int32

    /// Serialises readLine; also guards libedit's history.
    private let readLock = NSLock()
    /// Guards `reading` and `pendingHistory` against other threads.
    private let stateLock = NSLock()
    private var reading = false
    private var pendingHistory: [String] = []

    // Touched only by the thread inside readLine (and libedit's callbacks on it).
    private var promptBuffer: UnsafeMutablePointer<wchar_t>
    private var outcome: Outcome?
    private var pushedBack: UInt8?
    private var decoder = UTF8KeyDecoder()
    private var cancelKeys: Set<UInt8> = [0x03]
    private var endKeys: Set<UInt8> = [0x04]

    /// nil when stdin is not a terminal (then the caller reads plain lines instead).
    /// Also nil when output is not a terminal (libedit cannot edit without one) or when
    /// no UTF-8 locale can be set (not even C.UTF-8).
    public init?(programName: String = "carevoice", input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        // libedit decides at el_init whether the charset is UTF-8, and prints wide characters through the locale.
        guard LineEditor.localeIsUTF8 else { return nil }

        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { return nil }
        for fd in pipeFDs {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        // Own copies of the descriptors: fclose in deinit must not close the caller's.
        let inputCopy = fcntl(input, F_DUPFD_CLOEXEC, 0)
        let outputCopy = fcntl(output, F_DUPFD_CLOEXEC, 0)
        let inFile = inputCopy >= 0 ? fdopen(inputCopy, "r") : nil
        let outFile = outputCopy >= 0 ? fdopen(outputCopy, "w") : nil
        let editLine: OpaquePointer? = (inFile != nil && outFile != nil)
            ? LineEditor.libeditLock.withLock { el_init(programName, inFile, outFile, stderr) }
            : nil
        let history = editLine != nil ? history_winit() : nil
        guard let editLine, let history, let inFile, let outFile else {
            if let editLine { LineEditor.libeditLock.withLock { el_end(editLine) } }
            if let inFile { fclose(inFile) } else if inputCopy >= 0 { close(inputCopy) }
            if let outFile { fclose(outFile) } else if outputCopy >= 0 { close(outputCopy) }
            pipeFDs.forEach { _ = close($0) }
            return nil
        }

        self.editLine = editLine
        self.history = history
        self.inputFD = inputCopy
        self.inputFile = inFile
        self.outputFile = outFile
        self.wakeReadFD = pipeFDs[0]
        self.wakeWriteFD = pipeFDs[1]
        self.promptBuffer = LineEditor.wideBuffer("")
        configure()
    }

    deinit {
        // el_end restores the terminal settings saved at el_init, with TCSAFLUSH (typeahead is dropped).
        LineEditor.libeditLock.withLock { el_end(editLine) }
        history_wend(history)
        fclose(inputFile)
        fclose(outputFile)
        close(wakeReadFD)
        close(wakeWriteFD)
        promptBuffer.deallocate()
    }

    private func configure() {
        _ = carevoice_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        _ = LineEditor.withWideString("emacs") { carevoice_el_set_editor(editLine, $0) }
        _ = carevoice_el_set_signal(editLine, 0)
        _ = LineEditor.withWideString("-isig") { carevoice_el_setty_edit_mode(editLine, $0) }
        _ = carevoice_el_set_getcfn(editLine, lineEditorReadCharacter)
        _ = carevoice_el_set_prompt(editLine, lineEditorPrompt)
        _ = carevoice_history_set_size(history, LineEditor.historySize)
        _ = carevoice_history_set_unique(history, 1)
        _ = carevoice_el_set_history(editLine, history)
    }

    /// Blocks until the user finishes the line. prompt is printed before the line (plain text, no escape codes).
    /// A prompt of several lines prints all but the last as ordinary lines; the last one stays beside the edited text.
    public func readLine(prompt: String, prefill: String = "") -> Outcome {
        readLock.lock()
        defer { readLock.unlock() }
        applyPendingHistory()

        // Text from print() and Console must reach the screen before the editor draws.
        fflush(stdout)
        var promptLines = prompt.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        let editPrompt = LineEditor.printable(promptLines.removeLast())
        for line in promptLines { write(LineEditor.printable(line) + "\n") }
        setPrompt(editPrompt)

        readSpecialKeys()
        outcome = nil
        pushedBack = nil
        decoder.reset()
        stateLock.withLock {
            drainWakePipe()
            reading = true
        }
        // Pushed text is read back as if typed, so the cursor ends after it.
        let text = LineEditor.printable(prefill)
        if !text.isEmpty {
            LineEditor.withWideString(text) { el_wpush(editLine, $0) }
        }

        var count: Int32 = 0
        let line = el_wgets(editLine, &count)

        stateLock.withLock {
            reading = false
            drainWakePipe()
        }

        let result: Outcome
        if let outcome {
            result = outcome
        } else if let line, count > 0 {
            result = .accepted(LineEditor.string(from: line, count: Int(count)))
        } else {
            result = .endOfInput
        }
        // libedit ends an accepted line itself; otherwise the cursor is still beside the text.
        if case .accepted = result {} else { write("\n") }
        return result
    }

    /// Thread-safe: makes a readLine in progress return .interrupted promptly (< 100 ms); no effect if none in progress.
    public func interrupt() {
        stateLock.withLock {
            guard reading else { return }
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWriteFD, &byte, 1)
        }
    }

    /// Thread-safe. Adds a line for Up-arrow recall; blank lines are ignored.
    public func addHistory(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace) else { return }
        // libedit's history is not thread-safe: while a line is being read, queue it.
        if readLock.try() {
            enterHistory(line)
            readLock.unlock()
        } else {
            stateLock.withLock { pendingHistory.append(line) }
        }
    }

    // MARK: - Reading keys (called by libedit on the reading thread)

    /// libedit's EL_GETCFN: one character into `out`, 1 on success, -1 to end el_wgets
    /// (after setting `outcome`).
    fileprivate func readCharacter(into out: UnsafeMutablePointer<wchar_t>) -> Int32 {
        while true {
            let byte: UInt8
            switch nextByte() {
            case .byte(let b): byte = b
            case .interrupted: return finish(.interrupted)
            case .closed: return finish(.endOfInput)
            }

            if !decoder.isMidCharacter {
                if byte == 0x1B {
                    switch waitForInput(timeoutMilliseconds: LineEditor.escapeWaitMilliseconds) {
                    case .ready:
                        // The start of a key sequence (arrow, Alt+key): let libedit match it.
                        out.pointee = 0x1B
                        return 1
                    case .timedOut: return finish(.cancelled)
                    case .interrupted: return finish(.interrupted)
                    case .closed: return finish(.endOfInput)
                    }
                }
                if cancelKeys.contains(byte) { return finish(.cancelled) }
                // Ctrl-D on an empty line ends input here, so libedit does not echo "^D".
                if endKeys.contains(byte) && lineIsEmpty { return finish(.endOfInput) }
            }

            switch decoder.feed(byte) {
            case .scalar(let scalar):
                out.pointee = wchar_t(bitPattern: scalar.value)
                return 1
            case .needMore:
                continue
            case .invalid(let reprocess):
                pushedBack = reprocess
                continue
            }
        }
    }

    private enum ByteRead { case byte(UInt8), interrupted, closed }
    private enum Wait { case ready, timedOut, interrupted, closed }

    private func nextByte() -> ByteRead {
        if let byte = pushedBack {
            pushedBack = nil
            return .byte(byte)
        }
        while true {
            switch waitForInput(timeoutMilliseconds: -1) {
            case .ready: break
            case .interrupted: return .interrupted
            case .closed, .timedOut: return .closed
            }
            var byte: UInt8 = 0
            let n = Glibc.read(inputFD, &byte, 1)
            if n == 1 { return .byte(byte) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return .closed   // 0 = end of file; EIO = the terminal hung up
        }
    }

    /// Waits for a terminal byte or the interrupt pipe; the pipe wins when both are ready.
    private func waitForInput(timeoutMilliseconds: Int32) -> Wait {
        if pushedBack != nil { return .ready }
        var fds = [
            pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let n = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
            if n < 0 {
                if errno == EINTR { continue }
                return .closed
            }
            if n == 0 { return .timedOut }
            if fds[0].revents != 0 { return .interrupted }
            if fds[1].revents & Int16(POLLIN) != 0 { return .ready }
            return .closed   // POLLHUP, POLLERR or POLLNVAL without data
        }
    }

    private func finish(_ result: Outcome) -> Int32 {
        outcome = result
        return -1
    }

    private var lineIsEmpty: Bool {
        guard let info = el_wline(editLine) else { return true }
        return info.pointee.buffer == info.pointee.lastchar
    }

    /// The terminal's own interrupt and end-of-file keys, as set with stty, plus the usual Ctrl-C and Ctrl-D.
    private func readSpecialKeys() {
        cancelKeys = [0x03]
        endKeys = [0x04]
        var settings = termios()
        guard tcgetattr(inputFD, &settings) == 0 else { return }
        withUnsafeBytes(of: settings.c_cc) { cc in
            // 0 is _POSIX_VDISABLE on Linux: the key is switched off.
            if cc[Int(VINTR)] != 0 { cancelKeys.insert(cc[Int(VINTR)]) }
            if cc[Int(VEOF)] != 0 { endKeys.insert(cc[Int(VEOF)]) }
        }
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while Glibc.read(wakeReadFD, &buffer, buffer.count) > 0 {}
    }

    // MARK: - Prompt, output, history

    fileprivate var currentPrompt: UnsafeMutablePointer<wchar_t> { promptBuffer }

    private func setPrompt(_ text: String) {
        promptBuffer.deallocate()
        promptBuffer = LineEditor.wideBuffer(text)
    }

    /// Through libedit's own stream, so it stays in order with what libedit drew.
    private func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = fwrite(bytes.baseAddress, 1, bytes.count, outputFile)
        }
        fflush(outputFile)
    }

    private func applyPendingHistory() {
        let lines = stateLock.withLock {
            defer { pendingHistory.removeAll() }
            return pendingHistory
        }
        lines.forEach(enterHistory)
    }

    private func enterHistory(_ line: String) {
        _ = LineEditor.withWideString(LineEditor.printable(line)) { carevoice_history_enter(history, $0) }
    }

    // MARK: - Helpers

    /// libedit is not thread-safe across instances while it sets up the terminal (termcap globals).
    private static let libeditLock = NSLock()

    /// Switches LC_CTYPE to UTF-8 once, process-wide, if it is not already: libedit
    /// measures and prints wide characters through the C locale, and a C/POSIX locale
    /// would show Chinese as octal escapes. Tries the environment's locale, then C.UTF-8.
    static let localeIsUTF8: Bool = {
        func isUTF8() -> Bool { String(cString: nl_langinfo(nl_item(CODESET))) == "UTF-8" }
        if isUTF8() { return true }
        if setlocale(LC_CTYPE, "") != nil, isUTF8() { return true }
        if setlocale(LC_CTYPE, "C.UTF-8") != nil, isUTF8() { return true }
        return false
    }()

    /// Control characters would act as keys when pushed (a newline would accept the
    /// line) and as escape codes when printed; tabs and the like become spaces.
    static func printable(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F: scalars.append(" ")
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    static func withWideString<R>(_ text: String, _ body: (UnsafePointer<wchar_t>) throws -> R) rethrows -> R {
        var units = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        units.append(0)
        return try units.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    static func wideBuffer(_ text: String) -> UnsafeMutablePointer<wchar_t> {
        let units = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        let buffer = UnsafeMutablePointer<wchar_t>.allocate(capacity: units.count + 1)
        buffer.initialize(from: units, count: units.count)
        buffer[units.count] = 0
        return buffer
    }

    /// The edited line without libedit's trailing newline.
    static func string(from line: UnsafePointer<wchar_t>, count: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for index in 0..<count {
            if let scalar = Unicode.Scalar(UInt32(bitPattern: line[index])) { scalars.append(scalar) }
        }
        if scalars.last == "\n" { scalars.removeLast() }
        return String(scalars)
    }

    fileprivate static func from(_ editLine: OpaquePointer?) -> LineEditor? {
        guard let editLine, let data = carevoice_el_get_clientdata(editLine) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }
}

// libedit callbacks: plain C functions that find their editor through EL_CLIENTDATA.

private let lineEditorReadCharacter: el_rfunc_t = { editLine, out in
    guard let out, let editor = LineEditor.from(editLine) else { return -1 }
    return editor.readCharacter(into: out)
}

private let lineEditorPrompt: carevoice_el_wprompt_t = { editLine in
    LineEditor.from(editLine)?.currentPrompt
}
