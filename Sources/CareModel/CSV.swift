/// Comma-separated values as RFC 4180 writes them: CRLF line ends, and a field quoted (its
/// quotes doubled) when it holds a comma, a quote or a line break. Pure.
public enum CSV {
    public static func document(header: [String], rows: [[String]]) -> String {
        ([header] + rows).map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    public static func field(_ text: String) -> String {
        // Scalars, not characters: "\r\n" is one Character, and would hide a lone "\n".
        guard text.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
