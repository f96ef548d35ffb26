import CareModel
import Foundation

/// Keys of `onboarding:` in the locale tables. The table loader checks each locale has them all.
public enum OnboardingKey: String, Sendable, CaseIterable {
    case welcome, language, languageSpoken, glucoseUnit, bodyUnits, dateOfBirth, height, weight, sex, diabetesType
    case country, contactName, contactPhone, reminder, readBack, summaryIntro, summaryLine, summaryQuestion
    case saved, notSaved, goThroughAgain, stopAsk
    case notUnderstood, required, languageNow, languageNextStart, unknownCountry, heightOutOfRange, weightOutOfRange, bornTooEarly
    case bornInTheFuture, noSuchDay, ambiguousDate, phoneProblem, goOn, skipped
}

/// An answer as it is read back: shown, said, and put on the editable line (which parses back
/// to the same answer, so Enter on it confirms exactly what was read back).
public struct AnswerWording: Sendable, Equatable {
    public var display: String
    public var spoken: String
    public var editable: String

    public var message: Message { Message(display: display, spoken: spoken) }
}

/// What a typed or spoken answer to one question came to.
public enum AnswerOutcome: Sendable, Equatable {
    case answer(ProfileAnswer)
    /// Understood, but not acceptable: the sentence says why.
    case problem(Message)
    case notUnderstood
}

extension Phrasebook {
    public func onboarding(_ key: OnboardingKey, _ arguments: [String: Message] = [:]) -> Message {
        Message(filling: table.onboarding[key.rawValue] ?? key.rawValue, arguments)
    }

    /// The question as shown and said. The language question is shown in both languages; its
    /// Chinese half is not spoken by the English voice (it would be misread).
    public func question(_ question: ProfileQuestion, contactName: String?) -> Message {
        switch question {
        case .language:
            return Message(display: onboarding(.language).display, spoken: onboarding(.languageSpoken).spoken)
        case .contactPhone:
            return onboarding(.contactPhone, ["name": Message(contactName ?? "")])
        default:
            return onboarding(OnboardingKey(rawValue: question.rawValue)!)
        }
    }

    /// An answer read back, in the person's units.
    public func wording(_ answer: ProfileAnswer, units: BodyUnits) -> AnswerWording {
        let p = table.profile
        func choice<T: RawRepresentable>(_ value: T, _ choices: [String: LocaleTable.Choice]) -> AnswerWording
        where T.RawValue == String {
            let c = choices[value.rawValue]
            return AnswerWording(display: c?.speak ?? value.rawValue, spoken: c?.speak ?? value.rawValue,
                                 editable: c?.say.first ?? value.rawValue)
        }
        func fill(_ template: String, _ values: [String: String]) -> String {
            values.reduce(template) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
        }
        switch answer {
        case .language(let l): return choice(l, p.languages)
        case .glucoseUnit(let u):
            let phrases = table.phrases(for: u)
            return AnswerWording(display: "\(phrases.speak) (\(phrases.symbol))", spoken: phrases.speak, editable: phrases.symbol)
        case .bodyUnits(let u): return choice(u, p.bodyUnits)
        case .dateOfBirth(let day):
            let shown = formatDay(day, p.dateFormat)
            return AnswerWording(display: shown, spoken: shown, editable: day.description)
        case .height(let cm):
            switch units {
            case .metric:
                let value = String(Int(cm.rounded()))
                let shown = fill(p.heightCm, ["value": value])
                return AnswerWording(display: shown, spoken: fill(p.heightCmSpoken, ["value": value]), editable: shown)
            case .imperial:
                let (feet, inches) = BodyMeasure.feetAndInches(cm)
                let values = ["feet": String(feet), "inches": String(inches)]
                let shown = fill(p.heightFeet, values)
                return AnswerWording(display: shown, spoken: fill(p.heightFeetSpoken, values), editable: shown)
            }
        case .weight(let kg):
            switch units {
            case .metric:
                let value = GlucoseLevel.format(kg, maxFractionDigits: 1)
                let shown = fill(p.weightKg, ["value": value])
                return AnswerWording(display: shown, spoken: fill(p.weightKgSpoken, ["value": value]), editable: shown)
            case .imperial:
                let value = String(Int(BodyMeasure.pounds(kg).rounded()))
                let shown = fill(p.weightLb, ["value": value])
                return AnswerWording(display: shown, spoken: fill(p.weightLbSpoken, ["value": value]), editable: shown)
            }
        case .sex(let s): return choice(s, p.sexes)
        case .diabetesType(let t): return choice(t, p.diabetesTypes)
        case .country(let code):
            let name = countryName(code)
            return AnswerWording(display: name, spoken: name, editable: name)
        case .contactName(let name): return AnswerWording(display: name, spoken: name, editable: name)
        case .contactPhone(let number):
            let said = phoneNumber(number)
            return AnswerWording(display: said.display, spoken: said.spoken, editable: number)
        case .reminder(let r): return choice(r, p.reminders)
        case .skipped:
            let word = table.onboarding[OnboardingKey.skipped.rawValue] ?? "skipped"
            return AnswerWording(display: word, spoken: word, editable: p.skip.first ?? word)
        }
    }

    /// The final read-back, one answer a line ("born: 4 March 1948."), for screen readers.
    public func onboardingSummary(_ answers: [ProfileQuestion: ProfileAnswer], units: BodyUnits) -> [Message] {
        var lines = [onboarding(.summaryIntro)]
        for question in ProfileQuestion.allCases {
            guard let answer = answers[question] else { continue }
            if question == .contactPhone, answers[.contactName] == .skipped { continue }
            let label = table.profile.summaryLabels[question.rawValue] ?? question.rawValue
            lines.append(onboarding(.summaryLine, ["label": Message(label), "answer": wording(answer, units: units).message]))
        }
        return lines + [onboarding(.summaryQuestion)]
    }

    private func formatDay(_ day: CalendarDay, _ pattern: String) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        guard let date = utc.date(from: DateComponents(year: day.year, month: day.month, day: day.day)) else {
            return day.description
        }
        // A calendar day has no time zone: midnight UTC, formatted in UTC, is that day anywhere.
        return format(date, pattern, in: utc)
    }
}

extension ProfileAnswerParser {
    /// Reads one question's answer and checks it is plausible. `units` are the body units chosen
    /// earlier; `countries` the codes that may be named; `today` bounds the date of birth.
    public func answer(to question: ProfileQuestion, _ text: String, units: BodyUnits, countries: [String],
                       today: CalendarDay, book: Phrasebook) -> AnswerOutcome {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .notUnderstood }
        let p = table.profile
        func problem(_ key: OnboardingKey) -> AnswerOutcome { .problem(book.onboarding(key, ["answer": Message(trimmed)])) }
        switch question {
        case .language:
            return choice(text, in: p.languages, as: Language.self).map { .answer(.language($0)) } ?? .notUnderstood
        case .glucoseUnit:
            return glucoseUnit(text).map { .answer(.glucoseUnit($0)) } ?? .notUnderstood
        case .bodyUnits:
            return choice(text, in: p.bodyUnits, as: BodyUnits.self).map { .answer(.bodyUnits($0)) } ?? .notUnderstood
        case .sex:
            return choice(text, in: p.sexes, as: Sex.self).map { .answer(.sex($0)) } ?? .notUnderstood
        case .diabetesType:
            return choice(text, in: p.diabetesTypes, as: DiabetesType.self).map { .answer(.diabetesType($0)) } ?? .notUnderstood
        case .reminder:
            return choice(text, in: p.reminders, as: ReminderInterval.self).map { .answer(.reminder($0)) } ?? .notUnderstood
        case .dateOfBirth:
            switch dateOfBirth(text) {
            case .ambiguous: return problem(.ambiguousDate)
            case .unreadable: return .notUnderstood
            case .day(let day):
                switch ProfileLimits.check(birth: day, today: today) {
                case nil: return .answer(.dateOfBirth(day))
                case .noSuchDay?: return problem(.noSuchDay)
                case .bornTooEarly?: return problem(.bornTooEarly)
                default: return problem(.bornInTheFuture)
                }
            }
        case .height:
            guard let cm = height(text, units: units) else { return .notUnderstood }
            return ProfileLimits.check(height: cm) == nil ? .answer(.height(cm: cm)) : problem(.heightOutOfRange)
        case .weight:
            guard let kg = weight(text, units: units) else { return .notUnderstood }
            return ProfileLimits.check(weight: kg) == nil ? .answer(.weight(kg: kg)) : problem(.weightOutOfRange)
        case .country:
            return country(text, codes: countries).map { .answer(.country($0)) } ?? problem(.unknownCountry)
        case .contactName:
            return .answer(.contactName(trimmed))
        case .contactPhone:
            guard let number = phoneNumber(text) else { return .notUnderstood }
            if let issue = PhoneNumber.problem(number) {
                return .problem(book.onboarding(.phoneProblem, ["reason": Message(book.text(issue.messageKey))]))
            }
            return .answer(.contactPhone(number))
        }
    }
}

extension PhoneNumber.Problem {
    /// The sentence fragment that says what is wrong.
    public var messageKey: MessageKey {
        switch self {
        case .empty: return .phoneEmpty
        case .invalidCharacters: return .phoneInvalidCharacters
        case .misplacedPlus: return .phoneMisplacedPlus
        case .tooShort: return .phoneTooShort
        case .tooLong: return .phoneTooLong
        }
    }
}
