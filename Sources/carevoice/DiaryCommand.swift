import ArgumentParser
import CareLanguage
import CareModel
import CareStore
import CareTerminal
import Foundation

/// Diary and meal notes from the command line: list, add (read back, saved after a yes unless
/// --yes), delete. Pictures are checked by their first bytes and stored once by content.
struct DiaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diary", abstract: "Your diary and meal notes: list them, add one, delete one.",
        subcommands: [DiaryList.self, DiaryAdd.self, DiaryEdit.self, DiaryDelete.self, DiaryTags.self], defaultSubcommand: DiaryList.self)
}

struct DiaryList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List notes, newest first.")

    enum Order: String, ExpressibleByArgument, CaseIterable { case date, title, tag }

    @OptionGroup var common: CommonOptions
    @Option(help: "Sort by date (newest first), title or tag.") var sort: Order = .date
    @Option(help: "Only notes with this tag.") var tag: String?
    @Option(help: "Only notes on or after this day (YYYY-MM-DD).") var from: String?
    @Option(help: "Only notes on or before this day (YYYY-MM-DD).") var to: String?
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        for day in [from, to].compactMap({ $0 }) where CalendarDay(iso: day) == nil {
            throw ValidationError("\(day) is not a day written as YYYY-MM-DD")
        }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let library = PictureLibrary(dataDirectory: env.dataDirectory)
        var entries = try openStore(env).diaryEntries()
        if let tag {
            let key = env.table.diary.canonicalTag(tag) ?? tag.lowercased()
            entries = entries.filter { $0.tags.contains(key) }
        }
        let first = from.flatMap(CalendarDay.init(iso:)), last = to.flatMap(CalendarDay.init(iso:))
        entries = entries.filter { entry in
            let day = entry.localDay
            return (first.map { day >= $0 } ?? true) && (last.map { day <= $0 } ?? true)
        }
        switch sort {
        case .date: break
        case .title: entries.sort { $0.title.localizedCaseInsensitiveCompare($1.title) == .orderedAscending }
        case .tag: entries.sort { ($0.tags.first ?? "\u{10FFFF}", $1.takenAt) < ($1.tags.first ?? "\u{10FFFF}", $0.takenAt) }
        }
        if json {
            let items = entries.map { ExportFormat.Note($0, library: library) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return print(String(decoding: try encoder.encode(items), as: UTF8.self))
        }
        guard !entries.isEmpty else { return Console.line(env.phrasebook.text(.diaryNone)) }
        for entry in entries { Console.line(env.phrasebook.text(.diaryLine, env.phrasebook.noteFields(entry))) }
    }
}

struct DiaryAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a note (read back; saved after your yes).")

    @OptionGroup var common: CommonOptions
    @Option(help: "The title (default: the first words of the body).") var title: String?
    @Option(help: "The text of the note.") var body = ""
    @Option(help: "A tag (again for several): a preset one by name or number (carevoice diary tags), or your own.")
    var tag: [String] = []
    @Option(help: "A picture to attach (JPEG, PNG, HEIC or WebP; again for several).") var picture: [String] = []
    @Option(help: "When it happened (default now): \"yesterday at dinner\", \"at 7 pm\", \"2026-05-01 12:30\".") var when: String?
    @Flag(help: "Save without asking.") var yes = false

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let title = (title ?? DiaryEntry.title(fromBody: body)).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw CommandFailure(book.text(.diaryNeedsTitle)) }
        let tags = try canonicalTags(tag, env: env)
        let now = Date()
        let (takenAt, offset) = try when.map { try resolveWhen($0, env: env, now: now) } ?? (now, TimeZone.current.secondsFromGMT(for: now))
        let entry = DiaryEntry(takenAt: takenAt, utcOffsetSeconds: offset, title: title, body: body, tags: DiaryEntry.normalizedTags(tags))
        let store = try openStore(env)
        let library = PictureLibrary(dataDirectory: env.dataDirectory)
        // Every picture is checked before the question, so a yes is never answered in vain.
        for path in picture {
            do { _ = try PictureLibrary.check(path) } catch let problem as PictureLibrary.Problem {
                throw CommandFailure(book.text(.diaryPictureProblem, ["problem": problem.description]))
            }
        }
        var fields = book.noteFields(entry)
        fields["pictures"] = String(picture.count)
        guard confirmed(book.text(.diaryReadBack, fields), unlessYes: yes, env: env) else { return Console.line(book.text(.diaryNotSaved)) }
        let saved: DiaryEntry
        do {
            saved = try store.saveDiary(entry, pictures: picture, library: library)
        } catch let problem as PictureLibrary.Problem {
            throw CommandFailure(book.text(.diaryPictureProblem, ["problem": problem.description]))
        }
        Console.line(book.text(.diarySaved, book.noteFields(saved)))
    }
}

/// Tags as given on the command line: a preset by name, synonym or number, or the person's own.
func canonicalTags(_ given: [String], env: AppEnvironment) throws -> [String] {
    let words = env.table.diary
    return try given.map { tag in
        guard let key = words.canonicalTag(tag) else {
            throw CommandFailure(env.phrasebook.text(.diaryNoSuchTag, ["number": tag, "count": String(words.tags.count)]))
        }
        return key
    }
}

/// The note with this number, or the message that there is none.
func existingNote(_ id: Int64, in store: Store, env: AppEnvironment) throws -> DiaryEntry {
    guard let entry = try store.diaryEntry(id: id) else { throw CommandFailure(env.phrasebook.text(.diaryNoSuch, ["id": String(id)])) }
    return entry
}

/// Changes a note's title, text, tags or time (its pictures stay): read back, done after a yes.
struct DiaryEdit: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a note (read back; changed after your yes).")

    @OptionGroup var common: CommonOptions
    @Argument(help: "The note's number, as the list shows it.") var id: Int64
    @Option(help: "A new title.") var title: String?
    @Option(help: "A new text.") var body: String?
    @Option(help: "The tags it has from now on (again for several; they replace the old ones).") var tag: [String] = []
    @Flag(help: "Take all tags off.") var noTags = false
    @Option(help: "When it happened: \"yesterday at dinner\", \"at 7 pm\", \"2026-05-01 12:30\".") var when: String?
    @Flag(help: "Change it without asking.") var yes = false

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let store = try openStore(env)
        let entry = try existingNote(id, in: store, env: env)
        var changed = entry
        if let title { changed.title = title.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let body { changed.body = body }
        guard !changed.title.isEmpty else { throw CommandFailure(book.text(.diaryNeedsTitle)) }
        if noTags { changed.tags = [] }
        if !tag.isEmpty { changed.tags = DiaryEntry.normalizedTags(try canonicalTags(tag, env: env)) }
        if let when { (changed.takenAt, changed.utcOffsetSeconds) = try resolveWhen(when, env: env) }
        guard changed != entry else { return Console.line(book.text(.editNotChanged)) }
        guard confirmed(book.text(.diaryAskChange, book.noteFields(changed)), unlessYes: yes, env: env) else {
            return Console.line(book.text(.editNotChanged))
        }
        _ = try store.apply(.changeNote(changed, was: entry))
        Console.line(book.text(.diaryChanged, book.noteFields(changed)))
    }
}

struct DiaryDelete: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a note (and its pictures no other note shows).")

    @OptionGroup var common: CommonOptions
    @Argument(help: "The note's number, as the list shows it.") var id: Int64
    @Flag(help: "Delete without asking.") var yes = false

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let store = try openStore(env)
        let entry = try existingNote(id, in: store, env: env)
        guard confirmed(book.text(.diaryAskDelete, book.noteFields(entry)), unlessYes: yes, env: env) else {
            return Console.line(book.text(.diaryNotDeleted))
        }
        _ = try store.deleteDiary(id: id, library: PictureLibrary(dataDirectory: env.dataDirectory))
        Console.line(book.text(.diaryDeleted, book.noteFields(entry)))
    }
}

struct DiaryTags: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tags", abstract: "The preset tags, numbered, and your own.")

    @OptionGroup var common: CommonOptions

    func run() throws {
        let env = try AppEnvironment.make(common)
        let presets = env.table.diary.tags
        for (index, tag) in presets.enumerated() {
            Console.line(env.phrasebook.text(.diaryPresetTag, ["number": String(index + 1), "name": tag.speak]))
        }
        var seen = Set(presets.map(\.key))
        let own = try openStore(env).diaryEntries().reversed().flatMap(\.tags).filter { seen.insert($0).inserted }
        if !own.isEmpty { Console.line(env.phrasebook.text(.diaryOwnTags, ["tags": own.joined(separator: env.table.lists.separator)])) }
    }
}
