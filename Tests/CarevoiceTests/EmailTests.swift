import CareModel
import CareStore
import CareTestSupport
import Foundation
import Testing

@Suite struct EmailTests {
    /// A .eml parsed back by hand: headers, then the parts between the boundary lines.
    struct Parsed {
        var headers: [String: String] = [:]
        var parts: [(headers: [String: String], body: Data)] = []

        init(_ data: Data) throws {
            let text = String(decoding: data, as: UTF8.self)
            let sections = text.components(separatedBy: "\r\n\r\n")
            headers = Self.headers(sections[0])
            let type = try #require(headers["Content-Type"])
            let boundary = try #require(type.components(separatedBy: "boundary=\"").last?.dropLast())
            for chunk in text.components(separatedBy: "--\(boundary)").dropFirst() where !chunk.hasPrefix("--") {
                let pieces = chunk.components(separatedBy: "\r\n\r\n")
                let body = pieces.dropFirst().joined(separator: "\r\n\r\n")
                parts.append((Self.headers(pieces[0]), try #require(Data(base64Encoded: body, options: .ignoreUnknownCharacters))))
            }
        }

        /// Unfolds continuation lines (a line starting with a space continues the one before).
        static func headers(_ block: String) -> [String: String] {
            var result: [String: String] = [:], last: String?
            for line in block.components(separatedBy: "\r\n") where !line.isEmpty {
                if line.hasPrefix(" "), let key = last { result[key]! += line.dropFirst(); continue }
                guard let colon = line.firstIndex(of: ":") else { continue }
                let key = String(line[..<colon])
                result[key] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                last = key
            }
            return result
        }

        /// "=?UTF-8?B?...?=" words back to text.
        static func decodeWords(_ header: String) -> String {
            header.components(separatedBy: "?=").map { piece -> String in
                guard let start = piece.range(of: "=?UTF-8?B?") else { return piece }
                let encoded = String(piece[start.upperBound...])
                return String(piece[..<start.lowerBound]) + String(decoding: Data(base64Encoded: encoded) ?? Data(), as: UTF8.self)
            }.joined()
        }
    }

    static func seed(_ dir: URL) throws {
        let store = try Store(directory: DataDirectory(url: dir))
        try store.saveProfile(Profile(dateOfBirth: CalendarDay(year: 1950, month: 1, day: 2), heightCm: 165, weightKg: 60,
                                      sex: .female, diabetesType: .type2, country: "CN", name: "李明"))
        _ = try store.save((0..<60).map { i in
            GlucoseReading(takenAt: Date().addingTimeInterval(-Double(i) * 43_200 - 60), utcOffsetSeconds: 0,
                           level: GlucoseLevel(5 + Double(i % 9), .mmolPerL), tag: .beforeBreakfast, source: .keyboard)
        })
    }

    @Test func theEmailCarriesTheReportByteForByte() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.seed(dir)
        let pdf = dir.appendingPathComponent("report.pdf")
        #expect(try CLI.run(["report", "--data-dir", dir.path, "--pdf", pdf.path, "--range", "30d"]).status == 0)
        let run = try CLI.run(["email", "--data-dir", dir.path, "--to", "dr.wong@clinic.example.org", "--from", "li@example.org",
                               "--sendmail", "/nonexistent/sendmail"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Wrote an e-mail to dr.wong@clinic.example.org with the report attached"))
        #expect(run.stdout.contains("no mail system of its own"))
        let path = try #require(run.stdout.components(separatedBy: "attached: ").last?.components(separatedBy: ". Open").first)
        #expect(path.hasPrefix(dir.appendingPathComponent("mail").path) && path.hasSuffix(".eml"))

        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "CRLF line ends only")
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.count <= 78 }, "no line over 78 characters")
        let mail = try Parsed(data)
        #expect(mail.headers["To"] == "dr.wong@clinic.example.org")
        #expect(mail.headers["MIME-Version"] == "1.0")
        #expect(Parsed.decodeWords(mail.headers["From"] ?? "") == "李明 <li@example.org>")
        #expect(mail.headers["Subject"]?.hasPrefix("Blood glucose report, ") == true)
        #expect(mail.headers["Date"]?.range(of: #"^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d [+-]\d{4}$"#, options: .regularExpression) != nil)
        #expect(mail.parts.count == 2)
        let body = String(decoding: mail.parts[0].body, as: UTF8.self)
        #expect(body.contains("attached is my blood glucose report") && body.contains("(60 readings)") && body.hasSuffix("李明\n"))
        #expect(mail.parts[1].headers["Content-Type"] == "application/pdf; name=\"report.pdf\"")
        #expect(mail.parts[1].headers["Content-Disposition"] == "attachment; filename=\"report.pdf\"")
        #expect(mail.parts[1].body == (try Data(contentsOf: pdf)), "the attachment is the PDF, byte for byte")

        // A PDF made elsewhere: attached as it is, with no period claimed for it.
        let outside = dir.appendingPathComponent("from the clinic.pdf")
        try FileManager.default.copyItem(at: pdf, to: outside)
        let other = try CLI.run(["email", "--data-dir", dir.path, "--to", "dr.wong@clinic.example.org", "--report", outside.path,
                                 "--sendmail", "/nonexistent/sendmail"])
        let otherPath = try #require(other.stdout.components(separatedBy: "attached: ").last?.components(separatedBy: ". Open").first)
        let otherMail = try Parsed(Data(contentsOf: URL(fileURLWithPath: otherPath)))
        #expect(otherMail.headers["Subject"] == "Blood glucose report")
        #expect(otherMail.parts[1].headers["Content-Disposition"] == "attachment; filename=\"from the clinic.pdf\"")
        #expect(otherPath != path && FileManager.default.fileExists(atPath: path), "the first e-mail is kept")
    }

    /// With --send, the message goes to the local sendmail exactly as written (`-t -oi`: the
    /// recipients from its headers); a sendmail that fails is reported and the .eml stays.
    @Test func sendingHandsTheMessageToSendmail() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.seed(dir)
        #expect(try CLI.run(["report", "--data-dir", dir.path, "--pdf", dir.appendingPathComponent("r.pdf").path]).status == 0)
        // A stand-in for the mail system: keeps what it is handed and how it was called.
        let sendmail = dir.appendingPathComponent("sendmail")
        try "#!/bin/sh\necho \"$@\" > \"$(dirname \"$0\")/args\"\ncat > \"$(dirname \"$0\")/handed.eml\"\nexit ${SENDMAIL_STATUS:-0}\n"
            .write(to: sendmail, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sendmail.path)

        let run = try CLI.run(["email", "--data-dir", dir.path, "--to", "dr.wong@clinic.example.org", "--send", "--sendmail", sendmail.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("dr.wong@clinic.example.org"), "\(run.stdout)")
        let path = try #require(run.stdout.components(separatedBy: "attached: ").last?.components(separatedBy: ". Open").first)
        let handed = try Data(contentsOf: dir.appendingPathComponent("handed.eml"))
        #expect(handed == (try Data(contentsOf: URL(fileURLWithPath: path))), "sendmail got the .eml byte for byte")
        #expect(try String(contentsOf: dir.appendingPathComponent("args"), encoding: .utf8) == "-t -oi\n")

        let failed = try CLI.run(["email", "--data-dir", dir.path, "--to", "dr.wong@clinic.example.org", "--send", "--sendmail", sendmail.path],
                                 environment: ["SENDMAIL_STATUS": "75"])
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("75"), "\(failed.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("mail").path).filter { $0.hasSuffix(".eml") }
        #expect(kept.count == 2, "both e-mails kept: \(kept)")
    }

    @Test func mistakesAreSaidPlainlyAndWriteNothing() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let none = try CLI.run(["email", "--data-dir", dir.path, "--to", "dr@example.org"])
        #expect(none.status != 0 && none.stderr.contains("There is no report to send yet"), "\(none.stderr)")
        let typo = try CLI.run(["email", "--data-dir", dir.path, "--to", "dr wong@example"])
        #expect(typo.status != 0 && typo.stderr.contains("doesn't look like an e-mail address"))
        let text = dir.appendingPathComponent("notes.pdf")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "just text".write(to: text, atomically: true, encoding: .utf8)
        let notPDF = try CLI.run(["email", "--data-dir", dir.path, "--to", "dr@example.org", "--report", text.path])
        #expect(notPDF.status != 0 && notPDF.stderr.contains("is not a PDF report"))
        let number = try CLI.run(["email", "--data-dir", dir.path, "--to", "dr@example.org", "--report", "3"])
        #expect(number.status != 0 && number.stderr.contains("There is no report number 3; there are 0."))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("mail").path))
    }
}
