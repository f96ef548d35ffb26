import CareLanguage
import CareSpeech
import Foundation

/// Builds the recognizer the assistant uses: Debian's acoustic model, the
/// locale's dictionary plus our extra words, and one grammar per listening context.
public enum RecognizerFactory {
    public static func make(table: LocaleTable, resources: ResourceLocator,
                            extraArguments: [String: String] = [:]) throws -> SpeechRecognizer {
        var configuration = SpeechRecognizer.Configuration()
        configuration.modelDirectory = table.speech.acousticModel
        configuration.dictionary = table.speech.dictionary
        configuration.extraWords = resources.extraPronunciations(for: table)
        configuration.extraArguments = extraArguments
        let builder = GrammarBuilder(table: table)
        var grammars: [String: String] = [:]
        for context in ListeningContext.allCases { grammars[context.rawValue] = builder.jsgf(for: context) }
        let recognizer = try SpeechRecognizer(configuration, grammars: grammars)
        try recognizer.selectGrammar(ListeningContext.reading.rawValue)
        return recognizer
    }
}
