import CareModel
import Foundation

/// Finds the project's data folders (`locales/`, `models/`) at run time.
///
/// Order: `$CAREVOICE_HOME`, then the folders above the running executable
/// (a build under `.build/` finds the checkout it was built from), then
/// `/usr/local/share/carevoice` and `/usr/share/carevoice`.
public struct ResourceLocator: Sendable {
    public var root: URL

    public init(root: URL) { self.root = root }

    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment,
                            executable: String = CommandLine.arguments.first ?? "") -> ResourceLocator? {
        var candidates: [URL] = []
        if let home = environment["CAREVOICE_HOME"], !home.isEmpty {
            candidates.append(URL(fileURLWithPath: home))
        }
        var dir = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(dir)
            dir = dir.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        candidates.append(URL(fileURLWithPath: "/usr/local/share/carevoice"))
        candidates.append(URL(fileURLWithPath: "/usr/share/carevoice"))
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("locales/en.yaml").path) {
            return ResourceLocator(root: candidate)
        }
        return nil
    }

    public var localesDirectory: URL { root.appendingPathComponent("locales") }
    public var modelsDirectory: URL { root.appendingPathComponent("models") }

    /// The locale table `id`, with the other languages' calls for help beside its own
    /// (`LocaleTable.emergencyInOtherLanguages`).
    public func loadLocale(_ id: String) throws -> LocaleTable {
        var table = try parseLocale(id)
        // A table that cannot be read costs only its own calls for help, never this language.
        table.emergencyInOtherLanguages = Language.allCases.map(\.rawValue).filter { $0 != id }
            .flatMap { (try? parseLocale($0))?.emergency ?? [] }
        return table
    }

    private func parseLocale(_ id: String) throws -> LocaleTable {
        let url = localesDirectory.appendingPathComponent("\(id).yaml")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw LocaleTableError.notFound(id) }
        return try LocaleTable.parse(yaml: text, file: url.lastPathComponent)
    }

    /// What turns the locale's text into pinyin for its voice, if it needs that.
    public func pinyinSpeller(for table: LocaleTable) throws -> PinyinSpeller? {
        guard let folder = table.speech.pinyinTables else { return nil }
        return try PinyinSpeller.load(from: modelsDirectory.appendingPathComponent(folder))
    }

    /// The means file for telephone-band recordings (`LocaleTable.Speech.narrowbandMeans`), nil
    /// when the locale has none.
    public func narrowbandMeans(for table: LocaleTable) -> URL? {
        table.speech.narrowbandMeans.map { modelsDirectory.appendingPathComponent($0) }
    }

    /// The means file for a noisy room (`LocaleTable.Speech.noisyRoomMeans`), nil when the
    /// locale has none.
    public func noisyRoomMeans(for table: LocaleTable) -> URL? {
        table.speech.noisyRoomMeans.map { modelsDirectory.appendingPathComponent($0) }
    }

    /// The locale's other words (`LocaleTable.Speech.otherWords`), in the file's order; none
    /// when it has none or the file cannot be read. A line's first field is its word; what
    /// follows is a note (a character's pinyin).
    public func otherWords(for table: LocaleTable) -> [String] {
        guard let relative = table.speech.otherWords,
              let text = try? String(contentsOf: modelsDirectory.appendingPathComponent(relative), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: \.isWhitespace).first.map(String.init)
        }.filter { !$0.hasPrefix("#") }
    }

    /// Extra pronunciations for the recognizer, as word -> phones: the locale's extra dictionary,
    /// and the other language's calls for help it listens for, spelled through their pinyin
    /// (`LocaleTable.Speech.heardCallsForHelp`; one that cannot be spelled is left out, and the
    /// test of every spoken word's pronunciation names it).
    public func extraPronunciations(for table: LocaleTable) -> [String: String] {
        var pronunciations: [String: String] = [:]
        if let relative = table.speech.extraDictionary,
           let text = try? String(contentsOf: modelsDirectory.appendingPathComponent(relative), encoding: .utf8) {
            pronunciations = Pronunciations.parse(text)
        }
        if let heard = table.speech.heardCallsForHelp {
            let folder = modelsDirectory.appendingPathComponent(heard.pinyinTables)
            if let speller = try? PinyinSpeller.load(from: folder), let phones = try? PinyinPhones.load(from: folder) {
                for phrase in heard.phrases {
                    pronunciations[phrase] = phones.pronunciation(of: phrase, speller: speller)
                }
            }
        }
        return pronunciations
    }
}

/// The CMUdict text format: `word PHONE PHONE ...`, alternatives as `word(2)`.
public enum Pronunciations {
    public static func parse(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, !line.hasPrefix(";;;") else { continue }
            result[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    /// Just the words of a dictionary file (without alternates), for checking grammars.
    public static func words(inDictionaryText text: String) -> Set<String> {
        var words = Set<String>()
        for line in text.split(separator: "\n") {
            guard let end = line.firstIndex(where: { $0 == " " || $0 == "\t" || $0 == "(" }) else { continue }
            words.insert(String(line[..<end]))
        }
        return words
    }
}
