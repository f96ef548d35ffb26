import Foundation

/// The reports `carevoice report` wrote, newest first, kept beside the database so that
/// `carevoice email` can offer them (`reports.json`; the last 20).
public struct ReportLog: Sendable {
    public struct Entry: Codable, Sendable, Equatable {
        public var path: String
        public var made: Date
        public var from: Date
        public var to: Date
        public var readings: Int
        public var pages: Int

        public init(path: String, made: Date, from: Date, to: Date, readings: Int, pages: Int) {
            self.path = path
            self.made = made
            self.from = from
            self.to = to
            self.readings = readings
            self.pages = pages
        }
    }

    public let directory: DataDirectory
    static let keep = 20

    public init(directory: DataDirectory) { self.directory = directory }

    var url: URL { directory.url.appendingPathComponent("reports.json") }

    /// Newest first; those whose file is gone are left out. An unreadable log is an empty one
    /// (it only offers choices; the reports themselves are files).
    public func entries() -> [Entry] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let entries = (try? decoder.decode([Entry].self, from: data)) ?? []
        return entries.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    public func record(_ entry: Entry) throws {
        try directory.prepare()
        let kept = [entry] + entries().filter { $0.path != entry.path }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(Array(kept.prefix(Self.keep))).write(to: url, options: .atomic)
    }
}
