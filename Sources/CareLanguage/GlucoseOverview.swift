import CareModel
import Foundation

/// How readings over a period are told: a short spoken summary ("how am I doing this week?")
/// and the fuller written one of `carevoice trend`. Pure: an analysis in, messages out.
public struct GlucoseOverview: Sendable {
    public let book: Phrasebook
    public let unit: GlucoseUnit

    public init(book: Phrasebook, unit: GlucoseUnit) {
        self.book = book
        self.unit = unit
    }

    /// "the last 7 days", "the last month", "all your readings".
    public func period(_ range: ReportRange) -> Message {
        switch range {
        case .days(let n): return n == 1 ? book.message(.periodOneDay) : book.message(.periodDays, ["count": number(n)])
        case .weeks(let n): return n == 1 ? book.message(.periodOneWeek) : book.message(.periodWeeks, ["count": number(n)])
        case .months(let n): return n == 1 ? book.message(.periodOneMonth) : book.message(.periodMonths, ["count": number(n)])
        case .years(let n): return n == 1 ? book.message(.periodOneYear) : book.message(.periodYears, ["count": number(n)])
        case .all: return book.message(.periodAll)
        }
    }

    /// What is said when asked: how many, average, lowest and highest, lows and highs, and the
    /// average of the period before for comparison (nil: not compared, as for "all").
    public func spoken(_ current: GlucoseAnalysis, range: ReportRange, previous: GlucoseAnalysis?) -> [Message] {
        let period = period(range)
        guard let mean = current.all.mean, let lowest = current.all.lowest, let highest = current.all.highest else {
            return [book.message(.overviewNone, ["period": period])]
        }
        var lines = [book.message(.overviewCount, ["period": period, "count": count(current.all.count, .readingOne, .readingMany),
                                                   "days": count(current.consensus.daysWithData, .dayOne, .dayMany)])]
        lines.append(book.message(.overviewAverage, ["mean": level(mean, withUnit: true), "lowest": level(lowest),
                                                     "highest": level(highest)]))
        let readings = current.readings.count
        let lows = Int((current.consensus.belowRange * Double(readings)).rounded())
        let highs = Int((current.consensus.aboveRange * Double(readings)).rounded())
        lines.append(book.message(.overviewLowsHighs, ["lows": number(lows), "highs": number(highs),
                                                       "low": limit(.low), "high": limit(.high)]))
        if let before = previous?.all.mean {
            let difference = mean - before
            let shown = abs(GlucoseLevel(mmolPerL: difference).value(in: unit))
            // Within what a meter shows as equal, it is the same.
            let key: MessageKey = shown < (unit == .mmolPerL ? 0.05 : 0.5) ? .overviewSame : difference > 0 ? .overviewHigher : .overviewLower
            lines.append(book.message(key, ["difference": level(abs(difference), withUnit: true), "before": level(before, withUnit: true)]))
        }
        return lines
    }

    /// The written overview: the spoken one, then the shares in and out of range (with what they
    /// are shares of), the variation, the meal groups and the readings higher than usual.
    public func written(_ current: GlucoseAnalysis, range: ReportRange, previous: GlucoseAnalysis?) -> [Message] {
        var lines = spoken(current, range: range, previous: previous)
        guard current.all.count > 0 else { return lines }
        let c = current.consensus
        lines.append(book.message(.overviewInRange, ["low": limit(.low), "high": limit(.high), "inRange": percent(c.inRange),
                                                     "below": percent(c.belowRange), "veryLow": limit(.veryLow),
                                                     "veryLowShare": percent(c.veryLow), "above": percent(c.aboveRange),
                                                     "veryHigh": limit(.veryHigh), "veryHighShare": percent(c.veryHigh)]))
        lines.append(book.message(.overviewSharesOfReadings))
        if let cv = c.coefficientOfVariation, let gmi = c.glucoseManagementIndicator {
            lines.append(book.message(.overviewVariation, ["cv": number(Int(cv.rounded())), "gmi": decimal(gmi)]))
        }
        if let before = current.beforeMeals.mean, let after = current.afterMeals.mean {
            lines.append(book.message(.overviewMeals, ["before": level(before, withUnit: true), "beforeCount": number(current.beforeMeals.count),
                                                       "after": level(after), "afterCount": number(current.afterMeals.count)]))
        }
        let higher = current.readings.filter(current.isHigherThanUsual).count
        if higher > 0 {
            lines.append(book.message(.overviewHigherThanUsual, ["count": count(higher, .readingOne, .readingMany)]))
        }
        return lines
    }

    private func level(_ mmolPerL: Double, withUnit: Bool = false) -> Message {
        let value = GlucoseLevel(mmolPerL: mmolPerL).displayValue(in: unit)
        let phrases = book.table.phrases(for: unit)
        let spoken = book.numbersDigitByDigit ? book.numbers.spellDigits(value) : book.numbers.spell(value)
        return withUnit ? Message(display: "\(value) \(phrases.symbol)", spoken: "\(spoken) \(phrases.speak)")
                        : Message(display: value, spoken: spoken)
    }

    private func limit(_ limit: GlycaemicLimit) -> Message {
        let value = unit == .mmolPerL ? limit.values.mmolPerL : limit.values.mgPerDL
        return level(GlucoseLevel(value, unit).mmolPerL)
    }

    private func number(_ n: Int) -> Message { Message(display: String(n), spoken: book.numbers.spell(String(n))) }

    private func decimal(_ x: Double) -> Message {
        let text = String(format: "%.1f", x)
        return Message(display: text, spoken: book.numbers.spell(text))
    }

    private func percent(_ share: Double) -> Message {
        book.message(.percent, ["value": number(Int((share * 100).rounded()))])
    }

    private func count(_ n: Int, _ one: MessageKey, _ many: MessageKey) -> Message {
        book.count(n, one: one, many: many)
    }
}
