import ArgumentParser
import CareLanguage
import CareModel
import CareReport
import CareStore
import CareTerminal
import Foundation

/// A report for the doctor as an e-mail: a standards-conforming .eml with the PDF attached,
/// written into the data directory for the person's mail program; sent by the computer's own
/// sendmail only when there is one and the person says so. No network code of our own.
struct EmailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "email", abstract: "Write an e-mail to your doctor with a report attached (an .eml file).")

    @OptionGroup var common: CommonOptions
    @Option(help: "The doctor's e-mail address.") var to: String
    @Option(help: "The report: a PDF file, or its number in the list of reports made (default: the newest).") var report: String?
    @Option(help: "Your e-mail address, as the sender (default: your user name on this computer).") var from: String?
    @Flag(help: "Send it at once with this computer's sendmail, without asking.") var send = false
    @Option(help: "The sendmail program.") var sendmail = "/usr/sbin/sendmail"

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        guard MailMessage.isAddress(to) else { throw CommandFailure(book.text(.emailBadAddress, ["address": to])) }
        if let from, !MailMessage.isAddress(from) { throw CommandFailure(book.text(.emailBadAddress, ["address": from])) }
        // Without --from, the local mailbox sendmail itself would use (a host name may lack a dot).
        let sender = from ?? "\(ProcessInfo.processInfo.environment["USER"] ?? "carevoice")@\(ProcessInfo.processInfo.hostName)"

        let log = ReportLog(directory: env.dataDirectory)
        let chosen = try choose(from: log.entries(), book: book)
        let pdf: Data
        do { pdf = try Data(contentsOf: URL(fileURLWithPath: chosen.path)) } catch {
            throw CommandFailure(book.text(.emailNoReportFile, ["path": chosen.path]))
        }
        guard pdf.starts(with: Array("%PDF".utf8)) else { throw CommandFailure(book.text(.emailNotAPDF, ["path": chosen.path])) }

        let name = ((try? openStore(env).profile()) ?? nil)?.name
        let subject: String, body: String
        if let record = chosen.record {
            let period = ["from": book.writtenDate(record.from), "to": book.writtenDate(record.to)]
            subject = book.text(.emailSubject, period)
            body = book.text(.emailBody, period.merging(["readings": book.count(record.readings, one: .readingOne, many: .readingMany).display]) { a, _ in a })
        } else {
            (subject, body) = (book.text(.emailSubjectUndated), book.text(.emailBodyUndated))
        }
        let message = MailMessage(
            from: name.map { "\($0) <\(sender)>" } ?? sender, to: to, subject: subject,
            body: body + (name.map { "\n\n" + $0 } ?? "") + "\n",
            date: Date(),
            attachments: [.init(fileName: URL(fileURLWithPath: chosen.path).lastPathComponent, contentType: "application/pdf", data: pdf)])

        let folder = env.dataDirectory.url.appendingPathComponent("mail")
        let stamp = DateFormatter()
        stamp.locale = Locale(identifier: "en_US_POSIX")
        stamp.dateFormat = "yyyyMMdd-HHmmss"
        // Never over an earlier e-mail, even one written in the same second.
        let base = "report-\(stamp.string(from: Date()))"
        var eml = folder.appendingPathComponent(base + ".eml")
        var n = 1
        while FileManager.default.fileExists(atPath: eml.path) {
            n += 1
            eml = folder.appendingPathComponent("\(base)-\(n).eml")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try message.eml().write(to: eml, options: .atomic)
        } catch {
            throw CommandFailure(book.text(.emailFailed, ["path": eml.path, "reason": error.localizedDescription]))
        }
        Console.line(book.text(.emailWritten, ["path": eml.path, "to": to]))

        guard FileManager.default.isExecutableFile(atPath: sendmail) else { return Console.line(book.text(.emailNoSendmail)) }
        if !send {
            guard isatty(STDIN_FILENO) == 1 else { return Console.line(book.text(.emailSendHint, ["path": eml.path])) }
            Console.line(book.text(.emailAskSend))
            guard let answer = readLine(), UtteranceParser(table: env.table).parse(answer) == .answer(.yes) else {
                return Console.line(book.text(.emailNotSent))
            }
        }
        try deliver(eml, book: book)
    }

    /// The report named by --report (a path or a number in the list), else, at a terminal, the
    /// one the person picks from the list, else the newest.
    /// - Returns: the PDF's path, and what `carevoice report` recorded of it (nil for a PDF made
    ///   elsewhere, whose period is not known).
    private func choose(from entries: [ReportLog.Entry], book: Phrasebook) throws -> (path: String, record: ReportLog.Entry?) {
        if let report, let number = Int(report) {
            guard entries.indices.contains(number - 1) else {
                throw CommandFailure(book.text(.emailNoSuchReport, ["number": report, "count": String(entries.count)]))
            }
            return (entries[number - 1].path, entries[number - 1])
        }
        if let report {
            let path = URL(fileURLWithPath: report).path
            return (path, entries.first { $0.path == path })
        }
        guard let newest = entries.first else { throw CommandFailure(book.text(.emailNoReports)) }
        guard isatty(STDIN_FILENO) == 1, entries.count > 1 else { return (newest.path, newest) }
        for (index, entry) in entries.enumerated() {
            Console.line(book.text(.emailReportLine, ["number": String(index + 1), "from": book.writtenDate(entry.from),
                                                      "to": book.writtenDate(entry.to),
                                                      "readings": book.count(entry.readings, one: .readingOne, many: .readingMany).display,
                                                      "path": entry.path]))
        }
        Console.line(book.text(.emailWhichReport))
        guard let line = readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else { return (newest.path, newest) }
        guard let number = Int(line), entries.indices.contains(number - 1) else {
            throw CommandFailure(book.text(.emailNoSuchReport, ["number": line, "count": String(entries.count)]))
        }
        return (entries[number - 1].path, entries[number - 1])
    }

    /// sendmail -t reads the recipients from the message; -oi keeps a lone dot from ending it.
    private func deliver(_ eml: URL, book: Phrasebook) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sendmail)
        process.arguments = ["-t", "-oi"]
        process.standardInput = try FileHandle(forReadingFrom: eml)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailure(book.text(.emailSendFailed, ["status": String(process.terminationStatus), "path": eml.path]))
        }
        Console.line(book.text(.emailSent, ["to": to]))
    }
}
