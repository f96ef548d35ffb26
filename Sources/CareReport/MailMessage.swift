import Foundation

/// An e-mail with attachments as RFC 5322 and MIME (RFC 2045-2047) write it: CRLF lines,
/// non-ASCII header text as encoded words, the body and attachments in base64 lines of 76.
/// Pure: the bytes of a .eml file, for the person's mail program or sendmail to send.
public struct MailMessage: Sendable {
    public struct Attachment: Sendable {
        public var fileName: String
        public var contentType: String
        public var data: Data
        public init(fileName: String, contentType: String, data: Data) {
            self.fileName = fileName
            self.contentType = contentType
            self.data = data
        }
    }

    public var from: String
    public var to: String
    public var subject: String
    public var body: String
    public var date: Date
    public var attachments: [Attachment]
    /// Separates the parts; must not occur in them (base64 and our text cannot contain "=_").
    public var boundary: String

    public init(from: String, to: String, subject: String, body: String, date: Date, attachments: [Attachment],
                boundary: String = "=_carevoice_" + UUID().uuidString) {
        self.from = from
        self.to = to
        self.subject = subject
        self.body = body
        self.date = date
        self.attachments = attachments
        self.boundary = boundary
    }

    /// Whether `address` looks like one mailbox (local@domain, no spaces or angle brackets): a
    /// typo caught here, not in a bounce.
    public static func isAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else { return false }
        return !address.contains { $0.isWhitespace || "<>(),;:\"[]\\".contains($0) } && address.allSatisfy(\.isASCII)
    }

    public func eml(messageID: String = UUID().uuidString + "@carevoice.invalid") -> Data {
        var lines = [
            "From: \(Self.header(from))",
            "To: \(to)",
            "Subject: \(Self.header(subject))",
            "Date: \(Self.rfc5322(date))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/mixed;",   // folded: the boundary alone fills most of a line
            " boundary=\"\(boundary)\"",
            "",
            "This is a MIME message.",
            "--\(boundary)",
            "Content-Type: text/plain; charset=UTF-8",
            "Content-Transfer-Encoding: base64",
            "",
        ]
        lines += Self.base64Lines(Data(body.utf8))
        for attachment in attachments {
            lines += [
                "--\(boundary)",
                "Content-Type: \(attachment.contentType); name=\"\(Self.header(attachment.fileName))\"",
                "Content-Disposition: attachment; filename=\"\(Self.header(attachment.fileName))\"",
                "Content-Transfer-Encoding: base64",
                "",
            ]
            lines += Self.base64Lines(attachment.data)
        }
        lines.append("--\(boundary)--")
        return Data(lines.map { $0 + "\r\n" }.joined().utf8)
    }

    /// ASCII as it is; anything else as one RFC 2047 encoded word per 39 bytes of UTF-8 (so
    /// no header line grows past 78 characters), never splitting a character.
    static func header(_ text: String) -> String {
        guard !text.allSatisfy({ $0.isASCII }) else { return text }
        var words: [String] = [], chunk = ""
        for character in text {
            if chunk.utf8.count + String(character).utf8.count > 39 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    static func base64Lines(_ data: Data) -> [String] {
        data.base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
            .components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    static func rfc5322(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
