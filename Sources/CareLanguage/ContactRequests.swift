import CareModel
import Foundation

/// What was asked of the emergency contacts in the conversation.
public enum ContactRequest: Sendable, Equatable {
    /// "Add a contact": name, number and relation are asked next.
    case add
    /// "Read my contacts".
    case list
    /// "Remove contact two": the contact's place in the list as read out, from 1.
    case remove(number: Int)
}

extension UtteranceParser {
    /// "add a contact", "read my contacts", "remove contact two" / "delete contact number 2".
    public func contactRequest(_ tokens: [String]) -> ContactRequest? {
        let words = table.contacts
        if words.add.containsPhrase(tokens) { return .add }
        if words.list.containsPhrase(tokens) { return .list }
        let leads = words.remove.splitPhrases.sorted { $0.count > $1.count }
        guard let lead = leads.first(where: { tokens.starts(with: $0) }) else { return nil }
        var rest = tokens.dropFirst(lead.count)
        if let first = rest.first, words.number.contains(first) { rest = rest.dropFirst() }
        guard let (number, used) = numbers.parse(rest), used == rest.count,
              let position = Int(number), position >= 1 else { return nil }
        return .remove(number: position)
    }
}

/// A contact being added: the answers so far.
public struct ContactDraft: Sendable, Equatable {
    public var name: String?
    public var phone: String?

    public enum Step: Sendable, Equatable { case name, phone, relation }

    public init(name: String? = nil, phone: String? = nil) {
        self.name = name
        self.phone = phone
    }

    /// The question to ask next: name, then number, then who they are.
    public var step: Step { name == nil ? .name : phone == nil ? .phone : .relation }

    /// One step back: "back" at the number asks the name again.
    public var previous: ContactDraft? {
        switch step {
        case .name: return nil
        case .phone: return ContactDraft()
        case .relation: return ContactDraft(name: name)
        }
    }
}

extension ProfileAnswerParser {
    /// The relation as given: "my daughter" is "daughter"; anything else typed is kept as typed;
    /// nil when skipped or empty.
    public func relation(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || navigation(trimmed) == .skip { return nil }
        let tokens = Tokenizer.tokens(trimmed)
        let known = table.contacts.relations
        // "my daughter" is a daughter, "我的女儿" is 女儿: the relation as the table writes it.
        let rest = tokens.dropFirst(table.contacts.relationLeads.longestPrefix(of: tokens) ?? 0)
        if let relation = known.first(where: { Tokenizer.tokens($0).elementsEqual(rest) }) { return relation }
        return trimmed
    }

    public enum ContactLineOutcome: Sendable, Equatable {
        case contact(EmergencyContact)
        case problem(Message)
    }

    /// An edited contact line, "Anna Li, 604 555 0199, daughter": name, number, and who they
    /// are if given, separated by commas (the way it was shown).
    public func contactLine(_ line: String, book: Phrasebook) -> ContactLineOutcome {
        let parts = line.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," || $0 == "，" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard (2...3).contains(parts.count), !parts[0].isEmpty else {
            return .problem(Message(table.contacts.editProblem))
        }
        if let issue = PhoneNumber.problem(parts[1]) {
            return .problem(book.message(.phoneProblem, ["phone": Message(parts[1]), "reason": Message(book.text(issue.messageKey))]))
        }
        let relation = parts.count == 3 && !parts[2].isEmpty ? parts[2] : nil
        return .contact(EmergencyContact(name: parts[0], phone: parts[1], relation: relation))
    }
}

extension Phrasebook {
    /// "Anna Li, 604 555 0199, daughter": the contact as an editable line that parses back to it.
    public func editableContact(_ contact: EmergencyContact) -> String {
        ([contact.name, contact.phone] + (contact.relation.map { [$0] } ?? [])).joined(separator: ", ")
    }

    /// "2. Anna Li (daughter): 604 555 0199." The number is the contact's place in the list.
    public func numberedContact(_ contact: EmergencyContact, number: Int) -> Message {
        message(.contactNumbered, ["number": Message(String(number)), "contact": contactLine(contact)])
    }

    /// The contacts a line each, numbered from 1 in the order they are kept.
    public func numberedContacts(_ contacts: [EmergencyContact]) -> [Message] {
        contacts.enumerated().map { numberedContact($1, number: $0 + 1) }
    }

    /// A question about the contact being added, with its name filled in.
    public func contactQuestion(_ step: ContactDraft.Step, name: String?) -> Message {
        let c = table.contacts
        let template: String
        switch step {
        case .name: template = c.askName
        case .phone: template = c.askPhone
        case .relation: template = c.askRelation
        }
        return Message(filling: template, ["name": Message(name ?? "")])
    }
}
