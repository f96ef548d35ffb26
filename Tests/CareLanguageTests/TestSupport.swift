import CareLanguage
import Foundation

/// The real locale tables from the repository, as the program reads them.
enum Fixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let resources = ResourceLocator(root: repositoryRoot)
    static let english: LocaleTable = try! resources.loadLocale("en")
    static let chinese: LocaleTable = try! resources.loadLocale("zh-Hans")

    /// A fixed clock: Sunday 22 November 2026, 14:00 in Vancouver.
    static let calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "America/Vancouver")!
        return c
    }()
    static let now: Date = calendar.date(from: DateComponents(year: 2026, month: 11, day: 22, hour: 14, minute: 0))!

    static func date(_ text: String) -> Date {
        let f = DateFormatter()
        f.calendar = calendar
        f.timeZone = calendar.timeZone
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.date(from: text)!
    }
}
