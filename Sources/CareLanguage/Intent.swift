import CareModel
import Foundation

/// What a person meant by one utterance or typed line.
public enum Intent: Sendable, Equatable {
    case glucose(GlucoseDraft)
    /// A unit or a meal said on its own after a reading was read back ("before breakfast",
    /// "millimoles per litre after lunch"): it completes or corrects the reading waiting for a yes.
    case readingDetails(ReadingDetails)
    case answer(Answer)
    case emergency
    case quit
    /// "Forget my voice": go back to the general voice model (what `carevoice enroll --forget`
    /// does), after a yes.
    case forgetVoice
    /// "Learn my voice", "enroll again": learn the person's voice from short phrases said after
    /// the assistant (what `carevoice enroll` does), after a yes.
    case learnVoice
    /// A change to the profile or the settings ("change my weight to 70 kilos", "speak slower").
    case change(ChangeRequest)
    /// Adding, listing or removing emergency contacts ("add a contact", "remove contact two").
    case contacts(ContactRequest)
    /// "How am I doing this week?": an overview of this period.
    case overview(ReportRange)
    /// "What did I record yesterday?": the readings and notes of the day this many days ago.
    case recall(daysAgo: Int)
    /// "Add a note", "note: porridge for breakfast", "I had rice and fish for dinner".
    case note(NoteRequest)
    /// "Delete the last reading", "change the last reading to 7.1", "undo".
    case edit(EditRequest)
    /// Nothing we can act on.
    case unknown
}

extension Intent {
    /// Whether more words said after these could not change what they mean: an answer ("yes",
    /// "yes please") and a call for help ("help", "help me"). A reading could still gain its
    /// meal, a number its last digit.
    public var meansTheSameWhateverFollows: Bool {
        switch self {
        case .answer, .emergency: return true
        default: return false
        }
    }

    /// Whether these words can be answered as soon as the person pauses, though more could
    /// follow: those that mean the same whatever follows, and a reading whose number is whole
    /// (`GlucoseDraft.numberIsWhole`), which can gain only its unit or meal, and those may also
    /// be said after the read-back (`readingDetails`); and such details themselves ("before
    /// breakfast", which "this morning" may follow): what follows them is added in turn.
    public var canBeAnsweredAtOnce: Bool {
        if meansTheSameWhateverFollows { return true }
        switch self {
        case .glucose(let draft): return draft.numberIsWhole
        case .readingDetails: return true
        default: return false
        }
    }
}

extension GlucoseDraft {
    /// Whether no more number words can follow the number said: it has its decimal, its unit
    /// was said after it, or it is too high for a decimal to follow (no mmol/L value is) and
    /// ends in a digit ("one hundred ninety six"). A number that could still gain a word
    /// ("twenty" ... "one", "six" ... "point five", "one hundred twenty" ... "five") is not.
    public var numberIsWhole: Bool {
        if number.contains(".") || unit != nil { return true }
        return value > GlucoseUnit.mmolPerL.plausibleRange.upperBound && number.last != "0"
    }
}

/// What may be said about a reading after it: its unit, its meal, when it was taken ("this
/// morning"), or some of these.
public struct ReadingDetails: Sendable, Equatable {
    public var unit: GlucoseUnit?
    public var tag: MealTag?
    public var time: TimeExpression?

    public init(unit: GlucoseUnit? = nil, tag: MealTag? = nil, time: TimeExpression? = nil) {
        self.unit = unit
        self.tag = tag
        self.time = time
    }
}

public enum Answer: String, Sendable, Equatable, CaseIterable {
    case yes, no, cancel, `repeat`
}

/// A glucose reading as it was said, before units are settled and the time is resolved.
public struct GlucoseDraft: Sendable, Equatable {
    /// The number exactly as said, in digits ("6.5", "0.299", "120"): never re-derived
    /// from a Double, so a decimal point cannot get lost or invented.
    public var number: String
    public var unit: GlucoseUnit?
    public var tag: MealTag?
    public var time: TimeExpression?

    public init(number: String, unit: GlucoseUnit? = nil, tag: MealTag? = nil, time: TimeExpression? = nil) {
        self.number = number
        self.unit = unit
        self.tag = tag
        self.time = time
    }

    public var value: Double { Double(number) ?? .nan }

    /// The reading with what was said after it: a unit, meal or time said later replaces the one
    /// it had.
    public func adding(_ details: ReadingDetails) -> GlucoseDraft {
        var draft = self
        draft.unit = details.unit ?? unit
        draft.tag = details.tag ?? tag
        draft.time = details.time ?? time
        return draft
    }
}
