import CareLanguage
import CareModel
import CareSpeech
import Foundation

/// Builds the recognizer the assistant uses: Debian's acoustic model, the
/// locale's dictionary plus our extra words, and one grammar per listening context.
public enum RecognizerFactory {
    /// - Parameter countries: the countries the onboarding country question may hear (ISO codes).
    public static func make(table: LocaleTable, resources: ResourceLocator, countries: [String] = [],
                            extraArguments: [String: String] = [:]) throws -> SpeechRecognizer {
        var configuration = SpeechRecognizer.Configuration()
        configuration.modelDirectory = table.speech.acousticModel
        configuration.dictionary = table.speech.dictionary
        configuration.extraWords = resources.extraPronunciations(for: table)
        configuration.extraArguments = extraArguments
        // The dialog's grammars use only words the locale table vouches for (a test checks them).
        let base = GrammarBuilder(table: table)
        let baseContexts: [ListeningContext] = [.reading, .answer, .confirmation]
        let grammars = Dictionary(uniqueKeysWithValues: zip(baseContexts.map(\.rawValue), base.jsgf(for: baseContexts)))
        let recognizer = try SpeechRecognizer(configuration, grammars: grammars)
        // The question grammars name countries too; only those the recognizer can pronounce are
        // said (every one can be typed).
        let candidates = GrammarBuilder(table: table, countries: countries)
        let pronounceable = Set(candidates.words.filter { recognizer.canPronounce($0) })
        let builder = GrammarBuilder(table: table, countries: countries, isPronounceable: { pronounceable.contains($0) })
        let questionContexts = ProfileQuestion.allCases.map { ListeningContext.question($0) } + [.contactRelation]
        for (context, source) in zip(questionContexts, builder.jsgf(for: questionContexts)) {
            try recognizer.addGrammar(name: context.rawValue, source: source)
        }
        try recognizer.selectGrammar(ListeningContext.reading.rawValue)
        return recognizer
    }
}
