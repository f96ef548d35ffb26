import CareModel
import Foundation

/// Something the assistant says: the words on screen and the words spoken can
/// differ ("6.5 mmol/L" is shown, "six point five millimoles per litre" is said).
public struct Message: Sendable, Equatable {
    public var display: String
    public var spoken: String
    /// Shown so it stands out where the terminal allows (emergency numbers); the words alone
    /// must still say everything, for screen readers and NO_COLOR.
    public var isEmphasized = false

    public init(display: String, spoken: String) {
        self.display = display
        self.spoken = spoken
    }

    public init(_ both: String) { self.init(display: both, spoken: both) }

    /// A template with its `{name}` placeholders filled, each in its shown and its spoken form.
    public init(filling template: String, _ arguments: [String: Message]) {
        var display = template, spoken = template
        for (name, value) in arguments {
            display = display.replacingOccurrences(of: "{\(name)}", with: value.display)
            spoken = spoken.replacingOccurrences(of: "{\(name)}", with: value.spoken)
        }
        self.init(display: display, spoken: spoken)
    }

    /// This sentence, then `next`: a space between them after Latin punctuation, none after
    /// Chinese (。？ end a sentence there without one).
    public func followed(by next: Message) -> Message {
        func join(_ a: String, _ b: String) -> String {
            a.last.map { $0.isASCII } == true ? a + " " + b : a + b
        }
        return Message(display: join(display, next.display), spoken: join(spoken, next.spoken))
    }
}

/// Keys of `messages:` in the locale tables. A test checks each locale has them all.
public enum MessageKey: String, Sendable, CaseIterable {
    case greeting, keyboardHint, listeningHint, askReading, readBack, heardPrompt, editHint, answerPrompt
    case editHintAnswer, answerPromptAnswer, keyboardHintAnswers
    case saved, notSaved, cancelled, notUnderstood, sayYesOrNo, implausibleWithUnit, implausible, futureTime
    case noMicrophone, noSpeaker, cannotPlay, noSpeechEngine, noHearingInLanguage, goodbye, saveFailed, storeUnavailable
    case noReadings, readingLine, audioFileError, audioUnreadable, audioNotWAV, audioUnsupported, audioTruncated
    case emergencyHeading, emergencyHeadingNoCountry, emergencyServices, emergencyNoService, emergencyMobileAlso
    case emergencyUnknownCountry, emergencyCountryNotListed, emergencyTableUnavailable, emergencyOnceMore
    case helplineLine, contactsHeading, contactLine, noContacts
    case summaryLine, summaryNothing, summaryUnavailable, summaryLatestReading, summaryMedications, summaryAllergies
    case summaryAddress, goOnWithReading, goOnIdle, alertLow, alertVeryLow, offerHelp, alertHigh
    case contactNumbered, contactAdded, contactRemoved, noSuchContact, contactNeedsName
    case phoneProblem, phoneEmpty, phoneInvalidCharacters, phoneMisplacedPlus, phoneTooShort, phoneTooLong
    case reminderDue, reminderFirst, reminderNotDue, reminderOff
    case enrollIntro, enrollPrompt, enrollSay, enrollUnclear, enrollSkipped, enrollLearning, enrollDone, enrollFailed
    case voiceFromReadings, voiceFromReadingsDone, voiceFromPhrasesAndReadings, voiceFromPhrasesAndReadingsDone
    case enrollTooFew, enrollNeedsMicrophone, enrollForgotten, enrollNothingToForget, enrollStatus, enrollStatusNone
    case forgetVoiceAsk, forgetVoiceKept, forgetVoiceFailed
    case yesDoubtful, leaveUnconfirmed, nothingToAnswer
    case learnVoiceAsk, learnVoiceAskAgain, learnVoiceHint, learnVoiceNotNow, learnVoiceNoMicrophone
    case enrollUnusable, exportDone, exportFailed
    case periodOneDay, periodDays, periodOneWeek, periodWeeks, periodOneMonth, periodMonths, periodOneYear, periodYears, periodAll
    case overviewNone, overviewCount, overviewAverage, overviewLowsHighs, overviewSame, overviewHigher, overviewLower
    case overviewInRange, overviewSharesOfReadings, overviewVariation, overviewMeals, overviewHigherThanUsual
    case readingOne, readingMany, dayOne, dayMany, pageOne, pageMany, noteOne, noteMany, readingsAndNotes, percent, trendTableHeader, trendHigherThanUsual
    case reportTitle, reportFor, reportPeriod, reportGenerated, reportSummary, reportChart, reportChartLegend, reportChartLegendNotes, reportHours
    case reportColumnHour, reportColumnCount, reportColumnMedian, reportColumnMiddleHalf, reportReadings, reportColumnDate
    case reportColumnTime, reportColumnValue, reportColumnWhen, reportColumnNote, reportPage, reportWritten, reportFailed
    case emailBadAddress, emailNoReports, emailNoSuchReport, emailNoReportFile, emailNotAPDF, emailSubject, emailBody
    case emailSubjectUndated, emailBodyUndated
    case emailWritten, emailFailed, emailNoSendmail, emailSendHint, emailAskSend, emailNotSent, emailSent, emailSendFailed
    case emailReportLine, emailWhichReport, readBackUnsure
    case diaryNone, diaryLine, diaryNeedsTitle, diaryPictureProblem, diaryReadBack, diaryNotSaved, diarySaved, diaryNoSuch
    case diaryAskDelete, diaryNotDeleted, diaryDeleted, diaryNoTags, diaryPresetTag, diaryOwnTags, diaryNoSuchTag, dayHeading, dayReading, dayNote, dayNothing
    case readingNoSuch, readingBadValue, readingBadTag, readingAskChange, readingChanged, readingAskDelete, readingDeleted
    case readingSummary, whenNotUnderstood, diaryAskChange, diaryChanged
    case noteAsk, noteReadBack, noteEditHint, noteAnswerPrompt, notePictureProblem, noteHeardHint, notePictures, noteEmpty, noteAskPicture, notePictureAdded, noteConfirmHint, noteNotSaved
    case editNoReading, editNoNote, editAskDeleteReading, editAskDeleteNote, editAskChangeReading, editAskUndo
    case editDeletedReading, editChangedReading, editUndone, editNotChanged, editNothingToUndo
    case undoRemoveReading, undoRemoveNote, undoRestoreReading, undoRestoreNote, undoChangeReading, undoChangeNote
}

/// Renders the locale's messages, readings and times for screen and speech.
public struct Phrasebook: Sendable {
    public let table: LocaleTable
    public let numbers: NumberWords
    public let calendar: Calendar
    /// Say reading values digit by digit ("one two zero") rather than as numbers (a setting).
    public var numbersDigitByDigit = false

    public init(table: LocaleTable, calendar: Calendar = .current) {
        self.table = table
        self.numbers = NumberWords(table.numbers)
        self.calendar = calendar
    }

    public func text(_ key: MessageKey, _ arguments: [String: String] = [:]) -> String {
        var text = table.messages[key.rawValue] ?? key.rawValue
        for (name, value) in arguments { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    public func message(_ key: MessageKey, _ arguments: [String: Message] = [:]) -> Message {
        Message(filling: table.messages[key.rawValue] ?? key.rawValue, arguments)
    }

    /// "6.5 mmol/L, before breakfast, yesterday at 9:00 PM" and its spoken form.
    /// The unit is always named: a number alone is ambiguous.
    public func describe(_ reading: ReadingDescription, now: Date) -> Message {
        let unit = table.phrases(for: reading.unit)
        let value = reading.valueText
        var display = "\(value) \(unit.symbol)"
        let said = numbersDigitByDigit ? numbers.spellDigits(value) : numbers.spell(value)
        var spoken = "\(said) \(unit.speak)"
        let clause = table.lists.clause
        if let tag = reading.tag {
            let name = table.phrases(for: tag).speak
            display += clause + name
            spoken += clause + name
        }
        if let takenAt = reading.explicitTime {
            let when = describeTime(takenAt, now: now)
            display += clause + when
            spoken += clause + when
        }
        return Message(display: display, spoken: spoken)
    }

    /// "one reading", "12 readings": a count with the word that agrees with it.
    public func count(_ n: Int, one: MessageKey, many: MessageKey) -> Message {
        message(n == 1 ? one : many, ["count": Message(display: String(n), spoken: numbers.spell(String(n)))])
    }

    /// The read-back of a reading heard only loosely: a guess, with its number one digit at a
    /// time and pauses between ("six, point, five", shown the same so a screen reader says it so).
    public func guessedReadBack(_ reading: ReadingDescription, now: Date) -> Message {
        // One digit at a time, with a pause between: "six, point, five", "六，点，五".
        let digits = Message(numbers.digitWords(reading.valueText).joined(separator: table.lists.clause))
        return message(.readBackUnsure, ["reading": describe(reading, now: now), "digits": digits])
    }

    /// "It's time for a glucose reading. Your last one was yesterday at 7:30 AM."
    public func reminder(lastReading: Date?, now: Date) -> Message {
        guard let lastReading else { return message(.reminderFirst) }
        return message(.reminderDue, ["when": Message(describeTime(lastReading, now: now))])
    }

    public func describeTime(_ date: Date, now: Date) -> String {
        let time = format(date, table.time.clockFormat)
        if calendar.isDate(date, inSameDayAs: now) {
            return table.time.speakToday.replacingOccurrences(of: "{time}", with: time)
        }
        if let yesterday = calendar.date(byAdding: .day, value: -1, to: now), calendar.isDate(date, inSameDayAs: yesterday) {
            return table.time.speakYesterday.replacingOccurrences(of: "{time}", with: time)
        }
        return table.time.speakDate
            .replacingOccurrences(of: "{date}", with: format(date, table.time.dateFormat))
            .replacingOccurrences(of: "{time}", with: time)
    }

    /// The reading as a line the person can edit and that parses back to the same
    /// reading: "glucose 6.5 mmol/L before breakfast yesterday at 9:00 PM".
    public func editableText(_ reading: ReadingDescription, now: Date) -> String {
        var words = [table.reading.lead.first ?? "", reading.valueText]
        if reading.unitWasSaid { words.append(table.phrases(for: reading.unit).symbol) }
        if let tag = reading.tag { words.append(table.phrases(for: tag).speak) }
        if let takenAt = reading.explicitTime {
            let time = format(takenAt, table.time.clockFormat)
            if calendar.isDate(takenAt, inSameDayAs: now) {
                words.append(table.time.speakToday.replacingOccurrences(of: "{time}", with: time))
            } else if let y = calendar.date(byAdding: .day, value: -1, to: now), calendar.isDate(takenAt, inSameDayAs: y) {
                words.append(table.time.speakYesterday.replacingOccurrences(of: "{time}", with: time))
            } else {
                words.append(table.time.speakDate
                    .replacingOccurrences(of: "{date}", with: format(takenAt, "yyyy-MM-dd"))
                    .replacingOccurrences(of: "{time}", with: time))
            }
        }
        return words.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `date` as written for a reader of a report or e-mail (2026-11-22, 2026年11月22日).
    public func writtenDate(_ date: Date) -> String { format(date, table.time.writtenDateFormat) }

    /// `date` in the locale's words with a fixed pattern, in `calendar` (the person's by default).
    public func format(_ date: Date, _ pattern: String, in calendar: Calendar? = nil) -> String {
        let calendar = calendar ?? self.calendar
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: table.id == "en" ? "en_US_POSIX" : table.id)
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}

/// What the phrasebook needs to describe a reading.
public struct ReadingDescription: Sendable, Equatable {
    public var level: GlucoseLevel
    public var unit: GlucoseUnit
    public var unitWasSaid: Bool
    public var tag: MealTag?
    /// Set only when the person named a time; otherwise the reading is "now" and no time is read back.
    public var explicitTime: Date?
    /// The number as the person said it, in `unit` ("6.55"): read back as said rather than rounded.
    public var numberAsSaid: String?

    public init(level: GlucoseLevel, unit: GlucoseUnit, unitWasSaid: Bool, tag: MealTag?, explicitTime: Date?,
                numberAsSaid: String? = nil) {
        self.numberAsSaid = numberAsSaid
        self.level = level
        self.unit = unit
        self.unitWasSaid = unitWasSaid
        self.tag = tag
        self.explicitTime = explicitTime
    }
}

extension ReadingDescription {
    var valueText: String { numberAsSaid ?? level.displayValue(in: unit) }
}
