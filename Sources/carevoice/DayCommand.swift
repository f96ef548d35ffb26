import ArgumentParser
import CareLanguage
import CareModel
import CareStore
import CareTerminal
import Foundation

/// One day as it was recorded: readings and diary notes together, in the order they happened.
struct DayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "day", abstract: "What you recorded on a day (default: today): readings and notes in time order.")

    @OptionGroup var common: CommonOptions
    @Argument(help: "The day: YYYY-MM-DD, today or yesterday.") var day: String = "today"

    func validate() throws {
        if Self.resolve(day, today: CalendarDay.today()) == nil {
            throw ValidationError("\(day) is not a day: write YYYY-MM-DD, today or yesterday")
        }
    }

    static func resolve(_ text: String, today: CalendarDay) -> CalendarDay? {
        switch text.lowercased() {
        case "today": return today
        case "yesterday": return today.adding(days: -1)
        default: return CalendarDay(iso: text)
        }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let store = try openStore(env)
        let date = Self.resolve(day, today: CalendarDay.today())!
        let unit = ((try? store.settings()) ?? Settings()).glucoseUnit
        let (readings, notes) = try store.records(on: date)
        let lines = book.day(date, readings: readings, notes: notes, unit: unit)
        for line in lines { Console.line(line.display) }
    }
}
