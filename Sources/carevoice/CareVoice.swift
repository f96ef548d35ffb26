import ArgumentParser
import Foundation
import Logging

@main
struct CareVoice: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carevoice",
        abstract: "An offline, voice-first health assistant.",
        discussion: "Run without a command to start the assistant: say or type a glucose reading.",
        subcommands: [AssistantCommand.self, ReadingsCommand.self, DiaryCommand.self, DayCommand.self, TrendCommand.self, ReportCommand.self, EmailCommand.self, ExportCommand.self, BenchCommand.self, ListenCommand.self, SayCommand.self,
                      EmergencyCommand.self, ContactsCommand.self, OnboardingCommand.self, ProfileCommand.self,
                      SettingsCommand.self, RemindCommand.self, EnrollCommand.self,
                      GrammarCommand.self],
        defaultSubcommand: AssistantCommand.self
    )
}

/// Options every command accepts, before or after its name.
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Where your data lives (default: $XDG_DATA_HOME/carevoice or ~/.local/share/carevoice).")
    var dataDirectory: String?

    @Option(help: "Language: en or zh-Hans (Simplified Chinese). Default: your language setting, else $LANG.")
    var locale: String?

    @Option(help: "Country for emergency numbers (ISO 3166 code such as US, GB, CN).")
    var country: String?

    @Flag(name: .customLong("no-speech"), help: "Do not speak; show text only.")
    var noSpeech = false

    @Flag(help: "Plain output for screen readers: no colour, one fact per line.")
    var plain = false

    @Flag(help: "Log what the recognizer hears (to stderr).")
    var verbose = false

    func validate() throws {
        if let country, !(country.count == 2 && country.allSatisfy({ $0.isASCII && $0.isLetter })) {
            throw ValidationError("--country takes a two-letter country code, such as CA, GB or CN")
        }
    }
}
