import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import CareTerminal

private let enter = "\r"
private let backspace = "\u{7F}"
private let escape = "\u{1B}"
private let leftArrow = "\u{1B}[D"
private let upArrow = "\u{1B}[A"
private let ctrlC = "\u{03}"
private let ctrlD = "\u{04}"
private let ctrlU = "\u{15}"

/// Real libedit on a real pseudo-terminal. Serialized: libedit's terminal set-up uses
/// termcap globals, and the app only ever has one editor.
@Suite(.serialized)
struct LineEditorTests {
    /// Starts readLine, waits until the terminal is in editing mode, types each burst, returns the outcome.
    private func edit(
        prompt: String = "Value: ", prefill: String = "", keys: [String],
        on terminal: PseudoTerminal? = nil, editor existing: LineEditor? = nil
    ) throws -> (outcome: LineEditor.Outcome?, terminal: PseudoTerminal) {
        let terminal = try terminal ?? PseudoTerminal()
        let editor = try #require(existing ?? LineEditor(input: terminal.slave, output: terminal.slave))
        let session = ReadSession(editor: editor, prompt: prompt, prefill: prefill)
        try #require(terminal.waitUntilEditing(), "the editor never switched the terminal to editing mode")
        for burst in keys {
            terminal.type(burst)
            usleep(5_000)   // well under the Escape wait, so a key's sequence is never split
        }
        return (session.outcome(), terminal)
    }

    @Test func enterAcceptsThePrefillUnchanged() throws {
        let (outcome, terminal) = try edit(prefill: "6.5", keys: [enter])
        #expect(outcome == .accepted("6.5"))
        #expect(terminal.output.contains("Value: 6.5"))
    }

    /// A diary note longer than the terminal is wide spans several rows; the cursor starts at its
    /// end, and Enter gives back the whole text.
    @Test func aNoteWiderThanTheTerminalIsEditedAtItsEnd() throws {
        let note = "Porridge with banana and a spoon of peanut butter for breakfast, then a long walk along the river "
            + "with Mei and the dog, and a cup of green tea without sugar at the cafe by the bridge"
        #expect(note.count > 2 * 80)
        let (outcome, _) = try edit(prompt: "Heard: ", prefill: note, keys: [" and honey", enter])
        #expect(outcome == .accepted(note + " and honey"))
    }

    @Test func backspacesAndTypingEditThePrefill() throws {
        let (outcome, _) = try edit(prefill: "blood sugar 6.5", keys: [backspace + backspace + backspace, "7.2", enter])
        #expect(outcome == .accepted("blood sugar 7.2"))
    }

    @Test func ctrlUKillsTheWholeLine() throws {
        let (outcome, _) = try edit(prefill: "blood sugar 6.5", keys: [ctrlU, enter])
        #expect(outcome == .accepted(""))
    }

    @Test func enterOnAnEmptyLineAcceptsEmptyText() throws {
        let (outcome, _) = try edit(keys: [enter])
        #expect(outcome == .accepted(""))
    }

    @Test func loneEscapeCancels() throws {
        let (outcome, _) = try edit(prefill: "6.5", keys: [escape])
        #expect(outcome == .cancelled)
    }

    @Test func arrowKeyIsNotMistakenForEscape() throws {
        let (outcome, _) = try edit(prefill: "6.5", keys: [leftArrow, leftArrow, "1", enter])
        #expect(outcome == .accepted("61.5"))
    }

    @Test func ctrlCCancelsWithoutASignal() throws {
        let (outcome, terminal) = try edit(prefill: "6.5", keys: [ctrlC])
        #expect(outcome == .cancelled)
        #expect(terminal.isInNormalMode)
    }

    @Test func ctrlDOnAnEmptyLineEndsInput() throws {
        let (outcome, terminal) = try edit(keys: [ctrlD])
        #expect(outcome == .endOfInput)
        #expect(!terminal.output.contains("^D"))
    }

    @Test func ctrlDOnTextDoesNotEndInput() throws {
        let (outcome, _) = try edit(prefill: "6.5", keys: [ctrlD, enter])
        #expect(outcome == .accepted("6.5"))
    }

    @Test func closedTerminalEndsInput() throws {
        let terminal = try PseudoTerminal()
        let editor = try #require(LineEditor(input: terminal.slave, output: terminal.slave))
        let session = ReadSession(editor: editor, prompt: "Value: ", prefill: "6.5")
        try #require(terminal.waitUntilEditing())
        terminal.hangUp()
        #expect(session.outcome() == .endOfInput)
    }

    @Test func interruptFromAnotherThreadReturnsPromptly() throws {
        let terminal = try PseudoTerminal()
        let editor = try #require(LineEditor(input: terminal.slave, output: terminal.slave))
        let session = ReadSession(editor: editor, prompt: "Value: ", prefill: "6.5")
        try #require(terminal.waitUntilEditing())
        let start = Date()
        DispatchQueue.global().async { editor.interrupt() }
        // Measured at about 1 ms idle and 0.2 s while the rest of the suite decodes audio on both
        // cores; a broken interrupt never returns, so a 1 s bound still tells the two apart.
        let outcome = session.outcome(timeout: 1)
        let elapsed = Date().timeIntervalSince(start)
        #expect(outcome == .interrupted)
        #expect(elapsed < 1, "took \(elapsed) s")
        #expect(terminal.isInNormalMode)
    }

    @Test func interruptWithNoReadInProgressHasNoEffect() throws {
        let terminal = try PseudoTerminal()
        let editor = try #require(LineEditor(input: terminal.slave, output: terminal.slave))
        editor.interrupt()
        let (outcome, _) = try edit(prefill: "6.5", keys: [enter], on: terminal, editor: editor)
        #expect(outcome == .accepted("6.5"))
    }

    @Test func chinesePrefillEditsByCharacter() throws {
        let (outcome, terminal) = try edit(prefill: "血糖 六点五", keys: [backspace, "八", enter])
        #expect(outcome == .accepted("血糖 六点八"))
        #expect(terminal.output.contains("血糖 六点五"))
    }

    @Test func typedChineseAndMovingLeftInsertInTheMiddle() throws {
        let (outcome, _) = try edit(keys: ["血糖六点五", leftArrow, leftArrow, leftArrow, " ", enter])
        #expect(outcome == .accepted("血糖 六点五"))
    }

    @Test func latin1LettersAreTypedNotTakenAsMetaKeys() throws {
        // libedit looks characters below U+0100 up in its key map, where 0x80 + c once
        // meant Meta-c (ä = M-d, delete word). Every printable one must insert itself.
        let all = String(String.UnicodeScalarView((0xA0...0xFF).map { Unicode.Scalar(UInt8($0)) }))
        let (outcome, _) = try edit(keys: [all, enter])
        #expect(outcome == .accepted(all))
        let (middle, _) = try edit(prefill: "Blutzucker", keys: [leftArrow, leftArrow, "ä", enter])
        #expect(middle == .accepted("Blutzuckäer"))
    }

    @Test func controlCharactersInThePrefillDoNotActAsKeys() throws {
        let (outcome, _) = try edit(prefill: "a\nb\tc\u{1B}d", keys: [enter])
        #expect(outcome == .accepted("a b c d"))
    }

    @Test func terminalIsBackInNormalModeAfterEachOutcome() throws {
        let terminal = try PseudoTerminal()
        let before = terminal.localFlags
        let editor = try #require(LineEditor(input: terminal.slave, output: terminal.slave))
        for keys in [[enter], [escape], [ctrlC], [ctrlD]] {
            _ = try edit(keys: keys, on: terminal, editor: editor)
            #expect(terminal.localFlags == before, "after \(keys.debugDescription)")
        }
    }

    @Test func consecutiveLinesOnOneEditor() throws {
        let terminal = try PseudoTerminal()
        let editor = try #require(LineEditor(input: terminal.slave, output: terminal.slave))
        let first = try edit(prompt: "Systolic: ", prefill: "120", keys: [enter], on: terminal, editor: editor)
        let second = try edit(prompt: "Diastolic: ", prefill: "80", keys: [backspace, "5", enter], on: terminal, editor: editor)
        #expect(first.outcome == .accepted("120"))
        #expect(second.outcome == .accepted("85"))
    }

    @Test func upArrowRecallsHistory() throws {
        let terminal = try PseudoTerminal()
        let editor = try #require(LineEditor(input: terminal.slave, output: terminal.slave))
        editor.addHistory("血糖 六点五")
        let (outcome, _) = try edit(keys: [upArrow, enter], on: terminal, editor: editor)
        #expect(outcome == .accepted("血糖 六点五"))
    }

    @Test func multiLinePromptPrintsEarlierLinesFirst() throws {
        let (outcome, terminal) = try edit(prompt: "Reading 2 of 3\nValue: ", keys: [enter])
        #expect(outcome == .accepted(""))
        let output = terminal.output
        let heading = try #require(output.range(of: "Reading 2 of 3\r\n"))
        let prompt = try #require(output.range(of: "Value: "))
        #expect(heading.upperBound <= prompt.lowerBound)
    }

    @Test func noEditorWhenInputIsNotATerminal() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { fds.forEach { _ = close($0) } }
        #expect(LineEditor(input: fds[0], output: fds[1]) == nil)
    }
}

@Suite struct UTF8KeyDecoderTests {
    private func decode(_ bytes: [UInt8]) -> [UTF8KeyDecoder.Step] {
        var decoder = UTF8KeyDecoder()
        return bytes.map { decoder.feed($0) }
    }

    @Test func assemblesMultiByteCharacters() {
        #expect(decode(Array("血".utf8)) == [.needMore, .needMore, .scalar("血")])
        #expect(decode(Array("ä".utf8)) == [.needMore, .scalar("ä")])
        #expect(decode(Array("🩸".utf8)).last == .scalar("🩸"))
        #expect(decode([0x41]) == [.scalar("A")])
    }

    @Test func rejectsMalformedInput() {
        #expect(decode([0xE8, 0x41]) == [.needMore, .invalid(reprocess: 0x41)])
        #expect(decode([0x80]) == [.invalid(reprocess: nil)])
        #expect(decode([0xC0]) == [.invalid(reprocess: nil)])                          // overlong lead
        #expect(decode([0xE0, 0x80, 0x80]).last == .invalid(reprocess: nil))           // overlong
        #expect(decode([0xED, 0xA0, 0x80]).last == .invalid(reprocess: nil))           // surrogate
    }
}
