import ArgumentParser
import CareLanguage
import CareModel
import CareStore
import CareTerminal
import Foundation

/// Emergency contacts: the people help names after the emergency number.
struct ContactsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts", abstract: "List, add or remove your emergency contacts.",
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your emergency contacts.")
        @OptionGroup var common: CommonOptions
        @Flag(help: "Print JSON instead of lines.") var json = false

        func run() throws {
            let env = try AppEnvironment.make(common)
            let contacts = try openStore(env).contacts()
            if json { return print(try EmergencyJSON.encode(EmergencyJSON.ContactItem.list(contacts))) }
            guard !contacts.isEmpty else { return Console.line(env.phrasebook.text(.noContacts)) }
            for line in env.phrasebook.numberedContacts(contacts) { Console.line(line.display) }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an emergency contact.")
        @OptionGroup var common: CommonOptions
        @Option(help: "Their name.") var name: String
        @Option(help: "Their phone number, as you would dial it.") var phone: String
        @Option(help: "Who they are to you: daughter, neighbour, doctor...") var relation: String?

        func run() throws {
            let env = try AppEnvironment.make(common)
            let book = env.phrasebook
            let name = name.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw CommandFailure(book.text(.contactNeedsName)) }
            if let problem = PhoneNumber.problem(phone) {
                throw CommandFailure(book.text(.phoneProblem, ["phone": phone, "reason": book.text(problem.messageKey)]))
            }
            let relation = relation?.trimmingCharacters(in: .whitespaces)
            let contact = try openStore(env).addContact(EmergencyContact(
                name: name, phone: phone.trimmingCharacters(in: .whitespaces),
                relation: relation?.isEmpty == false ? relation : nil))
            let number = try openStore(env).contacts().firstIndex(of: contact).map { $0 + 1 } ?? 0
            Console.line(book.text(.contactAdded, ["contact": book.numberedContact(contact, number: number).display]))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an emergency contact by its number in the list.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The contact's number, as `carevoice contacts` shows it (1 is the first).") var number: Int

        func run() throws {
            let env = try AppEnvironment.make(common)
            let store = try openStore(env)
            let contacts = try store.contacts()
            guard contacts.indices.contains(number - 1) else {
                throw CommandFailure(env.phrasebook.text(.noSuchContact, ["number": String(number)]))
            }
            let contact = contacts[number - 1]
            try store.removeContact(contact)
            Console.line(env.phrasebook.text(.contactRemoved, ["contact": env.phrasebook.numberedContact(contact, number: number).display]))
        }
    }
}

/// The store, or one sentence on why it cannot be opened (it is never overwritten).
func openStore(_ env: AppEnvironment) throws -> Store {
    do {
        return try Store(directory: env.dataDirectory, defaults: env.defaultSettings)
    } catch {
        throw CommandFailure(env.phrasebook.text(.storeUnavailable, ["reason": "\(error)"]))
    }
}
