import Foundation

/// A diary or meal note: a title, free text, tags and pictures, at a moment.
public struct DiaryEntry: Sendable, Equatable {
    public var id: Int64?
    public var takenAt: Date
    public var utcOffsetSeconds: Int
    public var title: String
    public var body: String
    /// Preset tag keys ("breakfast") or the person's own tags, lower case, each once.
    public var tags: [String]
    /// File names in the data directory's `pictures/` (content hash and extension).
    public var pictures: [String]

    public init(id: Int64? = nil, takenAt: Date, utcOffsetSeconds: Int, title: String, body: String,
                tags: [String] = [], pictures: [String] = []) {
        self.id = id
        self.takenAt = takenAt
        self.utcOffsetSeconds = utcOffsetSeconds
        self.title = title
        self.body = body
        self.tags = tags
        self.pictures = pictures
    }

    /// The day where it was written.
    public var localDay: CalendarDay { CalendarDay(takenAt, utcOffsetSeconds: utcOffsetSeconds) }

    /// Tags as a person writes them ("Breakfast", " stress ") made canonical, each once, in order.
    public static func normalizedTags(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        return tags.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}

/// The picture formats a diary accepts, recognised by their first bytes, never by their name.
public enum PictureFormat: String, Sendable, CaseIterable {
    case jpeg, png, heic, webp

    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    public static func detect(_ bytes: [UInt8]) -> PictureFormat? {
        func at(_ offset: Int, _ ascii: String) -> Bool {
            let expected = Array(ascii.utf8)
            return bytes.count >= offset + expected.count && Array(bytes[offset..<(offset + expected.count)]) == expected
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if at(0, "RIFF") && at(8, "WEBP") { return .webp }
        // ISO base media: a "ftyp" box whose brand is one of HEIF's.
        if at(4, "ftyp"), bytes.count >= 12, ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(where: { at(8, $0) }) {
            return .heic
        }
        return nil
    }
}
