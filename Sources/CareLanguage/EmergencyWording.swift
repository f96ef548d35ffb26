import CareModel
import Foundation

extension Phrasebook {
    /// Emergency help as lines to show and say, in order: the numbers first (emphasized),
    /// then helplines, contacts, the summary for responders, and the main number once more.
    public func emergencyMessages(_ report: EmergencyReport, now: Date) -> [Message] {
        var lines: [Message] = []
        switch report.numbers {
        case .known(let numbers):
            let country = countryName(numbers.country)
            lines.append(message(.emergencyHeading, ["country": Message(country)]))
            for group in numbers.groups {
                let services = Message(capitalizedFirst(join(group.services.map { serviceName($0) }, last: table.lists.and)))
                if group.numbers.isEmpty {
                    for service in group.services {
                        lines.append(message(.emergencyNoService, ["service": Message(capitalizedFirst(serviceName(service))),
                                                                   "mobile": phoneNumber(numbers.mobile)]).emphasized())
                    }
                } else {
                    let spoken = group.numbers.map { phoneNumber($0) }
                    lines.append(message(.emergencyServices, [
                        "services": services,
                        "numbers": Message(display: join(spoken.map(\.display), last: table.lists.or),
                                           spoken: join(spoken.map(\.spoken), last: table.lists.or)),
                    ]).emphasized())
                }
            }
            if !numbers.allNumbers.contains(numbers.mobile) {
                lines.append(message(.emergencyMobileAlso, ["number": phoneNumber(numbers.mobile)]))
            }
        case .unknownCountry:
            lines.append(message(.emergencyHeadingNoCountry))
            lines.append(message(.emergencyUnknownCountry).emphasized())
        case .notListed(let country):
            lines.append(message(.emergencyHeadingNoCountry))
            lines.append(message(.emergencyCountryNotListed, ["country": Message(countryName(country))]).emphasized())
        case .tableUnavailable(let reason):
            lines.append(message(.emergencyHeadingNoCountry))
            lines.append(message(.emergencyTableUnavailable, ["reason": Message(reason)]).emphasized())
        }

        for helpline in report.helplines {
            lines.append(message(.helplineLine, [
                "kind": Message(table.helplineKinds[helpline.kind.rawValue] ?? helpline.kind.rawValue),
                "name": Message(helpline.name), "number": phoneNumber(helpline.number),
            ]))
        }

        switch report.personal {
        case .available(let contacts, let summary):
            if contacts.isEmpty {
                lines.append(message(.noContacts))
            } else {
                lines.append(message(.contactsHeading))
                for contact in contacts { lines.append(contactLine(contact)) }
            }
            if let summaryText = summaryText(summary, now: now) {
                lines.append(message(.summaryLine, ["summary": summaryText]))
            } else {
                lines.append(message(.summaryNothing))
            }
        case .unavailable(let reason):
            lines.append(message(.summaryUnavailable, ["reason": Message(reason)]))
        }

        lines.append(message(.emergencyOnceMore, ["number": phoneNumber(report.firstNumber)]).emphasized())
        return lines
    }

    public func contactLine(_ contact: EmergencyContact) -> Message {
        // "Anna Li (daughter)", "李安娜（女儿）": Chinese takes its own brackets and no space.
        let relation = contact.relation.map { $0.first.map(Tokenizer.isChinese) == true ? "（\($0)）" : " (\($0))" } ?? ""
        return message(.contactLine, ["name": Message(contact.name), "relation": Message(relation),
                                      "phone": phoneNumber(contact.phone)])
    }

    /// The summary for responders, or nil when nothing is recorded. Glucose is given in both
    /// units: the crew may use either.
    public func summaryText(_ summary: MedicalSummary, now: Date) -> Message? {
        var parts: [Message] = []
        if let name = summary.name { parts.append(Message(name)) }
        if let type = summary.diabetesType { parts.append(Message(choiceName(type, in: table.profile.diabetesTypes))) }
        if let reading = summary.latestReading {
            let mmol = ReadingDescription(level: reading.level, unit: .mmolPerL, unitWasSaid: true, tag: nil, explicitTime: nil)
            let mg = ReadingDescription(level: reading.level, unit: .mgPerDL, unitWasSaid: true, tag: nil, explicitTime: nil)
            let both = Message(display: "\(describe(mmol, now: now).display) (\(describe(mg, now: now).display))",
                               spoken: "\(describe(mmol, now: now).spoken), \(describe(mg, now: now).spoken)")
            parts.append(message(.summaryLatestReading, ["reading": both, "time": Message(describeTime(reading.takenAt, now: now))]))
        }
        if !summary.medications.isEmpty {
            parts.append(message(.summaryMedications, ["list": Message(join(summary.medications, last: table.lists.and))]))
        }
        if !summary.allergies.isEmpty {
            parts.append(message(.summaryAllergies, ["list": Message(join(summary.allergies, last: table.lists.and))]))
        }
        if let address = summary.address { parts.append(message(.summaryAddress, ["address": Message(address)])) }
        guard !parts.isEmpty else { return nil }
        return Message(display: parts.map(\.display).joined(separator: "; "),
                       spoken: parts.map(\.spoken).joined(separator: "; "))
    }

    /// A phone number shown as written and spoken digit by digit, with a pause between the
    /// groups it was written in: "911" is said "nine, one, one".
    public func phoneNumber(_ number: String) -> Message {
        let words = table.phoneDigits
        var groups: [String] = []
        var current: [String] = []
        for character in number {
            if let digit = character.wholeNumberValue, character.isASCII {
                current.append(numbers.digitName(digit))
            } else if character == "+" {
                current.append(words.plus)
            } else if !current.isEmpty {
                groups.append(current.joined(separator: words.separator))
                current = []
            }
        }
        if !current.isEmpty { groups.append(current.joined(separator: words.separator)) }
        return Message(display: number, spoken: groups.joined(separator: words.groupSeparator))
    }

    /// The country's name in this language ("Canada", "加拿大"), from the system's locale data.
    public func countryName(_ code: String) -> String {
        Locale(identifier: table.id).localizedString(forRegionCode: code) ?? code
    }

    /// How a choice is named when read back ("type 2 diabetes").
    public func choiceName<T: RawRepresentable>(_ value: T, in choices: [String: LocaleTable.Choice]) -> String
    where T.RawValue == String {
        choices[value.rawValue]?.speak ?? value.rawValue
    }

    public func serviceName(_ service: EmergencyService) -> String {
        table.services[service.rawValue] ?? service.rawValue
    }

    /// "a", "a and b", "a, b and c" (with this language's words).
    public func join(_ items: [String], last: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: table.lists.separator) + last + items.last!
    }

    private func capitalizedFirst(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}

extension Message {
    /// The same message, marked to stand out on screen (bold where colour is allowed).
    public func emphasized() -> Message {
        var copy = self
        copy.isEmphasized = true
        return copy
    }
}
