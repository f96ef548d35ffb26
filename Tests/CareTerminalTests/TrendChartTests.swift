import Testing
@testable import CareTerminal

@Suite struct TrendChartTests {
    /// A 2-20 scale 18 columns wide: one column per mmol/L; the band 4-10 shaded.
    static let chart = TrendChart(scale: 2...20, band: 4...10, width: 18)

    @Test func eachReadingIsAMarkOnTheScaleWithTheBandShaded() {
        let lines = Self.chart.lines([.init(label: "11-01 07:30", value: 6.5, shown: "6.5", note: "fasting"),
                                      .init(label: "11-02 07:30", value: 12, shown: "12")], bandLabels: ("4", "10"))
        #expect(lines == [
            "                   4     10",
            "11-01 07:30  6.5 ··░░●░░░·········· fasting",
            "11-02 07:30   12 ··░░░░░░··●·······",
        ])
    }

    @Test func valuesOffTheScaleSayWhichWay() {
        let lines = Self.chart.lines([.init(label: "a", value: 1.2, shown: "1.2"), .init(label: "b", value: 33, shown: "33")],
                                     bandLabels: ("4", "10"))
        #expect(lines[1].contains("◀") && lines[2].contains("▶"))
        #expect(!lines[1].contains("●"))
    }
}
