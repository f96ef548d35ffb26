import CareLanguage
import CareModel
import Foundation

/// The onboarding questionnaire as a pure state machine, like `Dialog`: one question at a time,
/// every answer read back and confirmed, "back" and "repeat" always, "skip" where allowed, help
/// at any moment, and nothing saved until one last yes on the summary.
public struct Questionnaire: Conversation {
    public enum State: Sendable, Equatable {
        case asking(ProfileQuestion)
        /// An answer was read back; waiting for yes (or a correction).
        case confirming(ProfileQuestion, ProfileAnswer)
        /// Everything read back; waiting for the last yes.
        case summary
        /// Saving was asked for; waiting for the store.
        case saving
        /// "Goodbye" was heard half-way (in the state here): shall the questions stop, and the
        /// answers go unsaved? In noise an answer was heard as "bye".
        indirect case stopping(State)
        case finished(saved: Bool)
    }

    public private(set) var state: State
    /// Confirmed answers; kept when going back or through the questions again.
    public private(set) var answers: [ProfileQuestion: ProfileAnswer] = [:]
    public private(set) var phrasebook: Phrasebook
    private var parser: ProfileAnswerParser
    private var utterances: UtteranceParser
    private let countries: [String]
    private let today: CalendarDay
    /// Settings already in force (a second run keeps what the questions do not ask).
    private let baseSettings: Settings

    public init(phrasebook: Phrasebook, countries: [String], today: CalendarDay, settings: Settings = Settings(),
                answers: [ProfileQuestion: ProfileAnswer] = [:]) {
        self.answers = answers
        self.phrasebook = phrasebook
        self.parser = ProfileAnswerParser(table: phrasebook.table)
        self.utterances = UtteranceParser(table: phrasebook.table)
        self.countries = countries
        self.today = today
        self.baseSettings = settings
        state = .asking(ProfileQuestion.allCases[0])
    }

    /// The same questions, answers and place, from now on in another language.
    public func speaking(_ book: Phrasebook) -> Questionnaire {
        var switched = self
        switched.phrasebook = book
        switched.parser = ProfileAnswerParser(table: book.table)
        switched.utterances = UtteranceParser(table: book.table)
        return switched
    }

    /// The person's body units, once chosen: they shape how heights and weights are read.
    private var units: BodyUnits {
        if case .bodyUnits(let u)? = answers[.bodyUnits] { return u }
        return baseSettings.bodyUnits
    }

    public var listeningContext: ListeningContext {
        switch state {
        case .asking(let q), .confirming(let q, _): return .question(q)
        case .summary, .saving, .stopping, .finished: return .confirmation
        }
    }

    /// `now` is not needed: the day of reference was given at the start.
    public mutating func handle(_ event: DialogEvent, now: Date = Date()) -> [DialogEffect] {
        // Every answer is read back and needs a yes already: a loosely heard one is no different.
        if case .heardUnsure(let text) = event { return handle(.heard(text), now: now) }
        // Nothing is saved until the questionnaire's end, where the summary is confirmed again.
        if case .heardDoubtfulYes(let text) = event { return handle(.heard(text), now: now) }
        // A spoken goodbye asks first when answers would be lost; a typed one is meant.
        if case .heard(let text) = event, command(text) == .quit, losesAnswers {
            state = .stopping(state)
            return [.say(phrasebook.onboarding(.stopAsk)), .listen(.confirmation)]
        }
        switch (state, event) {
        case (.finished, _), (.saving, .heard), (.saving, .typed), (.saving, .edited), (.saving, .cancelledByKey):
            return []
        case (_, .started):
            return [.say(phrasebook.onboarding(.welcome))] + ask(ProfileQuestion.allCases[0])
        case (_, .endOfInput), (_, .cancelledByKey):
            // Quitting half-way keeps nothing; the next start begins again.
            state = .finished(saved: false)
            return [.say(phrasebook.onboarding(.notSaved)), .exit]
        case (.saving, .onboardingSaved):
            state = .finished(saved: true)
            return [.say(phrasebook.onboarding(.saved)), .exit]
        case (.confirming(.language, let answer), .languageSwitched(let switched)):
            // In the new language already, when the runtime could switch to it.
            return [.say(phrasebook.onboarding(switched ? .languageNow : .languageNextStart))]
                + advance(from: .language, keeping: answer)
        case (.saving, .saveFailed(let reason)):
            state = .summary
            return [.say(phrasebook.message(.saveFailed, ["reason": Message(reason)]))] + summary()
        case (.asking(let q), .heard(let text)), (.asking(let q), .typed(let text)):
            return whileAsking(q, text, edited: false)
        case (.asking(let q), .edited(let text)):
            return whileAsking(q, text, edited: true)
        case (.confirming(let q, let answer), .heard(let text)), (.confirming(let q, let answer), .typed(let text)):
            return whileConfirming(q, answer, text, edited: false)
        case (.confirming(let q, let answer), .edited(let text)):
            return whileConfirming(q, answer, text, edited: true)
        case (.summary, .heard(let text)), (.summary, .typed(let text)), (.summary, .edited(let text)):
            return atTheSummary(text)
        case (.stopping(let interrupted), .heard(let text)), (.stopping(let interrupted), .typed(let text)),
             (.stopping(let interrupted), .edited(let text)):
            return answerStopQuestion(text, interrupted: interrupted)
        default:
            return []
        }
    }

    // MARK: Transitions

    private mutating func ask(_ question: ProfileQuestion) -> [DialogEffect] {
        state = .asking(question)
        var effects: [DialogEffect] = [.say(phrasebook.question(question, contactName: contactName))]
        // An answer kept from before is offered again: Enter (or yes) keeps it.
        if let kept = answers[question] {
            effects.append(.showEditable(prompt: "> ", text: phrasebook.wording(kept, units: units).editable))
        }
        return effects + [.listen(.question(question))]
    }

    private var contactName: String? {
        if case .contactName(let name)? = answers[.contactName] { return name }
        return nil
    }

    /// The commands that work in every state: help, back, repeat, goodbye.
    private enum Command { case emergency, back, repeatQuestion, yes, no, quit, skip }

    /// Leaving now would drop an answer given or read back (the summary holds them all).
    private var losesAnswers: Bool {
        switch state {
        case .asking: return !answers.isEmpty
        case .confirming, .summary: return true
        case .saving, .stopping, .finished: return false
        }
    }

    /// The answer to "Do you want to stop setting up?": yes (or goodbye again) stops and saves
    /// nothing; help is given; anything else goes back to where the questions were.
    private mutating func answerStopQuestion(_ text: String, interrupted: State) -> [DialogEffect] {
        switch command(text) {
        case .yes?, .quit?:
            state = .finished(saved: false)
            return [.say(phrasebook.onboarding(.notSaved)), .exit]
        case .emergency?:
            return [.showEmergency, .say(phrasebook.onboarding(.goOn))] + resume(interrupted)
        default:
            return resume(interrupted)
        }
    }

    /// Back where the questions were, asked again.
    private mutating func resume(_ interrupted: State) -> [DialogEffect] {
        switch interrupted {
        case .asking(let q): return ask(q)
        case .confirming(let q, let answer): return readBack(q, answer)
        default: return summary()
        }
    }

    private func command(_ text: String) -> Command? {
        if let navigation = parser.navigation(text) { return navigation == .back ? .back : .skip }
        switch utterances.parse(text) {
        case .emergency: return .emergency
        case .quit: return .quit
        case .answer(.repeat): return .repeatQuestion
        case .answer(.yes): return .yes
        case .answer(.no), .answer(.cancel): return .no
        default: return nil
        }
    }

    /// - Parameter edited: the line was offered pre-filled with the answer kept from before:
    ///   unchanged it keeps that answer, changed it is a new answer, confirmed by the edit.
    private mutating func whileAsking(_ q: ProfileQuestion, _ text: String, edited: Bool) -> [DialogEffect] {
        if edited, let kept = answers[q] {
            let line = text.trimmingCharacters(in: .whitespaces)
            if line == phrasebook.wording(kept, units: units).editable { return advance(from: q, keeping: kept) }
            if command(line) == nil, !line.isEmpty,
               case .answer(let changed) = parser.answer(to: q, line, units: units, countries: countries, today: today, book: phrasebook) {
                return accept(q, changed)
            }
        }
        switch command(text) {
        case .emergency?:
            return [.showEmergency, .say(phrasebook.onboarding(.goOn))] + ask(q)
        case .back?:
            return ask(q.previous ?? q)
        case .repeatQuestion?:
            return ask(q)
        case .quit?:
            state = .finished(saved: false)
            return [.say(phrasebook.onboarding(.notSaved)), .exit]
        case .skip?:
            guard q.isOptional else { return [.say(phrasebook.onboarding(.required))] + ask(q) }
            answers[q] = .skipped
            // No name, no number to ask for.
            if q == .contactName { answers[.contactPhone] = .skipped; return advance(from: .contactPhone) }
            return advance(from: q)
        case .yes?:
            // "Yes" keeps the answer offered from before; otherwise it is no answer.
            if let kept = answers[q] { return advance(from: q, keeping: kept) }
            return [.say(phrasebook.onboarding(.notUnderstood))] + ask(q)
        case .no?, nil:
            if text.trimmingCharacters(in: .whitespaces).isEmpty {
                if let kept = answers[q] { return advance(from: q, keeping: kept) }
                return ask(q)
            }
            return understand(q, text)
        }
    }

    private mutating func whileConfirming(_ q: ProfileQuestion, _ answer: ProfileAnswer, _ text: String,
                                          edited: Bool) -> [DialogEffect] {
        let shown = phrasebook.wording(answer, units: units).editable
        if edited && text.trimmingCharacters(in: .whitespaces) == shown { return accept(q, answer) }
        switch command(text) {
        case .yes?:
            return accept(q, answer)
        case .no?:
            return ask(q)
        case .emergency?:
            return [.showEmergency, .say(phrasebook.onboarding(.goOn))] + readBack(q, answer)
        case .back?:
            return ask(q.previous ?? q)
        case .repeatQuestion?:
            return readBack(q, answer)
        case .quit?:
            state = .finished(saved: false)
            return [.say(phrasebook.onboarding(.notSaved)), .exit]
        case .skip?:
            return whileAsking(q, text, edited: false)
        case nil:
            if text.trimmingCharacters(in: .whitespaces).isEmpty { return edited ? ask(q) : readBack(q, answer) }
            // A changed line is itself the confirmation (as with readings); a new spoken answer is read back.
            switch parser.answer(to: q, text, units: units, countries: countries, today: today, book: phrasebook) {
            case .answer(let corrected): return edited ? accept(q, corrected) : readBack(q, corrected)
            case .problem(let why): return [.say(why)] + ask(q)
            case .notUnderstood: return [.say(phrasebook.onboarding(.notUnderstood))] + readBack(q, answer)
            }
        }
    }

    private mutating func understand(_ q: ProfileQuestion, _ text: String) -> [DialogEffect] {
        switch parser.answer(to: q, text, units: units, countries: countries, today: today, book: phrasebook) {
        case .answer(let answer): return readBack(q, answer)
        case .problem(let why): return [.say(why)] + ask(q)
        case .notUnderstood: return [.say(phrasebook.onboarding(.notUnderstood))] + ask(q)
        }
    }

    private mutating func readBack(_ q: ProfileQuestion, _ answer: ProfileAnswer) -> [DialogEffect] {
        state = .confirming(q, answer)
        let words = phrasebook.wording(answer, units: units)
        return [.say(phrasebook.onboarding(.readBack, ["answer": words.message])),
                .showEditable(prompt: phrasebook.text(.heardPrompt), text: words.editable),
                .listen(.question(q))]
    }

    private mutating func accept(_ q: ProfileQuestion, _ answer: ProfileAnswer) -> [DialogEffect] {
        if case .language(let language) = answer, language.rawValue != phrasebook.table.id {
            // The runtime changes language first, so that the next question is already asked in
            // it; the answer is kept when it says so (`languageSwitched`).
            state = .confirming(q, answer)
            return [.switchLanguage(language)]
        }
        return advance(from: q, keeping: answer)
    }

    private mutating func advance(from q: ProfileQuestion, keeping answer: ProfileAnswer? = nil) -> [DialogEffect] {
        if let answer { answers[q] = answer }
        if q == .contactName, answers[.contactName] != .skipped, answers[.contactPhone] == .skipped {
            answers[.contactPhone] = nil   // a name was given after all: its number is needed
        }
        guard let next = q.next else { return summary() }
        return ask(next)
    }

    private mutating func summary() -> [DialogEffect] {
        state = .summary
        return phrasebook.onboardingSummary(answers, units: units).map { DialogEffect.say($0) } + [.listen(.confirmation)]
    }

    private mutating func atTheSummary(_ text: String) -> [DialogEffect] {
        switch command(text) {
        case .yes?:
            guard let result = OnboardingResult(answers: answers, base: baseSettings) else {
                // A required answer went missing (cannot happen by these rules): ask from the top.
                return ask(ProfileQuestion.allCases[0])
            }
            state = .saving
            return [.saveOnboarding(result)]
        case .no?:
            return [.say(phrasebook.onboarding(.goThroughAgain))] + ask(ProfileQuestion.allCases[0])
        case .back?:
            return ask(ProfileQuestion.allCases.last!)
        case .emergency?:
            return [.showEmergency, .say(phrasebook.onboarding(.goOn))] + summary()
        case .quit?:
            state = .finished(saved: false)
            return [.say(phrasebook.onboarding(.notSaved)), .exit]
        case .repeatQuestion?, .skip?, nil:
            return summary()
        }
    }
}
