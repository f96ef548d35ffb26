import CareLanguage
import CareModel
import Foundation

/// A reading that has been understood and read back, waiting for the person's yes.
public struct PendingReading: Sendable, Equatable {
    public var reading: GlucoseReading
    public var description: ReadingDescription
    /// The line shown for editing; Enter on it unchanged means yes.
    public var editableText: String
    /// What was said, and when it was understood: a unit, meal or time said after the read-back is
    /// added to it, and it is understood again as of then.
    public var draft: GlucoseDraft
    public var understoodAt: Date
}

public enum DialogState: Sendable, Equatable {
    case idle
    case confirming(PendingReading)
    /// A very low reading was saved: shall the emergency numbers and contacts be read out?
    case offeringHelp
    /// "Change my weight": its question was asked, the new value is awaited.
    case askingChange(ChangeField)
    /// A change to the profile or the settings, read back, waiting for a yes.
    case confirmingChange(PendingChange)
    /// "Add a contact": its name, number and relation are asked one at a time.
    case addingContact(ContactDraft)
    /// A contact to add, read back, waiting for a yes.
    case confirmingContact(PendingContact)
    /// "Remove contact two", read back, waiting for a yes.
    case confirmingRemoval(EmergencyContact, number: Int)
    /// "Add a note": the note's words are awaited (dictated or typed).
    case dictatingNote
    /// A note read back and shown for editing, waiting for a yes.
    case confirmingNote(PendingNote)
    /// "Attach a picture": its path is awaited; the note waits meanwhile.
    case askingPicture(PendingNote)
    /// "Delete the last reading": waiting for the store to say which that is.
    case lookingUp(EditRequest)
    /// A change to what is on record (or an undo), read back, waiting for a yes.
    case confirmingEdit(PendingEdit)
    /// "Forget my voice" or "learn my voice", asked back, waiting for a yes (and then for the
    /// runtime to say what became of it).
    case confirmingVoice(VoiceRequest)
    /// "Goodbye" was heard while something read back waited for its yes (the state here): shall
    /// the assistant leave it unsaved and stop? In noise an answer was heard as "bye".
    indirect case confirmingLeave(DialogState)
    case finished

    /// Something read back waits for its yes: a reading, a change, a contact, a note, an edit.
    var waitsForAYes: Bool {
        switch self {
        case .confirming, .confirmingChange, .confirmingContact, .confirmingRemoval, .confirmingNote, .confirmingEdit: return true
        default: return false
        }
    }
}

/// A contact that has been gathered and read back.
public struct PendingContact: Sendable, Equatable {
    public var contact: EmergencyContact
    public var editableText: String
}

/// A change that has been understood and read back.
public struct PendingChange: Sendable, Equatable {
    public var change: ProfileChange
    public var editableText: String
}

/// What is asked about the person's voice.
public enum VoiceRequest: Sendable, Equatable {
    /// Go back to the general voice model.
    case forget
    /// Learn the voice from short phrases said after the assistant (`carevoice enroll`).
    case learn
}

/// What became of "learn my voice".
public enum VoiceLearning: Sendable, Equatable {
    /// Learned from this many recordings holding this many seconds of speech; heard with from now on.
    case learned(recordings: Int, seconds: Int)
    /// Only this many phrases were heard clearly: nothing changed.
    case tooFew(heard: Int)
    /// The microphone could not be opened: nothing changed.
    case noMicrophone(reason: String)
    case failed(reason: String)
}

/// What became of "forget my voice".
public enum VoiceForgetting: Sendable, Equatable {
    case forgotten
    /// No voice was learned: there was nothing to forget.
    case nothingStored
    case failed(reason: String)
}

public enum DialogEvent: Sendable, Equatable {
    case started
    /// A recognizer transcript.
    case heard(String)
    /// A transcript whose words fit the sound only loosely: a reading in it is read back as a
    /// guess, digit by digit; otherwise it is taken as `heard`.
    case heardUnsure(String)
    /// A yes whose words fit the sound only loosely: it may have been a no, so nothing is done
    /// and the question is asked again.
    case heardDoubtfulYes(String)
    /// A plain line of typed text (piped stdin, or a terminal line that was not pre-filled).
    case typed(String)
    /// The pre-filled editable line as it stands on Enter: unchanged means yes, emptied
    /// means cancel, changed is a correction.
    case edited(String)
    /// Escape or Ctrl-C on the editable line.
    case cancelledByKey
    case endOfInput
    case saved(GlucoseReading)
    case saveFailed(reason: String)
    /// The onboarding answers were saved.
    case onboardingSaved
    /// A profile or settings change was saved; these are the settings now.
    case changeSaved(Settings)
    /// A contact was added or removed; these are the contacts now.
    case contactsSaved([EmergencyContact])
    /// A reading is due (the reminder setting); said only while nothing else is going on.
    case reminderDue(lastReading: Date?)
    /// The newest reading and note on record (answering `lookUpLastRecords`).
    case lastRecords(reading: GlucoseReading?, note: DiaryEntry?)
    /// What became of `forgetVoice`.
    case voiceForgotten(VoiceForgetting)
    /// What became of `learnVoice`.
    case voiceLearned(VoiceLearning)
    /// What became of `switchLanguage`: true when the runtime now speaks, shows and hears the
    /// language asked for (the conversation was given its phrasebook), false when it could not.
    case languageSwitched(Bool)
    /// The store has made this change (a note saved, a record changed, deleted or put back),
    /// with the ids it gave.
    case recordsChanged(RecordEdit)
    /// A picture path was checked (answering `checkPicture`); `problem` says why it cannot be used.
    case pictureChecked(path: String, problem: String?)
}

public enum DialogEffect: Sendable, Equatable {
    case say(Message)
    /// Show `text` on an editable line after `prompt`, cursor at the end. `hints` say how to
    /// answer on it; nil means the runtime's own for readings and answers.
    case showEditable(prompt: String, text: String, hints: EditHints? = nil)
    /// Switch the recognizer to the grammar of this context.
    case listen(ListeningContext)
    case save(GlucoseReading)
    /// Save everything the questionnaire gathered, in one transaction.
    case saveOnboarding(OnboardingResult)
    /// Save one confirmed change to the profile or the settings.
    case saveChange(ProfileChange)
    case addContact(EmergencyContact)
    case removeContact(EmergencyContact)
    case showEmergency
    /// Say how the readings of this period went (the runtime reads them from the store).
    case sayOverview(ReportRange)
    /// Read back what was recorded on the day this many days ago.
    case sayDay(daysAgo: Int)
    /// Save a confirmed note, copying in the pictures at these paths.
    case saveNote(DiaryEntry, pictures: [String])
    /// Check that the file at this path is a picture that can be attached.
    case checkPicture(String)
    /// Find the newest reading and note on record.
    case lookUpLastRecords
    /// Make a confirmed change to what is on record.
    case applyEdit(RecordEdit)
    /// Forget the learned voice and listen with the general model (answered by `voiceForgotten`).
    case forgetVoice
    /// Learn the person's voice: the runtime asks for the phrases, records and learns them
    /// (answered by `voiceLearned`).
    case learnVoice
    /// Speak, show and hear this language from now on (answered by `languageSwitched`).
    case switchLanguage(Language)
    case exit
}

/// How to answer on an editable line: on a terminal (Enter keeps it), and on plain lines.
public struct EditHints: Sendable, Equatable {
    public var terminal: String
    public var plain: String

    public init(terminal: String, plain: String) {
        self.terminal = terminal
        self.plain = plain
    }
}

/// The conversation as a pure state machine: (state, event) -> (state, effects).
/// It performs no I/O, so it runs the same on a microphone, a WAV file, piped
/// stdin and in unit tests; the runtime performs the effects.
public struct Dialog: Sendable {
    public internal(set) var state: DialogState = .idle
    public private(set) var phrasebook: Phrasebook
    public private(set) var parser: UtteranceParser
    public var preferredUnit: GlucoseUnit
    /// Whether the person's voice was learned (`carevoice enroll`): only then is "forget my
    /// voice" asked back; otherwise there is nothing to forget.
    public var hasLearnedVoice = false
    /// Whether recordings of confirmed readings are kept to learn the voice from
    /// (`ConfirmedSpeech`): "forget my voice" forgets them too.
    public var keepsVoiceRecordings = false
    /// Whether this session can hear the phrases that learning a voice needs (a microphone, or a
    /// recording standing in for it); otherwise "learn my voice" says why not.
    public var canLearnVoice = false
    /// How many phrases learning the voice asks for (the locale's enrollment prompts).
    var learnVoicePhrases: Int { phrasebook.table.enrollment.prompts.count }
    /// The settings in force: changes are relative to them ("speak slower").
    public private(set) var settings: Settings
    /// Whether there is a profile to change (the questionnaire makes it).
    public var hasProfile: Bool
    /// Countries a changed country may name.
    public var countries: [String]
    /// The emergency contacts, in the order they are numbered when read out.
    public internal(set) var contacts: [EmergencyContact]
    /// What was said last, for "repeat".
    var lastPrompt: Message?
    /// The utterance being handled fit its words only loosely (`.heardUnsure`).
    private var unsure = false
    /// The changes to what is on record made in this session, oldest first, for "undo".
    public internal(set) var history: [RecordEdit] = []

    public init(phrasebook: Phrasebook, preferredUnit: GlucoseUnit, settings: Settings = Settings(),
                hasProfile: Bool = true, countries: [String] = [], contacts: [EmergencyContact] = []) {
        self.phrasebook = phrasebook
        self.phrasebook.numbersDigitByDigit = settings.numbersDigitByDigit
        self.parser = UtteranceParser(table: phrasebook.table)
        self.preferredUnit = preferredUnit
        self.settings = settings
        self.hasProfile = hasProfile
        self.countries = countries
        self.contacts = contacts
    }

    /// The same conversation, from now on in another language (a changed language setting).
    public func speaking(_ book: Phrasebook) -> Dialog {
        var switched = self
        switched.phrasebook = book
        switched.phrasebook.numbersDigitByDigit = settings.numbersDigitByDigit
        switched.parser = UtteranceParser(table: book.table)
        return switched
    }

    public var listeningContext: ListeningContext {
        switch state {
        case .confirming, .offeringHelp, .confirmingChange: return .answer
        case .askingChange(let field): return field.question.map { .question($0) } ?? .reading
        case .addingContact(let draft):
            switch draft.step {
            case .name: return .question(.contactName)
            case .phone: return .question(.contactPhone)
            case .relation: return .contactRelation
            }
        case .confirmingContact, .confirmingRemoval, .askingPicture, .confirmingEdit, .confirmingVoice, .confirmingLeave:
            return .confirmation
        case .dictatingNote: return .dictation
        case .confirmingNote: return .noteAnswer
        case .idle, .lookingUp, .finished: return .reading
        }
    }

    public mutating func handle(_ event: DialogEvent, now: Date) -> [DialogEffect] {
        if case .heardDoubtfulYes(let text) = event {
            // Nothing waits for a yes when idle; and a yes to the offer of help is taken, as
            // help is: reading out the numbers needlessly costs less than not reading them.
            guard state != .idle, state != .offeringHelp,
                  let again = phrasebook.table.answers[Answer.repeat.rawValue]?.first else {
                return handle(.heard(text), now: now)
            }
            // Every question that waits for a yes says itself again on "repeat".
            return [.say(phrasebook.message(.yesDoubtful))] + handle(.heard(again), now: now)
        }
        if case .heardUnsure(let text) = event {
            unsure = true
            defer { unsure = false }
            return handle(.heard(text), now: now)
        }
        // A spoken goodbye asks first when it would drop what waits for a yes; a typed one is meant.
        if case .heard(let text) = event, state.waitsForAYes, case .quit = parser.parse(text) {
            state = .confirmingLeave(state)
            return [prompt(phrasebook.message(.leaveUnconfirmed)), .listen(.confirmation)]
        }
        switch (state, event) {
        case (.finished, _):
            return []
        case (_, .started):
            state = .idle
            return [prompt(phrasebook.message(.greeting)), .listen(.reading)]
        case (_, .endOfInput):
            let unsaved = unsavedNotice
            state = .finished
            return (unsaved.map { [.say($0)] } ?? []) + [.exit]
        case (.idle, .heard(let text)):
            return newUtterance(text, source: .voice, now: now)
        case (.idle, .typed(let text)), (.idle, .edited(let text)):
            return text.trimmingCharacters(in: .whitespaces).isEmpty ? [] : newUtterance(text, source: .keyboard, now: now)
        case (.idle, .cancelledByKey):
            return []
        case (.confirming(let pending), .heard(let text)):
            return answerByVoice(text, pending: pending, now: now)
        case (.confirming(let pending), .edited(let text)):
            return answerByKeyboard(text, pending: pending, emptiedMeansCancel: true, now: now)
        case (.confirming(let pending), .typed(let text)):
            return answerByKeyboard(text, pending: pending, emptiedMeansCancel: false, now: now)
        case (.confirming, .cancelledByKey):
            return cancel()
        case (.offeringHelp, .heard(let text)):
            return answerHelpOffer(text, source: .voice, now: now)
        case (.offeringHelp, .typed(let text)), (.offeringHelp, .edited(let text)):
            return answerHelpOffer(text, source: .keyboard, now: now)
        case (.offeringHelp, .cancelledByKey):
            state = .idle
            return [prompt(phrasebook.message(.askReading)), .listen(.reading)]
        case (.confirmingChange(let pending), .heard(let text)):
            return answerChange(text, pending: pending, byKeyboard: false, now: now)
        case (.confirmingChange(let pending), .typed(let text)):
            return answerChange(text, pending: pending, byKeyboard: true, now: now)
        case (.confirmingChange(let pending), .edited(let text)):
            if text.trimmingCharacters(in: .whitespaces).isEmpty { return leaveUnchanged() }
            return answerChange(text, pending: pending, byKeyboard: true, now: now)
        case (.confirmingChange, .cancelledByKey), (.askingChange, .cancelledByKey):
            return leaveUnchanged()
        case (.askingChange(let field), .heard(let text)), (.askingChange(let field), .typed(let text)),
             (.askingChange(let field), .edited(let text)):
            return answerChangeQuestion(field, text, now: now)
        case (.addingContact(let draft), .heard(let text)):
            return answerContactQuestion(draft, text, byKeyboard: false, now: now)
        case (.addingContact(let draft), .typed(let text)), (.addingContact(let draft), .edited(let text)):
            return answerContactQuestion(draft, text, byKeyboard: true, now: now)
        case (.confirmingContact(let pending), .heard(let text)):
            return answerContact(text, pending: pending, byKeyboard: false)
        case (.confirmingContact(let pending), .typed(let text)):
            return answerContact(text, pending: pending, byKeyboard: true)
        case (.confirmingContact(let pending), .edited(let text)):
            if text.trimmingCharacters(in: .whitespaces).isEmpty { return leaveContactsUnchanged() }
            return answerContact(text, pending: pending, byKeyboard: true, edited: true)
        case (.confirmingRemoval(let contact, let number), .heard(let text)),
             (.confirmingRemoval(let contact, let number), .typed(let text)),
             (.confirmingRemoval(let contact, let number), .edited(let text)):
            return answerRemoval(text, contact: contact, number: number)
        case (.addingContact, .cancelledByKey), (.confirmingContact, .cancelledByKey), (.confirmingRemoval, .cancelledByKey):
            return leaveContactsUnchanged()
        case (.confirmingContact, .contactsSaved(let list)), (.confirmingRemoval, .contactsSaved(let list)):
            return afterContactsSaved(list)
        case (.dictatingNote, .heard(let text)):
            return answerNoteQuestion(text, source: .voice, now: now)
        case (.dictatingNote, .typed(let text)), (.dictatingNote, .edited(let text)):
            return answerNoteQuestion(text, source: .keyboard, now: now)
        case (.dictatingNote, .cancelledByKey), (.confirmingNote, .cancelledByKey):
            return leaveNote()
        case (.confirmingNote(let pending), .heard(let text)):
            return answerNote(text, pending: pending, byKeyboard: false, now: now)
        case (.confirmingNote(let pending), .typed(let text)):
            return answerNote(text, pending: pending, byKeyboard: true, now: now)
        case (.confirmingNote(let pending), .edited(let text)):
            // The pre-filled line emptied on purpose: leave the note.
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return leaveNote() }
            return answerNote(text, pending: pending, byKeyboard: true, now: now)
        case (.confirmingNote, .recordsChanged(.addNote(let entry, _))):
            history.append(.addNote(entry))
            return afterNoteSaved(entry)
        case (.askingPicture(let pending), .heard(let text)):
            return answerPicturePath(text, pending: pending, byKeyboard: false, now: now)
        case (.askingPicture(let pending), .typed(let text)), (.askingPicture(let pending), .edited(let text)):
            return answerPicturePath(text, pending: pending, byKeyboard: true, now: now)
        case (.askingPicture(let pending), .cancelledByKey):
            return readBack(pending, now: now)
        case (.askingPicture(let pending), .pictureChecked(let path, let problem)):
            return pictureChecked(path, problem: problem, pending: pending, now: now)
        case (.lookingUp(let request), .lastRecords(let reading, let note)):
            return lastRecordsFound(request, reading: reading, note: note, now: now)
        case (.confirmingEdit(let pending), .heard(let text)), (.confirmingEdit(let pending), .typed(let text)),
             (.confirmingEdit(let pending), .edited(let text)):
            return answerEdit(text, pending: pending)
        case (.confirmingEdit, .cancelledByKey):
            return leaveRecordsUnchanged()
        case (.confirmingEdit(let pending), .recordsChanged(let done)):
            return afterEdit(done, pending: pending)
        case (.confirmingVoice(let request), _):
            return handleVoiceQuestion(request, event)
        case (.confirmingLeave(let waiting), .heard(let text)), (.confirmingLeave(let waiting), .typed(let text)),
             (.confirmingLeave(let waiting), .edited(let text)):
            return answerLeaveQuestion(text, waiting: waiting, now: now)
        case (.confirmingLeave(let waiting), .cancelledByKey):
            return goBack(to: waiting, now: now)
        case (.idle, .reminderDue(let last)):
            return [prompt(phrasebook.reminder(lastReading: last, now: now)), .listen(.reading)]
        case (.confirmingChange(let pending), .changeSaved(let settings)):
            return afterChange(pending.change, settings: settings)
        case (_, .saved(let reading)):
            history.append(.addReading(reading))
            return afterSaving(now: now)
        case (_, .saveFailed(let reason)):
            state = .idle
            return [.say(phrasebook.message(.saveFailed, ["reason": Message(reason)])), .listen(.reading)]
        case (.idle, _), (.confirming, _), (.offeringHelp, _), (.confirmingChange, _), (.askingChange, _),
             (.addingContact, _), (.confirmingContact, _), (.confirmingRemoval, _), (.dictatingNote, _), (.confirmingNote, _),
             (.askingPicture, _), (.lookingUp, _), (.confirmingEdit, _), (.confirmingLeave, _):
            return []
        }
    }

    /// The description of the reading whose save is under way, for the "Saved:" sentence.
    private var lastSaved: ReadingDescription?

    // MARK: Transitions

    private mutating func newUtterance(_ text: String, source: EntrySource, now: Date) -> [DialogEffect] {
        switch parser.parse(text) {
        case .glucose(let draft):
            switch understand(draft, source: source, now: now) {
            case .success(let pending): return readBack(pending, now: now)
            case .failure(let problem): return [prompt(problem), .listen(.reading)]
            }
        case .emergency:
            return [.showEmergency, prompt(phrasebook.message(.goOnIdle)), .listen(.reading)]
        case .quit:
            state = .finished
            return [.say(phrasebook.message(.goodbye)), .exit]
        case .answer(.repeat):
            return [.say(lastPrompt ?? phrasebook.message(.askReading)), .listen(.reading)]
        case .change(let request):
            return requestChange(request, now: now)
        case .contacts(let request):
            return requestContacts(request)
        case .overview(let range):
            return [.sayOverview(range), prompt(phrasebook.message(.askReading)), .listen(.reading)]
        case .recall(let daysAgo):
            return [.sayDay(daysAgo: daysAgo), prompt(phrasebook.message(.askReading)), .listen(.reading)]
        case .note(let request):
            return requestNote(request, source: source, now: now)
        case .edit(let request):
            return requestEdit(request, now: now)
        case .forgetVoice:
            guard hasLearnedVoice || keepsVoiceRecordings else {
                return [.say(phrasebook.message(.enrollNothingToForget)), prompt(phrasebook.message(.askReading)), .listen(.reading)]
            }
            state = .confirmingVoice(.forget)
            return [prompt(voiceQuestion(.forget)), .listen(.confirmation)]
        case .learnVoice:
            guard canLearnVoice else {
                return [.say(phrasebook.message(.learnVoiceNoMicrophone)), prompt(phrasebook.message(.askReading)), .listen(.reading)]
            }
            state = .confirmingVoice(.learn)
            return [prompt(voiceQuestion(.learn)), .listen(.confirmation)]
        case .answer:
            // Most often a yes to a reading that was turned away: it is not taken for anything.
            return [prompt(phrasebook.message(.nothingToAnswer)), .listen(.reading)]
        case .unknown, .readingDetails:
            return [prompt(phrasebook.message(.notUnderstood)), .listen(.reading)]
        }
    }

    private mutating func answerByVoice(_ text: String, pending: PendingReading, now: Date) -> [DialogEffect] {
        switch parser.parse(text) {
        case .answer(let answer):
            return apply(answer, pending: pending, now: now)
        case .glucose(let draft):
            // A spoken correction is read back again: it could be misheard too.
            switch understand(draft, source: .voice, now: now) {
            case .success(let corrected): return readBack(corrected, now: now)
            case .failure(let problem): return [prompt(problem)] + reshow(pending)
            }
        case .readingDetails(let details):
            return add(details, to: pending, source: .voice)
        case .emergency:
            return helpThenGoOn(pending, now: now)
        case .quit:
            state = .finished
            return [.say(phrasebook.message(.notSaved)), .say(phrasebook.message(.goodbye)), .exit]
        case .unknown, .change, .contacts, .overview, .recall, .note, .edit, .forgetVoice, .learnVoice:
            return [prompt(phrasebook.message(.sayYesOrNo))] + reshow(pending)
        }
    }

    /// - Parameter emptiedMeansCancel: the line was pre-filled, so an empty one was emptied on
    ///   purpose. A plain line that is empty is no answer yet: nothing is saved or dropped.
    private mutating func answerByKeyboard(_ text: String, pending: PendingReading, emptiedMeansCancel: Bool,
                                           now: Date) -> [DialogEffect] {
        let line = text.trimmingCharacters(in: .whitespaces)
        if line == pending.editableText { return confirm(pending) }
        if line.isEmpty {
            return emptiedMeansCancel ? cancel() : [prompt(phrasebook.message(.sayYesOrNo))] + reshow(pending)
        }
        switch parser.parse(line) {
        case .answer(let answer):
            return apply(answer, pending: pending, now: now)
        case .glucose(let draft):
            // An edited line is itself the confirmation; "Saved: ..." reads back what was saved.
            switch understand(draft, source: .keyboard, now: now) {
            case .success(let corrected):
                return confirm(corrected)
            case .failure(let problem):
                return [prompt(problem), .showEditable(prompt: phrasebook.text(.heardPrompt), text: line), .listen(.answer)]
            }
        case .readingDetails(let details):
            // Only a meal, unit or time typed: the whole reading is shown again for a yes.
            return add(details, to: pending, source: .keyboard)
        case .emergency:
            return helpThenGoOn(pending, now: now)
        case .quit:
            state = .finished
            return [.say(phrasebook.message(.notSaved)), .say(phrasebook.message(.goodbye)), .exit]
        case .unknown, .change, .contacts, .overview, .recall, .note, .edit, .forgetVoice, .learnVoice:
            return [prompt(phrasebook.message(.notUnderstood))] + reshow(pending)
        }
    }

    private mutating func apply(_ answer: Answer, pending: PendingReading, now: Date) -> [DialogEffect] {
        switch answer {
        case .yes:
            return confirm(pending)
        case .no:
            state = .idle
            return [.say(phrasebook.message(.notSaved)), prompt(phrasebook.message(.askReading)), .listen(.reading)]
        case .cancel:
            return cancel()
        case .repeat:
            return readBack(pending, now: now)
        }
    }

    /// A unit, meal or time said or typed after the read-back, added to the reading and read back
    /// again ("6.5 millimoles per litre. Save it?" "Before breakfast." "6.5 millimoles per litre,
    /// before breakfast. Save it?"): the reading could have been answered before the person
    /// said its meal, or when it was taken ("this morning"). A time is resolved against when the
    /// reading was first understood.
    private mutating func add(_ details: ReadingDetails, to pending: PendingReading, source: EntrySource) -> [DialogEffect] {
        switch understand(pending.draft.adding(details), source: source, now: pending.understoodAt) {
        case .success(let completed): return readBack(completed, now: pending.understoodAt)
        case .failure(let problem): return [prompt(problem)] + reshow(pending)
        }
    }

    /// Help first, no questions asked; then the reading that was waiting is offered again.
    private mutating func helpThenGoOn(_ pending: PendingReading, now: Date) -> [DialogEffect] {
        let goOn = phrasebook.message(.goOnWithReading, ["reading": phrasebook.describe(pending.description, now: now)])
        return [.showEmergency, prompt(goOn)] + reshow(pending)
    }

    /// "Saved: ...", then what the level calls for: the 15-15 rule when low, and an offer of
    /// help when very low; the care plan when high.
    private mutating func afterSaving(now: Date) -> [DialogEffect] {
        guard let description = lastSaved else {
            state = .idle
            return [prompt(phrasebook.message(.askReading)), .listen(.reading)]
        }
        lastSaved = nil
        var effects: [DialogEffect] = [.say(phrasebook.message(.saved, ["reading": phrasebook.describe(description, now: now)]))]
        switch description.level.alert(in: description.unit) {
        case .veryLow?:
            state = .offeringHelp
            return effects + [.say(phrasebook.message(.alertVeryLow)), prompt(phrasebook.message(.offerHelp)), .listen(.answer)]
        case .low?:
            effects.append(.say(phrasebook.message(.alertLow)))
        case .high?:
            effects.append(.say(phrasebook.message(.alertHigh)))
        case nil:
            break
        }
        state = .idle
        return effects + [prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }

    /// The answer to "Shall I read out the emergency numbers and your contacts?". A new reading
    /// or goodbye is taken as what it is; anything unclear asks again.
    private mutating func answerHelpOffer(_ text: String, source: EntrySource, now: Date) -> [DialogEffect] {
        switch parser.parse(text) {
        case .answer(.yes), .emergency:
            state = .idle
            return [.showEmergency, prompt(phrasebook.message(.goOnIdle)), .listen(.reading)]
        case .answer(.no), .answer(.cancel):
            state = .idle
            return [prompt(phrasebook.message(.askReading)), .listen(.reading)]
        case .answer(.repeat), .unknown, .readingDetails:
            // Unclear after a very low reading: ask again rather than let the offer lapse.
            return [prompt(phrasebook.message(.offerHelp)), .listen(.answer)]
        case .glucose, .quit, .change, .contacts, .overview, .recall, .note, .edit, .forgetVoice, .learnVoice:
            state = .idle
            return newUtterance(text, source: source, now: now)
        }
    }

    private mutating func confirm(_ pending: PendingReading) -> [DialogEffect] {
        // Stay in .confirming until the store answers, so "Saved:" names what was saved.
        state = .confirming(pending)
        lastSaved = pending.description
        return [.save(pending.reading)]
    }

    private mutating func cancel() -> [DialogEffect] {
        state = .idle
        return [prompt(phrasebook.message(.cancelled)), .listen(.reading)]
    }

    private mutating func readBack(_ pending: PendingReading, now: Date) -> [DialogEffect] {
        state = .confirming(pending)
        let message = unsure ? phrasebook.guessedReadBack(pending.description, now: now)
            : phrasebook.message(.readBack, ["reading": phrasebook.describe(pending.description, now: now)])
        return [prompt(message), .showEditable(prompt: phrasebook.text(.heardPrompt), text: pending.editableText),
                .listen(.answer)]
    }

    private func reshow(_ pending: PendingReading) -> [DialogEffect] {
        [.showEditable(prompt: phrasebook.text(.heardPrompt), text: pending.editableText), .listen(.answer)]
    }

    /// The answer to "Do you want to leave now?": yes (or goodbye again) leaves what waited
    /// unsaved; a call for help is answered, then what waited is asked about again, as it is on
    /// anything else.
    private mutating func answerLeaveQuestion(_ text: String, waiting: DialogState, now: Date) -> [DialogEffect] {
        switch parser.parse(text) {
        case .answer(.yes), .quit:
            let unsaved = unsavedNotice(waiting)
            state = .finished
            return (unsaved.map { [.say($0)] } ?? []) + [.say(phrasebook.message(.goodbye)), .exit]
        case .emergency:
            state = waiting
            return handle(.heard(text), now: now)
        default:
            return goBack(to: waiting, now: now)
        }
    }

    /// Back to what waited for a yes, asked again (every such question says itself again on
    /// "repeat").
    private mutating func goBack(to waiting: DialogState, now: Date) -> [DialogEffect] {
        state = waiting
        guard let again = phrasebook.table.answers[Answer.repeat.rawValue]?.first else { return [.listen(listeningContext)] }
        return handle(.heard(again), now: now)
    }

    /// What is said when the input ends (or the person leaves) with something still unconfirmed.
    private var unsavedNotice: Message? { unsavedNotice(state) }

    private func unsavedNotice(_ state: DialogState) -> Message? {
        switch state {
        case .confirming: return phrasebook.message(.notSaved)
        case .askingChange, .confirmingChange: return Message(phrasebook.table.changes.notSaved)
        case .addingContact, .confirmingContact, .confirmingRemoval: return Message(phrasebook.table.contacts.notChanged)
        case .dictatingNote, .confirmingNote, .askingPicture: return phrasebook.message(.noteNotSaved)
        case .lookingUp, .confirmingEdit: return phrasebook.message(.editNotChanged)
        case .confirmingVoice(let request): return voiceLeftAlone(request)
        case .confirmingLeave(let waiting): return unsavedNotice(waiting)
        case .idle, .offeringHelp, .finished: return nil
        }
    }

    mutating func prompt(_ message: Message) -> DialogEffect {
        lastPrompt = message
        return .say(message)
    }

    // MARK: Changing the profile and the settings

    /// What a new value is checked against; "today" is the dialog's clock, not the machine's.
    private func changeContext(now: Date) -> ChangeContext {
        ChangeContext(settings: settings, countries: countries, today: CalendarDay.today(now, calendar: phrasebook.calendar))
    }

    /// The change asked for, checked, then read back; nothing is saved before the yes.
    private func resolve(_ request: ChangeRequest, now: Date) -> Result<ProfileChange, ProblemMessage> {
        let change: ProfileChange
        switch request {
        case .command(let command):
            change = command.change(from: settings)
        case .set(let field, let value):
            switch ProfileAnswerParser(table: phrasebook.table).change(field, value, context: changeContext(now: now), book: phrasebook) {
            case .change(let c): change = c
            case .problem(let message): return .failure(ProblemMessage(message))
            }
        }
        if change.changesProfile && !hasProfile {
            return .failure(ProblemMessage(Message(phrasebook.table.changes.needsProfile)))
        }
        return .success(change)
    }

    private mutating func requestChange(_ request: ChangeRequest, now: Date) -> [DialogEffect] {
        if case .set(let field, let value) = request, value.isEmpty, let question = field.question {
            if ChangeField.profileFields.contains(field) && !hasProfile {
                return [prompt(Message(phrasebook.table.changes.needsProfile)), .listen(.reading)]
            }
            state = .askingChange(field)
            return [prompt(phrasebook.question(question, contactName: nil)), .listen(.question(question))]
        }
        if case .set(let field, let value) = request, value.isEmpty {
            let needsValue = phrasebook.table.changes.needsValue.replacingOccurrences(of: "{label}", with: phrasebook.changeLabel(field))
            return [prompt(Message(needsValue)), .listen(.reading)]
        }
        switch resolve(request, now: now) {
        case .failure(let problem):
            // A value for a question not understood, or not plausible: the next words answer it.
            if case .set(let field, _) = request, let question = field.question,
               !(ChangeField.profileFields.contains(field) && !hasProfile) {
                state = .askingChange(field)
                return [prompt(problem), .listen(.question(question))]
            }
            return [prompt(problem), .listen(.reading)]
        case .success(let change): return readBack(change)
        }
    }

    private mutating func readBack(_ change: ProfileChange) -> [DialogEffect] {
        let units = settings.bodyUnits
        let pending = PendingChange(change: change, editableText: phrasebook.editableChange(change, units: units))
        state = .confirmingChange(pending)
        return [prompt(phrasebook.changeSentence(phrasebook.table.changes.readBack, change, units: units)),
                .showEditable(prompt: phrasebook.text(.heardPrompt), text: pending.editableText), .listen(.answer)]
    }

    /// Yes saves it; no leaves the old value; a new change replaces it (read back again when
    /// spoken, taken as confirmed when typed, as with readings).
    private mutating func answerChange(_ text: String, pending: PendingChange, byKeyboard: Bool, now: Date) -> [DialogEffect] {
        let line = text.trimmingCharacters(in: .whitespaces)
        if byKeyboard && line == pending.editableText { return [.saveChange(pending.change)] }
        let reshow: [DialogEffect] = [.showEditable(prompt: phrasebook.text(.heardPrompt), text: pending.editableText),
                                      .listen(.answer)]
        switch parser.parse(line) {
        case .answer(.yes):
            return [.saveChange(pending.change)]
        case .answer(.no), .answer(.cancel):
            return leaveUnchanged()
        case .answer(.repeat):
            return readBack(pending.change)
        case .change(let request):
            switch resolve(request, now: now) {
            case .failure(let problem): return [prompt(problem)] + reshow
            case .success(let change): return byKeyboard ? [.saveChange(change)] : readBack(change)
            }
        case .emergency:
            return [.showEmergency, prompt(phrasebook.message(.goOnIdle))] + reshow
        case .quit:
            state = .finished
            return [.say(Message(phrasebook.table.changes.notSaved)), .say(phrasebook.message(.goodbye)), .exit]
        case .glucose, .readingDetails, .unknown, .contacts, .overview, .recall, .note, .edit, .forgetVoice, .learnVoice:
            return [prompt(Message(phrasebook.table.changes.confirmHint))] + reshow
        }
    }

    /// The new value for a field named alone; help, goodbye and no work as everywhere.
    private mutating func answerChangeQuestion(_ field: ChangeField, _ text: String, now: Date) -> [DialogEffect] {
        let line = text.trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return [] }
        switch parser.parse(line) {
        case .emergency:
            return [.showEmergency, prompt(lastPrompt ?? phrasebook.message(.askReading))]
                + [.listen(listeningContext)]
        case .quit:
            state = .finished
            return [.say(Message(phrasebook.table.changes.notSaved)), .say(phrasebook.message(.goodbye)), .exit]
        case .answer(.no), .answer(.cancel):
            return leaveUnchanged()
        case .answer(.repeat):
            return [.say(lastPrompt ?? phrasebook.message(.askReading)), .listen(listeningContext)]
        case .change(let request):
            // A whole change asked for instead ("change my unit to mg/dL"): that one is meant.
            return requestChange(request, now: now)
        default:
            switch resolve(.set(field, value: line), now: now) {
            case .failure(let problem): return [prompt(problem), .listen(listeningContext)]
            case .success(let change): return readBack(change)
            }
        }
    }

    private mutating func leaveUnchanged() -> [DialogEffect] {
        state = .idle
        return [.say(Message(phrasebook.table.changes.notSaved)), prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }

    /// Saved: from now on the assistant sounds, shows and understands as the new settings say.
    private mutating func afterChange(_ change: ProfileChange, settings: Settings) -> [DialogEffect] {
        self.settings = settings
        preferredUnit = settings.glucoseUnit
        phrasebook.numbersDigitByDigit = settings.numbersDigitByDigit
        state = .idle
        return [.say(phrasebook.changeSentence(phrasebook.table.changes.saved, change, units: settings.bodyUnits)),
                prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }

    // MARK: Understanding a reading

    /// Settles the unit, checks plausibility and resolves the time.
    func understand(_ draft: GlucoseDraft, source: EntrySource, now: Date) -> Result<PendingReading, ProblemMessage> {
        let unitSymbol = draft.unit.map { phrasebook.table.phrases(for: $0).symbol }
        let level: GlucoseLevel
        let unit: GlucoseUnit
        switch GlucoseUnitInference.interpret(draft.value, explicit: draft.unit, preferred: preferredUnit) {
        case .level(let l, let u):
            level = l; unit = u
        case .implausible:
            let value = Message(display: draft.number, spoken: phrasebook.numbers.spell(draft.number))
            if let unit = draft.unit {
                let name = phrasebook.table.phrases(for: unit)
                return .failure(ProblemMessage(phrasebook.message(.implausibleWithUnit, [
                    "value": value, "unit": Message(display: unitSymbol ?? "", spoken: name.speak)])))
            }
            return .failure(ProblemMessage(phrasebook.message(.implausible, ["value": value])))
        }
        var takenAt = now
        if let time = draft.time {
            do {
                takenAt = try time.resolve(now: now, calendar: phrasebook.calendar)
            } catch TimeExpression.ResolutionError.inFuture {
                return .failure(ProblemMessage(phrasebook.message(.futureTime)))
            } catch {
                return .failure(ProblemMessage(phrasebook.message(.notUnderstood)))
            }
        }
        let explicitTime = (draft.time == nil || draft.time?.isNow == true) ? nil : takenAt
        let description = ReadingDescription(level: level, unit: unit, unitWasSaid: draft.unit != nil, tag: draft.tag,
                                             explicitTime: explicitTime, numberAsSaid: draft.number)
        let reading = GlucoseReading(takenAt: takenAt,
                                     utcOffsetSeconds: phrasebook.calendar.timeZone.secondsFromGMT(for: takenAt),
                                     level: level, tag: draft.tag, source: source)
        return .success(PendingReading(reading: reading, description: description,
                                       editableText: phrasebook.editableText(description, now: now),
                                       draft: draft, understoodAt: now))
    }
}

/// A sentence explaining why a reading was not taken.
public struct ProblemMessage: Error, Equatable {
    public var message: Message
    init(_ message: Message) { self.message = message }
}

extension Dialog {
    private mutating func prompt(_ problem: ProblemMessage) -> DialogEffect { prompt(problem.message) }
}
