import CareLanguage
import CareModel
import Foundation

/// One recording of a speech corpus and what a correct recognizer concludes from it
/// (the format of ../shared/corpora/README.md).
public struct CorpusItem: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// One digit, heard where the assistant waits for a number.
        case digit
        /// A glucose reading, heard where the assistant waits for something new.
        case reading
        /// yes, no, help, emergency, cancel, repeat or back, heard where it waits for an answer.
        case command
        /// Something not meant for the assistant: acting on it is wrong.
        case reject
        /// One of the locale's enrollment phrases (its `text`): for learning the speaker's
        /// voice (`bench enrollment`), not scored.
        case enroll
    }

    public var file: URL
    public var kind: Kind
    public var expected: String
    /// The manifest line it came from, for messages.
    public var line: Int
    /// Who is speaking, when the corpus says (for per-speaker results).
    public var speaker: String?
    /// The words said, when the corpus says (needed to enroll from anything but digits and
    /// one-word commands).
    public var text: String?

    public init(file: URL, kind: Kind, expected: String, line: Int, speaker: String? = nil, text: String? = nil) {
        self.file = file
        self.kind = kind
        self.expected = expected
        self.line = line
        self.speaker = speaker
        self.text = text
    }
}

public struct ManifestError: Error, CustomStringConvertible, Equatable {
    public var description: String
}

public enum CorpusManifest {
    /// Reads `manifest.tsv`: a header line naming `file`, `kind` and `expected` (in any order;
    /// `speaker` and `text` optional, other columns ignored), then one recording a line; relative paths are
    /// relative to `directory`. Without a speaker column, FSDD's file names (DIGIT_SPEAKER_TAKE.wav)
    /// name the speaker.
    public static func parse(_ text: String, directory: URL) throws -> [CorpusItem] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .init(charactersIn: "\r")) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let header = lines.first?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) else {
            throw ManifestError(description: "the manifest is empty")
        }
        func column(_ name: String) throws -> Int {
            guard let index = header.firstIndex(of: name) else {
                throw ManifestError(description: "line 1: no column named \(name) (columns: \(header.joined(separator: ", ")))")
            }
            return index
        }
        let fileColumn = try column("file"), kindColumn = try column("kind"), expectedColumn = try column("expected")
        let speakerColumn = header.firstIndex(of: "speaker"), textColumn = header.firstIndex(of: "text")
        var items: [CorpusItem] = []
        for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty && !line.hasPrefix("#") {
            let number = offset + 1
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > max(fileColumn, kindColumn, expectedColumn) else {
                throw ManifestError(description: "line \(number): expected \(header.count) tab-separated columns, found \(fields.count)")
            }
            guard let kind = CorpusItem.Kind(rawValue: fields[kindColumn]) else {
                throw ManifestError(description: "line \(number): unknown kind \(fields[kindColumn]) "
                                    + "(one of \(CorpusItem.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            let expected = fields[expectedColumn]
            if let problem = ExpectedOutcome.problem(kind, expected) {
                throw ManifestError(description: "line \(number): \(problem)")
            }
            let path = fields[fileColumn]
            let file = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
            func optional(_ column: Int?) -> String? { column.flatMap { fields.indices.contains($0) ? fields[$0] : nil } }
            items.append(CorpusItem(file: file, kind: kind, expected: expected, line: number,
                                    speaker: optional(speakerColumn) ?? Self.speaker(fromFileName: file), text: optional(textColumn)))
        }
        return items
    }
}

extension CorpusManifest {
    /// The Free Spoken Digit Dataset names its files DIGIT_SPEAKER_TAKE.wav.
    static func speaker(fromFileName file: URL) -> String? {
        let parts = file.deletingPathExtension().lastPathComponent.split(separator: "_")
        guard parts.count == 3, parts[0].allSatisfy(\.isNumber), parts[2].allSatisfy(\.isNumber) else { return nil }
        return String(parts[1])
    }
}

/// What a correct recognizer concludes, as the manifest writes it.
public enum ExpectedOutcome: Sendable, Equatable {
    case digit(Int)
    case reading(value: Double, unit: GlucoseUnit, tag: MealTag?)
    case command(Command)
    case nothing

    public enum Command: String, Sendable, CaseIterable {
        case yes, no, help, emergency, cancel, `repeat`, back
    }

    public init?(_ kind: CorpusItem.Kind, _ text: String) {
        let parts = text.split(separator: " ").map(String.init)
        switch kind {
        case .digit:
            guard let d = Int(text), (0...9).contains(d), text.count == 1 else { return nil }
            self = .digit(d)
        case .reading:
            guard (2...3).contains(parts.count), let value = Double(parts[0]),
                  let unit = GlucoseUnit.parse(parts[1]) else { return nil }
            var tag: MealTag?
            if parts.count == 3 {
                guard let t = MealTag(rawValue: parts[2]) else { return nil }
                tag = t
            }
            self = .reading(value: value, unit: unit, tag: tag)
        case .command:
            guard let command = Command(rawValue: text) else { return nil }
            self = .command(command)
        case .reject, .enroll:
            guard text == "-" else { return nil }
            self = .nothing
        }
    }

    static func problem(_ kind: CorpusItem.Kind, _ text: String) -> String? {
        guard ExpectedOutcome(kind, text) == nil else { return nil }
        switch kind {
        case .digit: return "a digit item expects 0-9, not \(text)"
        case .reading: return "a reading expects VALUE UNIT [TAG] such as 6.5 mmol/L before-breakfast, not \(text)"
        case .command: return "a command expects one of \(Command.allCases.map(\.rawValue).joined(separator: ", ")), not \(text)"
        case .reject, .enroll: return "a \(kind.rawValue) item expects -, not \(text)"
        }
    }
}

/// Whether what the assistant heard in a recording is what the manifest expects. Pure: the
/// recognizer's transcripts go in, the same parsers the dialog uses judge them.
public struct RecognitionJudge: Sendable {
    public let table: LocaleTable
    /// The unit a number without one is taken in (the person's setting).
    public let preferredUnit: GlucoseUnit
    private let parser: UtteranceParser
    private let answers: ProfileAnswerParser

    public init(table: LocaleTable, preferredUnit: GlucoseUnit) {
        self.table = table
        self.preferredUnit = preferredUnit
        parser = UtteranceParser(table: table)
        answers = ProfileAnswerParser(table: table)
    }

    /// Where the assistant is when it hears this kind of item: the grammar it decodes with.
    public func context(for kind: CorpusItem.Kind, expected: String) -> ListeningContext {
        switch kind {
        case .reading, .reject, .enroll: return .reading
        case .digit: return .question(.contactPhone)
        // "Back" is an answer only where there is something to go back to.
        case .command: return expected == ExpectedOutcome.Command.back.rawValue ? .confirmation : .answer
        }
    }

    /// Right when the recording gave exactly one utterance and it means what was expected; for
    /// a reject item, right when nothing heard would be acted on.
    public func isRight(heard: [String], kind: CorpusItem.Kind, expected: String) -> Bool {
        let said = heard.filter { !$0.isEmpty }
        guard let outcome = ExpectedOutcome(kind, expected) else { return false }
        if case .nothing = outcome { return said.allSatisfy { parser.parse($0) == .unknown } }
        guard said.count == 1 else { return false }
        let text = said[0]
        switch outcome {
        case .digit(let digit):
            return answers.phoneNumber(text) == String(digit)
        case .reading(let value, let unit, let tag):
            guard case .glucose(let draft) = parser.parse(text) else { return false }
            return isReading(draft, value: value, unit: unit, tag: tag)
        case .command(let command):
            switch command {
            case .help, .emergency: return parser.parse(text) == .emergency
            case .back: return answers.navigation(text) == .back
            case .yes: return parser.parse(text) == .answer(.yes)
            case .no: return parser.parse(text) == .answer(.no)
            case .cancel: return parser.parse(text) == .answer(.cancel)
            case .repeat: return parser.parse(text) == .answer(.repeat)
            }
        case .nothing:
            return false
        }
    }

    private func isReading(_ draft: GlucoseDraft, value: Double, unit: GlucoseUnit, tag: MealTag?) -> Bool {
        guard case .level(_, let heardUnit) = GlucoseUnitInference.interpret(draft.value, explicit: draft.unit,
                                                                             preferred: preferredUnit) else { return false }
        return abs(draft.value - value) < 1e-9 && heardUnit == unit && draft.tag == tag
    }

    /// The words a reading heard wrong is kept with once the person corrects its number on the
    /// editable line (`ConfirmedSpeech.wordsSaid`): when one utterance was heard and only its
    /// number was wrong. Nil otherwise, and for items that are not readings.
    public func correctedWords(heard: [String], kind: CorpusItem.Kind, expected: String) -> [String]? {
        guard heard.count == 1, case .reading(let value, let unit, let tag)? = ExpectedOutcome(kind, expected),
              let number = expected.split(separator: " ").first.map(String.init),
              case .glucose(let draft) = parser.parse(heard[0]) else { return nil }
        var corrected = draft
        corrected.number = number
        guard isReading(corrected, value: value, unit: unit, tag: tag) else { return nil }
        return ConfirmedSpeech.wordsSaid(heard: heard[0], heardAs: draft, saved: corrected, numbers: NumberWords(table.numbers))
    }
}
