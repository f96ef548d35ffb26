/// Readings over time drawn with Unicode, one line a reading, oldest first: where each value
/// falls on a fixed scale, the target band shaded. Pure: numbers in, lines out. Screen readers
/// get a labelled table instead (`carevoice trend --plain`, NO_COLOR).
public struct TrendChart: Sendable {
    public struct Row: Sendable, Equatable {
        public var label: String
        public var value: Double
        /// The value as shown, e.g. "6.5".
        public var shown: String
        public var note: String

        public init(label: String, value: Double, shown: String, note: String = "") {
            self.label = label
            self.value = value
            self.shown = shown
            self.note = note
        }
    }

    public var scale: ClosedRange<Double>
    public var band: ClosedRange<Double>
    public var width: Int

    public init(scale: ClosedRange<Double>, band: ClosedRange<Double>, width: Int = 40) {
        self.scale = scale
        self.band = band
        self.width = max(width, 10)
    }

    static let marker: Character = "●", belowScale: Character = "◀", aboveScale: Character = "▶"
    static let inBand: Character = "░", outside: Character = "·"

    /// The column a value falls in (clamped to the scale).
    func column(_ value: Double) -> Int {
        let fraction = (value - scale.lowerBound) / (scale.upperBound - scale.lowerBound)
        return min(width - 1, max(0, Int((fraction * Double(width)).rounded(.down))))
    }

    /// A ruler naming the band's limits above their columns, then one line per row.
    public func lines(_ rows: [Row], bandLabels: (low: String, high: String)) -> [String] {
        let labelWidth = rows.map(\.label.count).max() ?? 0
        let valueWidth = rows.map(\.shown.count).max() ?? 0
        let indent = String(repeating: " ", count: labelWidth + valueWidth + 2)
        var ruler = [Character](repeating: " ", count: width + 8)
        for (column, text) in [(column(band.lowerBound), bandLabels.low), (column(band.upperBound), bandLabels.high)] {
            for (offset, character) in text.enumerated() where column + offset < ruler.count { ruler[column + offset] = character }
        }
        var lines = [indent + " " + String(ruler).trimmingTrailingSpaces()]
        for row in rows {
            var track = (0..<width).map { column -> Character in
                let low = scale.lowerBound + (scale.upperBound - scale.lowerBound) * Double(column) / Double(width)
                let high = low + (scale.upperBound - scale.lowerBound) / Double(width)
                return high > band.lowerBound && low < band.upperBound ? Self.inBand : Self.outside
            }
            let mark = row.value < scale.lowerBound ? Self.belowScale : row.value > scale.upperBound ? Self.aboveScale : Self.marker
            track[column(row.value)] = mark
            let label = row.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0)
            let shown = String(repeating: " ", count: valueWidth - row.shown.count) + row.shown
            lines.append("\(label)  \(shown) \(String(track))" + (row.note.isEmpty ? "" : " " + row.note))
        }
        return lines
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
