import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CareTerminal

@Suite struct OutputStyleTests {
    private let terminalEnvironment = ["TERM": "xterm-256color"]

    @Test func colourOnATerminalByDefault() {
        let style = OutputStyle.detect(plainRequested: false, environment: terminalEnvironment, stdoutIsTerminal: true)
        #expect(style.useColor)
        #expect(style.emphasis("Saved") == "\u{1B}[1mSaved\u{1B}[0m")
        #expect(style.warning("High").contains("\u{1B}["))
    }

    @Test func noColorTurnsColourOffWhateverItsValue() {
        for value in ["1", "0", "false", "yes"] {
            var environment = terminalEnvironment
            environment["NO_COLOR"] = value
            #expect(!OutputStyle.detect(plainRequested: false, environment: environment, stdoutIsTerminal: true).useColor)
        }
    }

    @Test func emptyNoColorIsIgnoredAsNoColorOrgSays() {
        var environment = terminalEnvironment
        environment["NO_COLOR"] = ""
        #expect(OutputStyle.detect(plainRequested: false, environment: environment, stdoutIsTerminal: true).useColor)
    }

    @Test func plainFlagTurnsColourOff() {
        #expect(!OutputStyle.detect(plainRequested: true, environment: terminalEnvironment, stdoutIsTerminal: true).useColor)
    }

    @Test func noColourWhenStdoutIsNotATerminal() {
        #expect(!OutputStyle.detect(plainRequested: false, environment: terminalEnvironment, stdoutIsTerminal: false).useColor)
    }

    @Test func noColourOnADumbTerminal() {
        #expect(!OutputStyle.detect(plainRequested: false, environment: ["TERM": "dumb"], stdoutIsTerminal: true).useColor)
    }

    @Test func plainStyleAddsNoEscapeCodes() {
        let style = OutputStyle(useColor: false)
        #expect(style.emphasis("血糖 6.5") == "血糖 6.5")
        #expect(style.warning("Too high") == "Too high")
    }
}

@Suite(.serialized) struct ConsoleTests {
    /// Runs `body` with stdout redirected into a pipe and returns what was written.
    private func capturingStdout(_ body: () -> Void) throws -> String {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        fflush(stdout)
        let saved = dup(STDOUT_FILENO)
        dup2(fds[1], STDOUT_FILENO)
        close(fds[1])
        let collected = NSMutableData()
        let finished = DispatchSemaphore(value: 0)
        let readEnd = fds[0]
        nonisolated(unsafe) let sink = collected   // read only after `finished`
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(readEnd, &buffer, buffer.count)
                if n <= 0 { break }
                sink.append(buffer, length: n)
            }
            finished.signal()
        }.start()
        body()
        fflush(stdout)
        dup2(saved, STDOUT_FILENO)
        close(saved)
        finished.wait()
        close(fds[0])
        return String(decoding: collected as Data, as: UTF8.self)
    }

    @Test func linesFromManyThreadsStayWhole() throws {
        let expected = (0..<8).flatMap { thread in (0..<50).map { "thread \(thread) line \($0) 血糖 六点五" } }
        let output = try capturingStdout {
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for index in 0..<50 { Console.line("thread \(thread) line \(index) 血糖 六点五") }
            }
        }
        let lines = Set(output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        for line in expected { #expect(lines.contains(line)) }
        #expect(output.hasSuffix("\n"))
    }
}
