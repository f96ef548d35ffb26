import ArgumentParser
import CareAssistant
import CareLanguage
import CareModel
import CareTerminal
import Foundation

/// Emergency help without the conversation: the same numbers, contacts and summary.
struct EmergencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emergency",
        abstract: "Show emergency numbers for your country, your emergency contacts and a summary for responders.")

    @OptionGroup var common: CommonOptions
    @Flag(help: "Print JSON instead of lines.") var json = false
    @Flag(help: "The whole table of emergency numbers (no contacts or summary).") var all = false

    func run() throws {
        let env = try AppEnvironment.make(common)
        let help = env.emergencyHelp
        if all {
            let directory = try help.directory.get()
            if json { return print(try EmergencyJSON.encode(directory.all.map { EmergencyJSON.Entry($0, directory) })) }
            for numbers in directory.all {
                let line = numbers.groups.map { group in
                    env.phrasebook.join(group.services.map { env.phrasebook.serviceName($0) }, last: env.table.lists.and)
                        + " " + (group.numbers.isEmpty ? "-" : group.numbers.joined(separator: env.table.lists.or))
                }.joined(separator: "; ")
                Console.line("\(numbers.country) \(env.phrasebook.countryName(numbers.country)): \(line)")
            }
            return
        }
        let report = help.report()
        if json { return print(try EmergencyJSON.encode(EmergencyJSON.Entry(report, env.phrasebook))) }
        for line in env.phrasebook.emergencyMessages(report, now: Date()) {
            Console.line(line.isEmphasized ? env.style.emphasis(line.display) : line.display)
        }
    }
}

/// The JSON shape of `carevoice emergency --json`.
enum EmergencyJSON {
    struct Entry: Encodable {
        var country: String?
        var ambulance: [String]
        var police: [String]
        var fire: [String]
        var mobile: String
        var helplines: [HelplineItem]
        var contacts: [ContactItem]?
        /// The one line for responders; null when it cannot be read.
        var summary: String?
        /// Why contacts and summary are missing, when they are.
        var unavailable: String?

        enum CodingKeys: String, CodingKey {
            case country, ambulance, police, fire, mobile, helplines, contacts, summary, unavailable
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(country, forKey: .country)   // null when unknown, not missing
            try c.encode(ambulance, forKey: .ambulance)
            try c.encode(police, forKey: .police)
            try c.encode(fire, forKey: .fire)
            try c.encode(mobile, forKey: .mobile)
            try c.encode(helplines, forKey: .helplines)
            if let contacts {
                try c.encode(contacts, forKey: .contacts)
                try c.encode(summary, forKey: .summary)
            }
            try c.encodeIfPresent(unavailable, forKey: .unavailable)
        }

        /// One country of the table.
        init(_ numbers: EmergencyNumbers, _ directory: EmergencyDirectory) {
            country = numbers.country
            ambulance = numbers.ambulance
            police = numbers.police
            fire = numbers.fire
            mobile = numbers.mobile
            helplines = directory.helplines(for: numbers.country).map(HelplineItem.init)
        }

        /// What help shows this person.
        init(_ report: EmergencyReport, _ book: Phrasebook) {
            switch report.numbers {
            case .known(let numbers):
                country = numbers.country
                ambulance = numbers.ambulance
                police = numbers.police
                fire = numbers.fire
                mobile = numbers.mobile
            case .unknownCountry, .notListed, .tableUnavailable:
                // What help tells people to call when the country's numbers are not known.
                if case .notListed(let code) = report.numbers { country = code }
                let fallback = EmergencyDirectory.internationalNumber
                ambulance = [fallback]; police = [fallback]; fire = [fallback]; mobile = fallback
            }
            helplines = report.helplines.map(HelplineItem.init)
            switch report.personal {
            case .available(let list, let medical):
                contacts = ContactItem.list(list)
                summary = book.summaryText(medical, now: Date())?.display
            case .unavailable(let reason):
                contacts = []
                summary = nil
                unavailable = reason
            }
        }
    }

    struct HelplineItem: Encodable {
        var kind: String
        var name: String
        var number: String
        init(_ h: Helpline) { kind = h.kind.rawValue; name = h.name; number = h.number }
    }

    struct ContactItem: Encodable {
        /// The contact's place in the list, as `contacts remove` takes it.
        var number: Int
        var id: Int64?
        var name: String
        var phone: String
        var relation: String?
        init(_ c: EmergencyContact, number: Int) { self.number = number; id = c.id; name = c.name; phone = c.phone; relation = c.relation }

        static func list(_ contacts: [EmergencyContact]) -> [ContactItem] {
            contacts.enumerated().map { ContactItem($1, number: $0 + 1) }
        }
    }

    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
