import Foundation

/// One change to what is on record: what the assistant asks the store to do after a yes, and
/// what it keeps so that "undo" can take the change back.
public enum RecordEdit: Sendable, Equatable {
    /// A new reading, or one put back under the id it had.
    case addReading(GlucoseReading)
    /// A reading given a new value (or tag, or time); `was` is how it stood before.
    case changeReading(GlucoseReading, was: GlucoseReading)
    case deleteReading(GlucoseReading)
    /// A new note, or one put back under the id it had. `pictures` are the contents of picture
    /// files the note needs that may no longer be on disk (after a delete), by file name.
    case addNote(DiaryEntry, pictures: [String: Data] = [:])
    /// A note given a new title, text, tags or time (its pictures stay); `was` is how it stood.
    case changeNote(DiaryEntry, was: DiaryEntry)
    /// Deleting a note; `pictures` as above, kept so an undo can bring them back.
    case deleteNote(DiaryEntry, pictures: [String: Data] = [:])

    /// The change that takes this one back. Ids are those the store gave, so the edit to undo
    /// must be the one the store reported as done.
    public var inverse: RecordEdit {
        switch self {
        case .addReading(let reading): return .deleteReading(reading)
        case .changeReading(let now, let was): return .changeReading(was, was: now)
        case .deleteReading(let reading): return .addReading(reading)
        case .addNote(let entry, let pictures): return .deleteNote(entry, pictures: pictures)
        case .changeNote(let now, let was): return .changeNote(was, was: now)
        case .deleteNote(let entry, let pictures): return .addNote(entry, pictures: pictures)
        }
    }
}

extension DiaryEntry {
    /// A title from a note's first words, for a note given without one.
    public static func title(fromBody body: String, words: Int = 6) -> String {
        var title = body.split(whereSeparator: \.isWhitespace).prefix(words).joined(separator: " ")
        // Chinese has no spaces between words: its first clause, at most 12 characters.
        if title.unicodeScalars.contains(where: { (0x4E00...0x9FFF).contains($0.value) }) {
            title = String(title.prefix { !"，。！？；,.!?;".contains($0) }.prefix(12))
        }
        return title.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:!?，。；：！？").union(.whitespaces))
    }
}
