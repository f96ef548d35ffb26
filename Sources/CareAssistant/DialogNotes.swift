import CareLanguage
import CareModel
import Foundation

/// A diary note understood and read back, waiting for the person's yes.
public struct PendingNote: Sendable, Equatable {
    /// The note with its time resolved; pictures are attached when it is saved.
    public var entry: DiaryEntry
    /// Paths of pictures already checked, to copy in on saving.
    public var pictures: [String]
    /// The note as the editable line shows it; Enter on it unchanged means yes.
    public var editableText: String
    /// Heard by dictation: the read-back says how often notes are misheard.
    public var heard: Bool
}

/// Diary notes in the conversation: "add a note" (then the note, dictated or typed), "note:
/// porridge for breakfast", "I had rice and fish for dinner". The note is read back and shown
/// on an editable line; a corrected line is understood again and saved as it stands.
extension Dialog {
    mutating func requestNote(_ request: NoteRequest, source: EntrySource, now: Date) -> [DialogEffect] {
        switch request {
        case .start:
            state = .dictatingNote
            return [prompt(phrasebook.message(.noteAsk)), .listen(.dictation)]
        case .text(let text):
            return understandNote(text, pictures: [], heard: source == .voice, now: now)
        }
    }

    /// The words given for "what would you like to note?".
    mutating func answerNoteQuestion(_ text: String, source: EntrySource, now: Date) -> [DialogEffect] {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { return [] }
        switch parser.parse(line) {
        case .emergency:
            return [.showEmergency, prompt(phrasebook.message(.noteAsk)), .listen(.dictation)]
        case .quit:
            state = .finished
            return [.say(phrasebook.message(.noteNotSaved)), .say(phrasebook.message(.goodbye)), .exit]
        case .answer(.no), .answer(.cancel):
            return leaveNote()
        case .answer(.repeat):
            return [.say(phrasebook.message(.noteAsk)), .listen(.dictation)]
        case .note(.text(let rest)):
            return understandNote(rest, pictures: [], heard: source == .voice, now: now)
        default:
            return understandNote(line, pictures: [], heard: source == .voice, now: now)
        }
    }

    private mutating func understandNote(_ text: String, pictures: [String], heard: Bool, now: Date) -> [DialogEffect] {
        guard let draft = parser.note(text) else {
            state = .dictatingNote
            return [prompt(phrasebook.message(.noteEmpty)), .listen(.dictation)]
        }
        var takenAt = now
        if let time = draft.time {
            do {
                takenAt = try time.resolve(now: now, calendar: phrasebook.calendar)
            } catch TimeExpression.ResolutionError.inFuture {
                state = .dictatingNote
                return [prompt(phrasebook.message(.futureTime)), .listen(.dictation)]
            } catch {
                state = .dictatingNote
                return [prompt(phrasebook.message(.notUnderstood)), .listen(.dictation)]
            }
        }
        let entry = DiaryEntry(takenAt: takenAt, utcOffsetSeconds: phrasebook.calendar.timeZone.secondsFromGMT(for: takenAt),
                               title: draft.title, body: draft.body, tags: draft.tags)
        return readBack(PendingNote(entry: entry, pictures: pictures, editableText: draft.text, heard: heard), now: now)
    }

    mutating func readBack(_ pending: PendingNote, now: Date) -> [DialogEffect] {
        state = .confirmingNote(pending)
        let fields = phrasebook.noteFields(pending.entry)
        let pictures = pending.pictures.isEmpty ? Message("")
            : phrasebook.message(.notePictures, ["count": Message(String(pending.pictures.count))])
        var effects: [DialogEffect] = [prompt(phrasebook.message(.noteReadBack, [
            "text": Message(pending.entry.body), "tags": Message(fields["tags"] ?? ""),
            "when": Message(phrasebook.describeTime(pending.entry.takenAt, now: now)), "pictures": pictures]))]
        if pending.heard { effects.append(.say(phrasebook.message(.noteHeardHint))) }
        return effects + reshow(pending)
    }

    private func reshow(_ pending: PendingNote) -> [DialogEffect] {
        [.showEditable(prompt: phrasebook.text(.heardPrompt), text: pending.editableText,
                       hints: EditHints(terminal: phrasebook.text(.noteEditHint), plain: phrasebook.text(.noteAnswerPrompt))),
         .listen(.noteAnswer)]
    }

    /// The answer to "Save it?": yes, no, "read it back", "attach a picture", or (typed) the
    /// corrected note, which is understood again and saved as it stands.
    mutating func answerNote(_ text: String, pending: PendingNote, byKeyboard: Bool, now: Date) -> [DialogEffect] {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if byKeyboard && line == pending.editableText { return saveNote(pending) }
        guard !line.isEmpty else { return [prompt(phrasebook.message(.noteConfirmHint))] + reshow(pending) }
        if let tags = parser.tagAddition(line) {
            // The tags join the line too, so that a later correction of it keeps them.
            var updated = pending
            updated.entry.tags = DiaryEntry.normalizedTags(pending.entry.tags + tags)
            updated.editableText = pending.editableText + phrasebook.tagsAdded(tags)
            return readBack(updated, now: now)
        }
        if parser.matches(line, phrasebook.table.diary.attachPicture) {
            state = .askingPicture(pending)
            return [prompt(phrasebook.message(.noteAskPicture)), .listen(.confirmation)]
        }
        switch parser.parse(line) {
        case .answer(.yes):
            return saveNote(pending)
        case .answer(.no), .answer(.cancel):
            return leaveNote()
        case .answer(.repeat):
            return readBack(pending, now: now)
        case .emergency:
            return [.showEmergency, prompt(phrasebook.message(.noteConfirmHint))] + reshow(pending)
        case .quit:
            state = .finished
            return [.say(phrasebook.message(.noteNotSaved)), .say(phrasebook.message(.goodbye)), .exit]
        case .note(.text(let rest)) where byKeyboard:
            return correctedNote(rest, pending: pending, now: now)
        default:
            guard byKeyboard else { return [prompt(phrasebook.message(.noteConfirmHint))] + reshow(pending) }
            return correctedNote(line, pending: pending, now: now)
        }
    }

    /// A corrected line is the confirmation, as with readings; "Saved note" names what was saved.
    private mutating func correctedNote(_ text: String, pending: PendingNote, now: Date) -> [DialogEffect] {
        let effects = understandNote(text, pictures: pending.pictures, heard: false, now: now)
        guard case .confirmingNote(let corrected) = state else { return effects }
        return saveNote(corrected)
    }

    private mutating func saveNote(_ pending: PendingNote) -> [DialogEffect] {
        // Stay in .confirmingNote until the store answers.
        state = .confirmingNote(pending)
        return [.saveNote(pending.entry, pictures: pending.pictures)]
    }

    /// A picture's path is typed; it is checked (by the runtime: that is I/O) before it is added.
    mutating func answerPicturePath(_ text: String, pending: PendingNote, byKeyboard: Bool, now: Date) -> [DialogEffect] {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { return [] }
        switch parser.parse(line) {
        case .answer(.no), .answer(.cancel):
            return readBack(pending, now: now)
        case .emergency:
            return [.showEmergency, prompt(phrasebook.message(.noteAskPicture)), .listen(.confirmation)]
        default:
            // A path cannot be said: only a typed line is one.
            guard byKeyboard else { return [prompt(phrasebook.message(.noteAskPicture)), .listen(.confirmation)] }
            return [.checkPicture(line)]
        }
    }

    mutating func pictureChecked(_ path: String, problem: String?, pending: PendingNote, now: Date) -> [DialogEffect] {
        guard problem == nil else {
            return [.say(phrasebook.message(.notePictureProblem, ["problem": Message(problem ?? "")]))] + readBack(pending, now: now)
        }
        var updated = pending
        if !updated.pictures.contains(path) { updated.pictures.append(path) }
        return [.say(phrasebook.message(.notePictureAdded))] + readBack(updated, now: now)
    }

    mutating func afterNoteSaved(_ entry: DiaryEntry) -> [DialogEffect] {
        state = .idle
        return [.say(Message(phrasebook.text(.diarySaved, phrasebook.noteFields(entry)))),
                prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }

    mutating func leaveNote() -> [DialogEffect] {
        state = .idle
        return [.say(phrasebook.message(.noteNotSaved)), prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }
}
