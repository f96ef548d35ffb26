import CareLanguage
import Foundation
import Testing

/// The other-words files (`ResourceLocator.otherWords`): a word a line, a note after it, and
/// comments however they are indented.
struct OtherWordsFileTests {
    @Test func aLineGivesItsFirstFieldAndCommentsNone() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("other-words-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("models/zh-Hans")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "# made by hand\n  # indented\n\n妈 ma\n\t说\tshuo\n".write(to: folder.appendingPathComponent("other-words.txt"),
                                                                      atomically: true, encoding: .utf8)
        #expect(ResourceLocator(root: root).otherWords(for: Fixtures.chinese) == ["妈", "说"])
    }

    /// The files the program ships: no note or comment taken for a word.
    @Test func theShippedFilesHoldWordsOnly() {
        for table in [Fixtures.english, Fixtures.chinese] {
            let words = Fixtures.resources.otherWords(for: table)
            #expect(words.count >= 300, "\(table.id)")
            #expect(!words.contains { $0.hasPrefix("#") || $0.contains(where: \.isWhitespace) }, "\(table.id)")
        }
        #expect(!Fixtures.resources.otherWords(for: Fixtures.chinese).contains { $0.unicodeScalars.allSatisfy(\.isASCII) })
    }
}
