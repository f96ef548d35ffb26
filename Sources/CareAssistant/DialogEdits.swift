import CareLanguage
import CareModel
import Foundation

/// A change to what is on record, read back, waiting for the person's yes.
public struct PendingEdit: Sendable, Equatable {
    public var edit: RecordEdit
    /// It takes back the session's last change.
    public var isUndo: Bool
    /// "Delete the reading ...?"
    public var question: Message
    /// "Deleted the reading ...", said once the store has done it.
    public var done: Message
}

/// Changing what is on record in the conversation: "delete the last reading", "delete the last
/// note", "change the last reading to 7.1", and "undo", which takes back the last change made
/// in this session (a reading or note saved, changed or deleted). Each is read back and done
/// only after a yes.
extension Dialog {
    mutating func requestEdit(_ request: EditRequest, now: Date) -> [DialogEffect] {
        guard request == .undo else {
            // What "the last" is, the store says.
            state = .lookingUp(request)
            return [.lookUpLastRecords]
        }
        guard let last = history.last else {
            return [prompt(phrasebook.message(.editNothingToUndo)), .listen(.reading)]
        }
        let change = undoDescription(last.inverse, now: now)
        return ask(PendingEdit(edit: last.inverse, isUndo: true, question: phrasebook.message(.editAskUndo, ["change": change]),
                               done: phrasebook.message(.editUndone, ["change": change])))
    }

    /// The store's answer to "which is the last": the change is read back, or there is nothing to change.
    mutating func lastRecordsFound(_ request: EditRequest, reading: GlucoseReading?, note: DiaryEntry?, now: Date) -> [DialogEffect] {
        state = .idle
        switch request {
        case .deleteLastReading:
            guard let reading else { return [prompt(phrasebook.message(.editNoReading)), .listen(.reading)] }
            let fields = readingFields(reading, now: now)
            return ask(PendingEdit(edit: .deleteReading(reading), isUndo: false,
                                   question: phrasebook.message(.editAskDeleteReading, fields),
                                   done: phrasebook.message(.editDeletedReading, fields)))
        case .deleteLastNote:
            guard let note else { return [prompt(phrasebook.message(.editNoNote)), .listen(.reading)] }
            var fields = phrasebook.noteFields(note).mapValues(Message.init)
            fields["when"] = Message(phrasebook.describeTime(note.takenAt, now: now))
            return ask(PendingEdit(edit: .deleteNote(note), isUndo: false, question: phrasebook.message(.editAskDeleteNote, fields),
                                   done: Message(phrasebook.text(.diaryDeleted, phrasebook.noteFields(note)))))
        case .changeLastReading(let draft):
            guard let reading else { return [prompt(phrasebook.message(.editNoReading)), .listen(.reading)] }
            // The new value is understood as a reading would be (unit, plausibility, time).
            switch understand(draft, source: reading.source, now: now) {
            case .failure(let problem):
                return [prompt(problem.message), .listen(.reading)]
            case .success(let understood):
                var changed = reading
                changed.level = understood.reading.level
                if let tag = draft.tag { changed.tag = tag }
                if draft.time != nil {
                    changed.takenAt = understood.reading.takenAt
                    changed.utcOffsetSeconds = understood.reading.utcOffsetSeconds
                }
                // The tag is named only when it changes: "from 6.5 mmol/L to 7.1 mmol/L".
                let old = readingFields(reading, now: now, withTag: changed.tag != reading.tag)
                let new = readingFields(changed, now: now, withTag: changed.tag != reading.tag)
                return ask(PendingEdit(edit: .changeReading(changed, was: reading), isUndo: false,
                                       question: phrasebook.message(.editAskChangeReading, ["when": old["when"]!, "old": old["reading"]!,
                                                                                           "new": new["reading"]!]),
                                       done: phrasebook.message(.editChangedReading, readingFields(changed, now: now))))
            }
        case .undo:
            return requestEdit(.undo, now: now)
        }
    }

    private mutating func ask(_ pending: PendingEdit) -> [DialogEffect] {
        state = .confirmingEdit(pending)
        return [prompt(pending.question), .listen(.confirmation)]
    }

    /// Yes does it; no and cancel leave everything as it is; help and goodbye work as everywhere.
    mutating func answerEdit(_ text: String, pending: PendingEdit) -> [DialogEffect] {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { return [] }
        switch parser.parse(line) {
        case .answer(.yes):
            // Stay in .confirmingEdit until the store answers.
            return [.applyEdit(pending.edit)]
        case .answer(.no), .answer(.cancel):
            return leaveRecordsUnchanged()
        case .answer(.repeat):
            return [prompt(pending.question), .listen(.confirmation)]
        case .emergency:
            return [.showEmergency, prompt(pending.question), .listen(.confirmation)]
        case .quit:
            state = .finished
            return [.say(phrasebook.message(.editNotChanged)), .say(phrasebook.message(.goodbye)), .exit]
        default:
            return [prompt(phrasebook.message(.sayYesOrNo)), .say(pending.question), .listen(.confirmation)]
        }
    }

    /// The store has made the change: it is said, and remembered for "undo" (or, when it was the
    /// undo, forgotten).
    mutating func afterEdit(_ done: RecordEdit, pending: PendingEdit) -> [DialogEffect] {
        if pending.isUndo { _ = history.popLast() } else { history.append(done) }
        state = .idle
        return [.say(pending.done), prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }

    mutating func leaveRecordsUnchanged() -> [DialogEffect] {
        state = .idle
        return [.say(phrasebook.message(.editNotChanged)), prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }

    /// "take away the reading 6.5 mmol/L, today at 7:30 AM", "bring back note 3: Porridge".
    private func undoDescription(_ edit: RecordEdit, now: Date) -> Message {
        switch edit {
        case .deleteReading(let r): return phrasebook.message(.undoRemoveReading, readingFields(r, now: now))
        case .addReading(let r): return phrasebook.message(.undoRestoreReading, readingFields(r, now: now))
        case .changeReading(let r, _): return phrasebook.message(.undoChangeReading, readingFields(r, now: now))
        case .deleteNote(let n, _): return Message(phrasebook.text(.undoRemoveNote, phrasebook.noteFields(n)))
        case .addNote(let n, _): return Message(phrasebook.text(.undoRestoreNote, phrasebook.noteFields(n)))
        case .changeNote(let n, _): return Message(phrasebook.text(.undoChangeNote, phrasebook.noteFields(n)))
        }
    }

    /// A reading on record, in the unit the person uses, and when it was taken.
    private func readingFields(_ reading: GlucoseReading, now: Date, withTag: Bool = true) -> [String: Message] {
        let description = ReadingDescription(level: reading.level, unit: preferredUnit, unitWasSaid: true,
                                             tag: withTag ? reading.tag : nil, explicitTime: nil)
        return ["reading": phrasebook.describe(description, now: now),
                "when": Message(phrasebook.describeTime(reading.takenAt, now: now))]
    }
}

// MARK: Learning and forgetting the voice

extension Dialog {
    /// "Shall I forget your voice?", "Shall I learn your voice (again)?".
    func voiceQuestion(_ request: VoiceRequest) -> Message {
        switch request {
        case .forget: return phrasebook.message(.forgetVoiceAsk)
        case .learn:
            return phrasebook.message(hasLearnedVoice ? .learnVoiceAskAgain : .learnVoiceAsk,
                                      ["count": Message(String(learnVoicePhrases))])
        }
    }

    /// What is said when the voice is left as it is.
    func voiceLeftAlone(_ request: VoiceRequest) -> Message {
        phrasebook.message(request == .forget ? .forgetVoiceKept : .learnVoiceNotNow)
    }

    /// The question asked, then what the runtime says became of it.
    mutating func handleVoiceQuestion(_ request: VoiceRequest, _ event: DialogEvent) -> [DialogEffect] {
        switch (request, event) {
        case (_, .heard(let text)), (_, .typed(let text)), (_, .edited(let text)):
            return answerVoiceQuestion(text, request: request)
        case (_, .cancelledByKey):
            return leaveVoice(request)
        case (.forget, .voiceForgotten(let outcome)):
            return afterForgetting(outcome)
        case (.learn, .voiceLearned(let outcome)):
            return afterLearning(outcome)
        default:
            return []
        }
    }

    /// Yes does it; no and cancel leave the voice as it is; help and goodbye work as everywhere.
    mutating func answerVoiceQuestion(_ text: String, request: VoiceRequest) -> [DialogEffect] {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { return [] }
        let question = voiceQuestion(request)
        switch parser.parse(line) {
        case .answer(.yes):
            // Stay in .confirmingVoice until the runtime says what became of it.
            return [request == .forget ? .forgetVoice : .learnVoice]
        case .answer(.no), .answer(.cancel):
            return leaveVoice(request)
        case .answer(.repeat):
            return [prompt(question), .listen(.confirmation)]
        case .emergency:
            return [.showEmergency, prompt(question), .listen(.confirmation)]
        case .quit:
            state = .finished
            return [.say(voiceLeftAlone(request)), .say(phrasebook.message(.goodbye)), .exit]
        default:
            return [prompt(phrasebook.message(.sayYesOrNo)), .say(question), .listen(.confirmation)]
        }
    }

    mutating func leaveVoice(_ request: VoiceRequest) -> [DialogEffect] {
        state = .idle
        return [.say(voiceLeftAlone(request)), prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }

    mutating func afterForgetting(_ outcome: VoiceForgetting) -> [DialogEffect] {
        state = .idle
        if case .failed = outcome {} else { (hasLearnedVoice, keepsVoiceRecordings) = (false, false) }
        let said: Message
        switch outcome {
        case .forgotten: said = phrasebook.message(.enrollForgotten)
        case .nothingStored: said = phrasebook.message(.enrollNothingToForget)
        case .failed(let reason): said = phrasebook.message(.forgetVoiceFailed, ["reason": Message(reason)])
        }
        return [.say(said), prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }

    /// A voice learned replaces the one before; anything else leaves it as it was.
    mutating func afterLearning(_ outcome: VoiceLearning) -> [DialogEffect] {
        state = .idle
        if case .learned = outcome { hasLearnedVoice = true }
        return [.say(outcome.message(phrasebook)), prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }
}
