import Foundation

/// ALSA without a sound card: devices of the `file` plugin over the `null` device. A microphone
/// captures what it reads from its input file (or FIFO), then the null device's silence; a speaker
/// writes what is played to its output file. ALSA finds them through ALSA_CONFIG_PATH.
public enum VirtualAudio {
    public struct Device: Sendable {
        public var name: String
        /// Where what is played goes ("/dev/null" for a microphone).
        public var output: String
        /// What the device captures; nil for a speaker.
        public var input: String?

        public static func microphone(_ name: String, reading input: URL) -> Device {
            Device(name: name, output: "/dev/null", input: input.path)
        }

        public static func speaker(_ name: String, writing output: URL) -> Device {
            Device(name: name, output: output.path, input: nil)
        }
    }

    /// Writes an ALSA configuration (the system's, plus `devices`) to `url`, for ALSA_CONFIG_PATH.
    public static func writeConfiguration(_ devices: [Device], to url: URL) throws {
        let blocks = devices.map { device in
            """
            pcm.\(device.name) {
                type file
                slave.pcm "null"
                file "\(device.output)"
            \(device.input.map { "    infile \"\($0)\"\n" } ?? "")    format "raw"
            }
            """
        }
        try (["</usr/share/alsa/alsa.conf>"] + blocks).joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
    }
}
