import CPocketSphinx

/// A JSGF grammar's finite-state form, asked where a sequence of words stands in it: the
/// decoder's own copy is out of reach, so the grammar is built a second time for this.
///
/// Not thread-safe; it belongs to the `SpeechRecognizer` that made it.
final class GrammarShape {
    /// Where words stand in the grammar.
    enum Standing: Equatable {
        /// No sentence starts with them.
        case outside
        /// The start of a sentence, not yet a whole one.
        case partial
        /// A whole sentence; `goesOn` when a longer sentence starts with it too.
        case complete(goesOn: Bool)
    }

    private let fsg: OpaquePointer

    /// Nil when the source is not a JSGF grammar with a public rule.
    init?(jsgf source: String) {
        guard let fsg = carevoice_fsg_init(source) else { return nil }
        self.fsg = fsg
    }

    deinit { carevoice_fsg_free(fsg) }

    /// Where `words` (as the decoder spells them, lowercase, separated by blanks) stand.
    func standing(of words: String) -> Standing {
        let status = Int(carevoice_fsg_prefix(fsg, words.split(whereSeparator: \.isWhitespace).joined(separator: " ")))
        func has(_ flag: Int) -> Bool { status & flag != 0 }
        guard has(CAREVOICE_FSG_PREFIX) else { return .outside }
        guard has(CAREVOICE_FSG_COMPLETE) else { return .partial }
        return .complete(goesOn: has(CAREVOICE_FSG_GOES_ON))
    }
}
