import CareModel
import Foundation
import Yams

/// `locales/emergency-numbers.yaml`: emergency numbers and helplines by country. Loaded from the
/// file alone, never from the database, so help works when the data file is broken.
public struct EmergencyDirectory: Sendable {
    public let countries: [String: EmergencyNumbers]
    public let helplines: [String: [Helpline]]

    /// What to call where the country is not known: 112 reaches emergency services from mobile
    /// phones in most countries (and every GSM phone treats it as an emergency call).
    public static let internationalNumber = "112"

    public func numbers(for country: String) -> EmergencyNumbers? {
        countries[country.uppercased()]
    }

    public func helplines(for country: String) -> [Helpline] {
        helplines[country.uppercased()] ?? []
    }

    /// Every country, by code.
    public var all: [EmergencyNumbers] {
        countries.keys.sorted().map { countries[$0]! }
    }
}

public enum EmergencyDirectoryError: Error, Equatable, CustomStringConvertible {
    case notFound(String)
    case invalid(String)

    public var description: String {
        switch self {
        case .notFound(let path): return "the emergency number table \(path) is missing"
        case .invalid(let reason): return "the emergency number table is damaged: \(reason)"
        }
    }
}

extension EmergencyDirectory {
    public static func parse(yaml: String) throws -> EmergencyDirectory {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: yaml) else { throw EmergencyDirectoryError.invalid("it is empty") }
            root = node
        } catch let error as EmergencyDirectoryError {
            throw error
        } catch {
            throw EmergencyDirectoryError.invalid("\(error)")
        }
        guard let mapping = root.mapping, let countryNodes = mapping["countries"]?.mapping else {
            throw EmergencyDirectoryError.invalid("it has no countries")
        }

        var countries: [String: EmergencyNumbers] = [:]
        for (key, value) in countryNodes {
            // A country listed twice is refused by the YAML parser itself.
            let code = try countryCode(key)
            guard let fields = value.mapping else { throw EmergencyDirectoryError.invalid("\(code) is not a mapping") }
            func list(_ name: String) throws -> [String] {
                guard let items = fields[name]?.sequence else {
                    throw EmergencyDirectoryError.invalid("\(code) has no \(name) list")
                }
                return try items.map { try number($0, in: code) }
            }
            guard let mobileNode = fields["mobile"] else { throw EmergencyDirectoryError.invalid("\(code) has no mobile number") }
            let numbers = EmergencyNumbers(country: code, ambulance: try list("ambulance"), police: try list("police"),
                                           fire: try list("fire"), mobile: try number(mobileNode, in: code))
            guard !numbers.allNumbers.isEmpty || !numbers.mobile.isEmpty else {
                throw EmergencyDirectoryError.invalid("\(code) has no number at all")
            }
            countries[code] = numbers
        }

        var helplines: [String: [Helpline]] = [:]
        for (key, value) in mapping["helplines"]?.mapping ?? [:] {
            let code = try countryCode(key)
            helplines[code] = try (value.sequence ?? []).map { item in
                guard let fields = item.mapping, let kindText = fields["kind"]?.string,
                      let kind = HelplineKind(rawValue: kindText), let name = fields["name"]?.string,
                      let numberNode = fields["number"] else {
                    throw EmergencyDirectoryError.invalid("a helpline for \(code) lacks kind, name or number")
                }
                return Helpline(kind: kind, name: name, number: try number(numberNode, in: code))
            }
        }
        return EmergencyDirectory(countries: countries, helplines: helplines)
    }

    private static func countryCode(_ node: Node) throws -> String {
        guard let code = node.string, code.count == 2, code.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw EmergencyDirectoryError.invalid("\(node.string ?? "?") is not a two-letter country code")
        }
        return code
    }

    /// A number must be written as a quoted string of digits (spaces allowed for reading):
    /// an unquoted 000 would be the integer 0.
    private static func number(_ node: Node, in code: String) throws -> String {
        guard let scalar = node.scalar else {
            throw EmergencyDirectoryError.invalid("\(code) has a number that is not text")
        }
        let text = scalar.string
        guard scalar.style == .doubleQuoted || scalar.style == .singleQuoted else {
            throw EmergencyDirectoryError.invalid("\(code): \(text) must be quoted, or a leading 0 could be lost")
        }
        guard !text.isEmpty, text.allSatisfy({ $0 == " " || ($0.isASCII && $0.isNumber) }),
              text.first != " ", text.last != " " else {
            throw EmergencyDirectoryError.invalid("\(code): \"\(text)\" is not a phone number (digits and spaces only)")
        }
        return text
    }
}

extension ResourceLocator {
    public var emergencyNumbersFile: URL { localesDirectory.appendingPathComponent("emergency-numbers.yaml") }

    public func loadEmergencyDirectory() throws -> EmergencyDirectory {
        guard let text = try? String(contentsOf: emergencyNumbersFile, encoding: .utf8) else {
            throw EmergencyDirectoryError.notFound(emergencyNumbersFile.path)
        }
        return try EmergencyDirectory.parse(yaml: text)
    }
}
