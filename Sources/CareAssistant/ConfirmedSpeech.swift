import CareLanguage
import CareSpeech
import CareStore
import Foundation

extension DataDirectory {
    /// The recordings of confirmed readings (`ConfirmedSpeech`).
    public var confirmedSpeech: KeptSpeech {
        KeptSpeech(directory: url.appendingPathComponent("confirmed-speech"), limit: ConfirmedSpeech.kept)
    }

    /// "Forget my voice": the learned voice, and the recordings it would be learned from again;
    /// whether there was either.
    public func forgetVoice() throws -> Bool {
        let hadVoice = FileManager.default.fileExists(atPath: voiceDirectory.path)
        try AdaptedVoice.forget(in: voiceDirectory)
        let hadRecordings = try confirmedSpeech.forget()
        return hadVoice || hadRecordings
    }
}

/// What the person said and then confirmed, kept to learn their voice from without asking them
/// to enroll: a reading saved exactly as it was heard has words known to be right, and so does
/// one whose number they corrected on the line (`wordsSaid`).
///
/// A voice learned so from 12 readings each person confirmed took the rest of their readings
/// from 58 to 136 of 140 (five espeak-ng voices used in no calibration, `bench corpus --readings
/// 200 --seed 45`, each voice's first 12 readings heard right learned from with the words heard:
/// `bench enrollment --from-heard --count 12`). With the readings heard wrong only in their
/// number learned from too, as corrected (`--corrected`), the first 12 are not the same dozen:
/// 79 to 140 of 140. At 10 dB of pink noise, learned in that noise: 57 to 114 of 141 heard right
/// only, 78 to 121 of 140 with corrections.
///
/// They are kept in a `KeptSpeech` of the latest `kept` (`DataDirectory.confirmedSpeech`).
public enum ConfirmedSpeech {
    /// The most recordings kept: the oldest go first.
    public static let kept = 40

    /// Whether to learn the voice from `kept` confirmed recordings now, given the voice stored
    /// (its record, nil when none) and how many enrollment phrases are kept with it:
    /// - with no voice, from the first `minimumToLearn`;
    /// - a voice learned from confirmed readings, again each time `moreToLearnAgain` more were
    ///   kept since;
    /// - a voice learned from enrollment phrases, with them, as soon as `moreToLearnAgain` more
    ///   readings were kept than it learned from: phrases chosen to cover every digit and word,
    ///   and readings said as the person says them in use. On five espeak-ng voices used in no
    ///   calibration, the readings after each voice's first 6 heard right with its enrolled
    ///   voice went from 57 to 64 of 70 learned again so, 60 to 68 with the readings corrected
    ///   on the line too (`bench enrollment --then-confirmed 6 [--corrected]`). (A voice
    ///   enrolled before its phrases were kept stands: readings alone would lose what the
    ///   phrases taught.)
    public static func shouldLearn(kept: Int, stored: AdaptedVoice.Record?, phrases: Int) -> Bool {
        guard let stored else { return kept >= minimumToLearn }
        if phrases > 0 { return kept >= stored.confirmedCount + moreToLearnAgain }
        guard stored.source == .confirmedSpeech else { return false }
        return kept >= max(minimumToLearn, stored.utterances + moreToLearnAgain)
    }

    /// Whether a reading heard with this fit is kept once confirmed: not one heard as a guess
    /// (below `SpeechAcceptance.confidentFit`), nor one whose fit was not measured. A yes can be
    /// given to a read-back that was wrong. Learned from the first 12 readings of each held-out
    /// voice above whatever was heard (23 of the 60 heard wrong), the rest went from 81 to 119 of
    /// 140; from the first 12 that fitted at least -20 (18 wrong), 78 to 128; from only those
    /// heard right (`bench enrollment --from-heard`), 58 to 136.
    public static func keeps(fit: Double?) -> Bool {
        guard let fit else { return false }
        return fit >= SpeechAcceptance.confidentFit
    }

    /// The words of a reading heard as `heard` (understood as `heardAs`) and saved as `saved`,
    /// to keep with its recording: the words heard when it was saved as heard; when only its
    /// number differs (the person corrected it on the editable line), the words heard with that
    /// number said as saved. Nil when more than the number changed, or the words heard hold no
    /// number or more than one; and in a language whose numbers are not words of their own.
    /// The recording is checked against these words again before a voice is learned from it.
    public static func wordsSaid(heard: String, heardAs: GlucoseDraft, saved: GlucoseDraft, numbers: NumberWords) -> [String]? {
        let words = VoiceEnrollment.words(heard)
        if heardAs == saved { return words }
        var corrected = heardAs
        corrected.number = saved.number
        guard corrected == saved, !numbers.isChinese else { return nil }
        var spans: [Range<Int>] = []
        var index = 0
        while index < words.count {
            if let (_, consumed) = numbers.parse(words[index...]), consumed > 0 {
                spans.append(index..<index + consumed)
                index += consumed
            } else {
                index += 1
            }
        }
        guard spans.count == 1, let span = spans.first else { return nil }
        return Array(words[..<span.lowerBound]) + VoiceEnrollment.words(numbers.spell(saved.number)) + Array(words[span.upperBound...])
    }

    /// Readings confirmed before a voice is first learned from them (the 12 measured above).
    public static let minimumToLearn = 12
    /// More confirmed since the voice was last learned before it is learned again.
    public static let moreToLearnAgain = 6
}
