import CareLanguage
import CareModel
import CareStore
import Foundation

/// Gathers emergency help from the number table and the emergency card, never from the
/// database: help must come even when the data file is missing, locked or broken.
public struct EmergencyHelp: Sendable {
    /// The table, or why it could not be read (help then falls back to 112).
    public var directory: Result<EmergencyDirectory, EmergencyDirectoryError>
    /// ISO 3166-1 alpha-2, or nil when unknown.
    public var country: String?
    public var dataDirectory: DataDirectory

    public init(directory: Result<EmergencyDirectory, EmergencyDirectoryError>, country: String?,
                dataDirectory: DataDirectory) {
        self.directory = directory
        self.country = country?.uppercased()
        self.dataDirectory = dataDirectory
    }

    /// Loads the table from the project's resources.
    public init(resources: ResourceLocator, country: String?, dataDirectory: DataDirectory) {
        let directory = Result { try resources.loadEmergencyDirectory() }
            .mapError { $0 as? EmergencyDirectoryError ?? .invalid("\($0)") }
        self.init(directory: directory, country: country, dataDirectory: dataDirectory)
    }

    /// The emergency contacts on the card; none when it cannot be read.
    public func contacts() -> [EmergencyContact] {
        (try? EmergencyCard.read(from: dataDirectory))??.contacts ?? []
    }

    public func report() -> EmergencyReport {
        let personal: EmergencyReport.PersonalDetails
        var cardCountry: String?
        do {
            let card = try EmergencyCard.read(from: dataDirectory)
            cardCountry = card?.country
            personal = .available(contacts: card?.contacts ?? [], summary: card?.summary ?? MedicalSummary())
        } catch {
            personal = .unavailable(reason: "\(EmergencyCard.fileName): \(error.localizedDescription)")
        }
        // --country first, then the country in the person's profile.
        let country = self.country ?? cardCountry
        let numbers: EmergencyReport.Numbers
        var helplines: [Helpline] = []
        switch directory {
        case .failure(let error):
            numbers = .tableUnavailable(reason: error.description)
        case .success(let table):
            if let country {
                if let known = table.numbers(for: country) {
                    numbers = .known(known)
                    helplines = table.helplines(for: country)
                } else {
                    numbers = .notListed(country: country)
                }
            } else {
                numbers = .unknownCountry
            }
        }
        return EmergencyReport(numbers: numbers, helplines: helplines, personal: personal)
    }
}
