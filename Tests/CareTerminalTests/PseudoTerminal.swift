import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import CareTerminal

struct PseudoTerminalError: Error, CustomStringConvertible {
    let description: String
}

/// A pseudo-terminal pair: the editor runs on the slave side in-process, the test
/// types on the master side, and a background thread collects what was drawn so the
/// editor never blocks on a full output buffer.
final class PseudoTerminal: @unchecked Sendable {
    let master: Int32
    let slave: Int32
    private let lock = NSLock()
    private var captured: [UInt8] = []
    private var draining = true
    private var masterOpen = true
    private let drainFinished = DispatchSemaphore(value: 0)

    init() throws {
        // posix_openpt and friends are hidden from Swift's Glibc module (they need
        // _XOPEN_SOURCE), so do what they do on Linux: open the multiplexer, unlock,
        // ask for the slave's number. TIOCSPTLCK/TIOCGPTN are _IOW/_IOR macros Swift
        // cannot import; these are their asm-generic values (x86-64, arm64).
        let setLock: UInt = 0x4004_5431, getNumber: UInt = 0x8004_5430
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
            throw PseudoTerminalError(description: "cannot open a pseudo-terminal: errno \(errno)")
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            close(master)
            throw PseudoTerminalError(description: "cannot open /dev/pts/\(number)")
        }
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        let thread = Thread { [self] in drain() }
        thread.name = "pty-drain"
        thread.start()
    }

    deinit {
        hangUp()
        close(slave)
    }

    /// Closes the master side, as when a terminal window is closed.
    func hangUp() {
        lock.withLock { draining = false }
        guard lock.withLock({ masterOpen }) else { return }
        drainFinished.wait()
        lock.withLock { masterOpen = false }
        close(master)
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while lock.withLock({ draining }) {
            var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 10) > 0 else { continue }
            let n = read(master, &buffer, buffer.count)
            if n > 0 {
                lock.withLock { captured.append(contentsOf: buffer[0..<n]) }
            } else if n < 0 && errno != EINTR && errno != EAGAIN {
                usleep(2_000)   // EIO while no slave process reads: keep polling
            }
        }
        drainFinished.signal()
    }

    /// Everything the editor wrote so far.
    var output: String {
        lock.withLock { String(decoding: captured, as: UTF8.self) }
    }

    /// Types keys as one burst, like a terminal sends one key's sequence.
    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(master, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    var localFlags: tcflag_t {
        var settings = termios()
        _ = tcgetattr(slave, &settings)
        return settings.c_lflag
    }

    /// Canonical mode with echo and signals: the state a shell leaves a terminal in.
    var isInNormalMode: Bool {
        let flags = localFlags
        return flags & tcflag_t(ICANON) != 0 && flags & tcflag_t(ECHO) != 0 && flags & tcflag_t(ISIG) != 0
    }

    /// True once the editor has put the terminal in its editing mode. Keys typed
    /// before that would be cooked by the kernel's line discipline instead.
    func waitUntilEditing(timeout: TimeInterval = 3) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if localFlags & tcflag_t(ICANON) == 0 { return true }
            usleep(1_000)
        }
        return false
    }

    func waitForOutput(containing text: String, timeout: TimeInterval = 3) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.contains(text) { return true }
            usleep(1_000)
        }
        return false
    }
}

/// Runs readLine on its own thread, as the app does.
final class ReadSession: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: LineEditor.Outcome?
    let editor: LineEditor

    init(editor: LineEditor, prompt: String, prefill: String) {
        self.editor = editor
        let thread = Thread { [self] in
            let outcome = editor.readLine(prompt: prompt, prefill: prefill)
            lock.withLock { result = outcome }
            done.signal()
        }
        thread.start()
    }

    /// The outcome, or nil if readLine did not return in time (it is then interrupted so the test can end).
    func outcome(timeout: TimeInterval = 3) -> LineEditor.Outcome? {
        if done.wait(timeout: .now() + timeout) == .timedOut {
            editor.interrupt()
            _ = done.wait(timeout: .now() + 2)
            return nil
        }
        return lock.withLock { result }
    }
}
