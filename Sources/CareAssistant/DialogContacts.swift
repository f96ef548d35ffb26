import CareLanguage
import CareModel
import Foundation

/// Emergency contacts in the conversation: "add a contact", "read my contacts", "remove
/// contact two". A name cannot be said to a grammar, so it is typed; the number is said digit
/// by digit or typed; who they are is said from a short list or typed. Nothing is saved
/// before the contact has been read back and confirmed.
extension Dialog {
    private var words: LocaleTable.ContactWords { phrasebook.table.contacts }

    mutating func requestContacts(_ request: ContactRequest) -> [DialogEffect] {
        switch request {
        case .add:
            return ask(ContactDraft())
        case .list:
            let lines = contacts.isEmpty ? [Message(words.none)]
                : [phrasebook.message(.contactsHeading)] + phrasebook.numberedContacts(contacts) + [Message(words.removeHint)]
            return lines.map { .say($0) } + [prompt(phrasebook.message(.askReading)), .listen(.reading)]
        case .remove(let number):
            guard contacts.indices.contains(number - 1) else {
                let problem = contacts.isEmpty ? Message(words.none)
                    : Message(filling: words.noSuch, ["number": Message(String(number))])
                return [prompt(problem), .listen(.reading)]
            }
            let contact = contacts[number - 1]
            state = .confirmingRemoval(contact, number: number)
            return [prompt(removalQuestion(contact, number: number)), .listen(.confirmation)]
        }
    }

    private mutating func ask(_ draft: ContactDraft) -> [DialogEffect] {
        state = .addingContact(draft)
        return [prompt(phrasebook.contactQuestion(draft.step, name: draft.name)), .listen(listeningContext)]
    }

    /// The answer to "who", "what number" or "who are they to you"; back, skip, repeat, help and
    /// goodbye work as in the questionnaire.
    mutating func answerContactQuestion(_ draft: ContactDraft, _ text: String, byKeyboard: Bool, now: Date) -> [DialogEffect] {
        let line = text.trimmingCharacters(in: .whitespaces)
        let step = draft.step
        // Enter on an empty line: no answer to the name or number yet; no relation.
        guard !line.isEmpty else { return step == .relation ? readBack(draft, relation: nil) : [] }
        let answers = ProfileAnswerParser(table: phrasebook.table)
        switch parser.parse(line) {
        case .emergency:
            return [.showEmergency, prompt(phrasebook.contactQuestion(step, name: draft.name)), .listen(listeningContext)]
        case .quit:
            state = .finished
            return [.say(Message(words.notChanged)), .say(phrasebook.message(.goodbye)), .exit]
        case .answer(.cancel):
            return leaveContactsUnchanged()
        case .answer(.no):
            // "No" to who they are is no relation; to a name or number it is "leave it".
            return step == .relation ? readBack(draft, relation: nil) : leaveContactsUnchanged()
        case .answer(.repeat):
            return [.say(lastPrompt ?? phrasebook.contactQuestion(step, name: draft.name)), .listen(listeningContext)]
        case .answer(.yes):
            return repeatQuestion(draft)
        default:
            break
        }
        switch answers.navigation(line) {
        case .back?:
            guard let previous = draft.previous else { return leaveContactsUnchanged() }
            return ask(previous)
        case .skip?:
            switch step {
            case .name: return leaveContactsUnchanged()
            case .phone: return repeatQuestion(draft)
            case .relation: return readBack(draft, relation: nil)
            }
        case nil:
            break
        }
        switch step {
        case .name:
            // Only an answer word can be heard here (the grammar has no names).
            guard byKeyboard else { return [prompt(Message(words.typeName)), .listen(listeningContext)] }
            return ask(ContactDraft(name: line))
        case .phone:
            switch answers.answer(to: .contactPhone, line, units: settings.bodyUnits, countries: countries,
                                  today: CalendarDay.today(now, calendar: phrasebook.calendar), book: phrasebook) {
            case .answer(.contactPhone(let number)):
                return ask(ContactDraft(name: draft.name, phone: number))
            case .problem(let message):
                return [prompt(message), .listen(listeningContext)]
            default:
                return [.say(phrasebook.onboarding(.notUnderstood))] + repeatQuestion(draft)
            }
        case .relation:
            return readBack(draft, relation: answers.relation(line))
        }
    }

    private mutating func repeatQuestion(_ draft: ContactDraft) -> [DialogEffect] {
        let question = draft.step == .name ? Message(words.typeName) : phrasebook.contactQuestion(draft.step, name: draft.name)
        return [prompt(question), .listen(listeningContext)]
    }

    private mutating func readBack(_ draft: ContactDraft, relation: String?) -> [DialogEffect] {
        guard let name = draft.name, let phone = draft.phone else { return ask(draft) }
        return readBack(EmergencyContact(name: name, phone: phone, relation: relation))
    }

    private mutating func readBack(_ contact: EmergencyContact) -> [DialogEffect] {
        let pending = PendingContact(contact: contact, editableText: phrasebook.editableContact(contact))
        state = .confirmingContact(pending)
        return [prompt(Message(filling: words.readBack, ["contact": phrasebook.contactLine(contact)]))] + reshow(pending)
    }

    private func reshow(_ pending: PendingContact) -> [DialogEffect] {
        [.showEditable(prompt: words.editPrompt, text: pending.editableText,
                       hints: EditHints(terminal: words.editHint, plain: words.typeHint)),
         .listen(.confirmation)]
    }

    /// Yes adds it; no leaves the contacts as they were; an edited line is itself the yes once
    /// it reads as a contact; back returns to who they are.
    /// - Parameter edited: the shown line was changed; a plain typed line is taken as a corrected
    ///   contact only when it is written like one (with commas).
    mutating func answerContact(_ text: String, pending: PendingContact, byKeyboard: Bool, edited: Bool = false) -> [DialogEffect] {
        let line = text.trimmingCharacters(in: .whitespaces)
        if byKeyboard && line == pending.editableText { return [.addContact(pending.contact)] }
        if byKeyboard && line.isEmpty { return [prompt(Message(words.confirmHint))] + reshow(pending) }
        switch parser.parse(line) {
        case .answer(.yes):
            return [.addContact(pending.contact)]
        case .answer(.no), .answer(.cancel):
            return leaveContactsUnchanged()
        case .answer(.repeat):
            return readBack(pending.contact)
        case .emergency:
            return [.showEmergency, prompt(phrasebook.message(.goOnIdle))] + reshow(pending)
        case .quit:
            state = .finished
            return [.say(Message(words.notChanged)), .say(phrasebook.message(.goodbye)), .exit]
        default:
            break
        }
        if ProfileAnswerParser(table: phrasebook.table).navigation(line) == .back {
            return ask(ContactDraft(name: pending.contact.name, phone: pending.contact.phone))
        }
        // A corrected line keeps the commas it was shown with; anything else ("read my contacts")
        // is no answer to this question, and the contact waits as it was.
        guard byKeyboard, edited || line.contains(",") else { return [prompt(Message(words.confirmHint))] + reshow(pending) }
        switch ProfileAnswerParser(table: phrasebook.table).contactLine(line, book: phrasebook) {
        case .contact(let corrected):
            return [.addContact(corrected)]
        case .problem(let message):
            state = .confirmingContact(PendingContact(contact: pending.contact, editableText: line))
            return [prompt(message), .showEditable(prompt: words.editPrompt, text: line,
                                                   hints: EditHints(terminal: words.editHint, plain: words.typeHint)),
                    .listen(.confirmation)]
        }
    }

    private func removalQuestion(_ contact: EmergencyContact, number: Int) -> Message {
        Message(filling: words.removeReadBack, ["contact": phrasebook.numberedContact(contact, number: number)])
    }

    mutating func answerRemoval(_ text: String, contact: EmergencyContact, number: Int) -> [DialogEffect] {
        let line = text.trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return [] }
        switch parser.parse(line) {
        case .answer(.yes):
            return [.removeContact(contact)]
        case .answer(.no), .answer(.cancel):
            return leaveContactsUnchanged()
        case .answer(.repeat):
            return [prompt(removalQuestion(contact, number: number)), .listen(.confirmation)]
        case .emergency:
            return [.showEmergency, prompt(removalQuestion(contact, number: number)), .listen(.confirmation)]
        case .quit:
            state = .finished
            return [.say(Message(words.notChanged)), .say(phrasebook.message(.goodbye)), .exit]
        default:
            if ProfileAnswerParser(table: phrasebook.table).navigation(line) == .back { return leaveContactsUnchanged() }
            return [prompt(Message(words.confirmHint)), .listen(.confirmation)]
        }
    }

    mutating func leaveContactsUnchanged() -> [DialogEffect] {
        state = .idle
        return [.say(Message(words.notChanged)), prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }

    /// The store has the contacts as they are now; the sentence names what changed, numbered as
    /// "read my contacts" will number it.
    mutating func afterContactsSaved(_ saved: [EmergencyContact]) -> [DialogEffect] {
        var effects: [DialogEffect] = []
        switch state {
        case .confirmingContact:
            if let added = saved.last {
                effects.append(.say(phrasebook.message(.contactAdded, ["contact": phrasebook.numberedContact(added, number: saved.count)])))
            }
        case .confirmingRemoval(let contact, let number):
            effects.append(.say(phrasebook.message(.contactRemoved, ["contact": phrasebook.numberedContact(contact, number: number)])))
        default:
            break
        }
        contacts = saved
        state = .idle
        return effects + [prompt(phrasebook.message(.askReading)), .listen(.reading)]
    }
}
