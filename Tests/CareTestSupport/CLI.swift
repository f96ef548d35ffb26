import Foundation

/// Runs the real `carevoice` binary that `swift build` produced.
public enum CLI {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var binary: URL {
        for configuration in ["debug", "release"] {
            let url = root.appendingPathComponent(".build/\(configuration)/carevoice")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return root.appendingPathComponent(".build/debug/carevoice")
    }

    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs the binary to completion with `input` on stdin (then closed) and NO_COLOR set.
    ///
    /// Pipes are read with read(2) retried on EINTR: with many children running at once a
    /// SIGCHLD lands in the middle of a read, and FileHandle.readDataToEndOfFile traps on that.
    /// stderr is drained on its own thread, so a child that writes a lot to it cannot stall.
    public static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:],
                           executable: URL? = nil) throws -> Result {
        signal(SIGPIPE, SIG_IGN)   // a child that exits before reading its input must not kill us
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()

        let stderrDone = DispatchSemaphore(value: 0)
        let stderrData = LockedData()
        Thread {
            stderrData.set(readAll(err.fileHandleForReading.fileDescriptor))
            stderrDone.signal()
        }.start()
        if let input { writeAll(Data(input.utf8), to: inp.fileHandleForWriting.fileDescriptor) }
        // Through the handle, which owns the descriptor: a close(2) behind its back would let it
        // close the same number again later, by then perhaps Foundation's own child monitor.
        try inp.fileHandleForWriting.close()
        let stdout = readAll(out.fileHandleForReading.fileDescriptor)
        stderrDone.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderrData.get(), as: UTF8.self))
    }

    /// Everything until end of file, retrying reads a signal interrupted.
    public static func readAll(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { data.append(contentsOf: buffer[0..<n]); continue }
            if n < 0 && errno == EINTR { continue }
            return data
        }
    }

    /// All of `data`, retrying writes a signal interrupted; stops quietly if the reader is gone.
    public static func writeAll(_ data: Data, to fd: Int32) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }

    private final class LockedData: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ value: Data) { lock.withLock { data = value } }
        func get() -> Data { lock.withLock { data } }
    }

    /// A CareVoice home (`CAREVOICE_HOME`) whose English table has no means for telephone-band
    /// audio: every recording is heard, and every voice learned, with the acoustic model's own.
    public static func homeWithoutNarrowbandMeans(in directory: URL) throws -> URL {
        let home = directory.appendingPathComponent("home-full-band")
        let fm = FileManager.default
        try fm.createDirectory(at: home.appendingPathComponent("locales"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(at: home.appendingPathComponent("models"), withDestinationURL: root.appendingPathComponent("models"))
        for file in try fm.contentsOfDirectory(atPath: root.appendingPathComponent("locales").path) {
            var text = try String(contentsOf: root.appendingPathComponent("locales/\(file)"), encoding: .utf8)
            text = text.replacingOccurrences(of: "narrowbandMeans: en-us/narrowband-means", with: "narrowbandMeans: null")
            try text.write(to: home.appendingPathComponent("locales/\(file)"), atomically: true, encoding: .utf8)
        }
        return home
    }

    /// A new empty directory under the system's temporary directory.
    public static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("carevoice-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `body` given a new empty directory, which is removed afterwards.
    public static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) rethrows -> T {
        let url = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url)
    }
}

extension CLI {
    /// Typed answers to every onboarding question, each confirmed, and the final yes.
    public static let onboardingAnswers = [
        "English", "mmol/L", "metric", "March 4 1948", "170 cm", "70 kg", "female", "type two", "Canada",
        "Anna Li", "604 555 0199", "twelve hours",
    ].map { "\($0)\nyes\n" }.joined() + "yes\n"

    /// Sets up a person in `dataDirectory` as onboarding would, so a session starts with readings.
    @discardableResult
    public static func onboard(_ dataDirectory: URL) throws -> Result {
        let run = try run(["onboarding", "--no-speech", "--data-dir", dataDirectory.path], input: onboardingAnswers)
        guard run.stdout.contains("All saved.") else {
            throw SpokenFixtures.FixtureError(description: "onboarding did not complete: \(run.stdout)\(run.stderr)")
        }
        return run
    }
}
