import CareAssistant
import CareLanguage
import CareModel
import CareStore
import CareTerminal
import Foundation
import Logging

/// What every command sets up first: logging, resources, the locale, the data directory.
struct AppEnvironment {
    let resources: ResourceLocator
    let table: LocaleTable
    let phrasebook: Phrasebook
    let dataDirectory: DataDirectory
    let style: OutputStyle
    /// ISO 3166-1 alpha-2 from --country, upper case; nil when not given.
    let country: String?
    /// --no-speech.
    let noSpeech: Bool

    /// Emergency help for this person: the number table and their emergency card.
    var emergencyHelp: EmergencyHelp {
        EmergencyHelp(resources: resources, country: country, dataDirectory: dataDirectory)
    }

    static func make(_ options: CommonOptions) throws -> AppEnvironment {
        // Health data: nothing we create is readable by others.
        umask(0o077)
        let level: Logger.Level = options.verbose ? .debug : .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        guard let resources = ResourceLocator.find() else {
            throw CommandFailure("cannot find the locales/ folder; set CAREVOICE_HOME to the CareVoice checkout")
        }
        let localeID = options.locale ?? Self.localeFromEnvironment()
        let table = try resources.loadLocale(localeID)
        let directory = options.dataDirectory.map { DataDirectory(url: URL(fileURLWithPath: $0)) } ?? DataDirectory.standard()
        return AppEnvironment(resources: resources, table: table, phrasebook: Phrasebook(table: table),
                              dataDirectory: directory, style: OutputStyle.detect(plainRequested: options.plain),
                              country: options.country?.uppercased(), noSpeech: options.noSpeech)
    }

    /// Only English exists yet; Chinese arrives with its locale table.
    static func localeFromEnvironment() -> String { "en" }
}

/// A failure the person can act on, printed as one sentence.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
