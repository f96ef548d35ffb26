import Testing
@testable import CareModel

@Suite struct CSVTests {
    @Test func plainFieldsStayPlainAndEveryLineEndsWithCRLF() {
        #expect(CSV.document(header: ["a", "b"], rows: [["1", "x y"], ["", "2"]]) == "a,b\r\n1,x y\r\n,2\r\n")
    }

    @Test(arguments: [("porridge, banana", "\"porridge, banana\""), ("the \"good\" meter", "\"the \"\"good\"\" meter\""),
                      ("two\nlines", "\"two\nlines\""), ("cr\r", "\"cr\r\""), ("七点二", "七点二")])
    func fieldsThatWouldBreakARowAreQuoted(_ text: String, _ written: String) {
        #expect(CSV.field(text) == written)
    }
}
