import ArgumentParser
import CareLanguage

struct GrammarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "grammar", abstract: "Print the recognizer grammar (JSGF) of a dialog state.")

    @OptionGroup var common: CommonOptions
    @Option(help: "reading or answer") var state: String = "reading"

    func run() throws {
        let env = try AppEnvironment.make(common)
        guard let context = ListeningContext(rawValue: state) else {
            throw ValidationError("--state must be one of: \(ListeningContext.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        print(GrammarBuilder(table: env.table).jsgf(for: context), terminator: "")
    }
}
