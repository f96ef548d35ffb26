import CPangoCairo
import Foundation

/// Lays a report out on A4 pages with cairo and pango: text wraps, tables flow over as many
/// pages as they need (their header repeated), nothing overlaps, and cairo embeds the fonts.
public final class PDFReport {
    public enum Orientation: Sendable { case portrait, landscape }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Noto Sans CJK has Latin and Chinese characters alike (Debian's fonts-noto-cjk).
    public static let fontFamily = "Noto Sans CJK SC"

    private let surface: OpaquePointer
    private let cairo: OpaquePointer
    private let width: Double, height: Double
    private let margin = 48.0
    private let footer = 24.0
    private var y: Double
    private let pageLabel: String
    public private(set) var pages = 1

    private var contentWidth: Double { width - 2 * margin }
    private var bottom: Double { height - margin - footer }

    /// Writes `content` to `path`; returns the number of pages.
    @discardableResult
    public static func write(_ content: ReportContent, to path: String, orientation: Orientation = .portrait) throws -> Int {
        let report = try PDFReport(path: path, orientation: orientation, title: content.title, pageLabel: content.pageLabel)
        report.render(content)
        return try report.finish()
    }

    private init(path: String, orientation: Orientation, title: String, pageLabel: String) throws {
        let a4 = (short: 595.28, long: 841.89)
        (width, height) = orientation == .portrait ? (a4.short, a4.long) : (a4.long, a4.short)
        surface = cairo_pdf_surface_create(path, width, height)
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let reason = String(cString: cairo_status_to_string(cairo_surface_status(surface)))
            cairo_surface_destroy(surface)
            throw Failure(description: reason)
        }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "CareVoice")
        cairo = cairo_create(surface)
        y = margin
        self.pageLabel = pageLabel
    }

    private func finish() throws -> Int {
        drawFooter()
        cairo_show_page(cairo)
        cairo_destroy(cairo)
        fonts.values.forEach { pango_font_description_free($0) }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw Failure(description: String(cString: cairo_status_to_string(status))) }
        return pages
    }

    // MARK: Content

    private func render(_ content: ReportContent) {
        paragraph(content.title, size: 20, bold: true, after: 6)
        for line in content.header { paragraph(line, size: 10, after: 2) }
        y += 10
        paragraph(content.summaryHeading, size: 13, bold: true, after: 4, keepWith: 40)
        for line in content.summary { paragraph(line, size: 10, after: 3) }
        if let chart = content.chart { draw(chart) }
        if let hours = content.hours { draw(hours) }
        if let readings = content.readings { draw(readings) }
    }

    // MARK: Text

    /// Parsed once per size and weight: a table of 700 readings lays out thousands of cells.
    private var fonts: [String: OpaquePointer] = [:]

    private func font(size: Double, bold: Bool) -> OpaquePointer {
        let name = "\(Self.fontFamily) \(bold ? "Bold " : "")\(size)"
        if let known = fonts[name] { return known }
        let font = pango_font_description_from_string(name)!
        fonts[name] = font
        return font
    }

    private func layout(_ text: String, size: Double, bold: Bool, width: Double, singleLine: Bool = false) -> OpaquePointer {
        let layout = pango_cairo_create_layout(cairo)!
        pango_layout_set_font_description(layout, font(size: size, bold: bold))
        pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
        if singleLine {
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        } else {
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        pango_layout_set_text(layout, text, -1)
        return layout
    }

    private func size(of layout: OpaquePointer) -> (width: Double, height: Double) {
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(layout, &w, &h)
        return (Double(w), Double(h))
    }

    private func show(_ layout: OpaquePointer, x: Double, y: Double) {
        cairo_move_to(cairo, x, y)
        pango_cairo_show_layout(cairo, layout)
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    /// A wrapped paragraph at the left margin; a new page first if it would not fit (or if
    /// fewer than `keepWith` points would be left below it, for headings).
    private func paragraph(_ text: String, size: Double, bold: Bool = false, after: Double, keepWith: Double = 0) {
        let text = layout(text, size: size, bold: bold, width: contentWidth)
        let height = self.size(of: text).height
        ensure(height + keepWith)
        show(text, x: margin, y: y)
        y += height + after
    }

    /// The height pango gives one line of text at this size (fonts differ widely: Noto Sans CJK's
    /// line is almost twice its size), so rows and labels never overlap.
    private func lineHeight(_ size: Double) -> Double {
        let sample = layout("Ag", size: size, bold: false, width: contentWidth)
        defer { g_object_unref(UnsafeMutableRawPointer(sample)) }
        return self.size(of: sample).height
    }

    private func ensure(_ space: Double) {
        if y + space > bottom { newPage() }
    }

    private func newPage() {
        drawFooter()
        cairo_show_page(cairo)
        pages += 1
        y = margin
    }

    private func drawFooter() {
        let text = layout(pageLabel.replacingOccurrences(of: "{page}", with: String(pages)), size: 8, bold: false, width: contentWidth)
        let w = size(of: text).width
        cairo_set_source_rgb(cairo, 0.3, 0.3, 0.3)
        show(text, x: width - margin - w, y: height - margin)
        cairo_set_source_rgb(cairo, 0, 0, 0)
    }

    // MARK: Chart

    /// Full width in portrait, half in landscape.
    private func draw(_ chart: ReportContent.Chart) {
        let chartWidth = height > width ? contentWidth : contentWidth / 2
        let plotHeight = 180.0, tickLabel = lineHeight(7), axisLabels = tickLabel + 4
        y += 8
        paragraph(chart.heading, size: 13, bold: true, after: 4, keepWith: plotHeight + axisLabels + tickLabel + 30)
        let labelWidth = 34.0
        // Room above the frame for half the top tick's label.
        let left = margin + labelWidth, plotWidth = chartWidth - labelWidth, top = y + tickLabel / 2 + 2
        func yFor(_ value: Double) -> Double {
            let clamped = min(max(value, chart.scale.lowerBound), chart.scale.upperBound)
            return top + plotHeight * (1 - (clamped - chart.scale.lowerBound) / (chart.scale.upperBound - chart.scale.lowerBound))
        }
        let span = max(chart.end.timeIntervalSince(chart.start), 1)
        func xFor(_ date: Date) -> Double { left + plotWidth * min(max(date.timeIntervalSince(chart.start) / span, 0), 1) }

        // The target band, then the grid and its labels, then the frame and the dots.
        cairo_set_source_rgb(cairo, 0.85, 0.94, 0.85)
        cairo_rectangle(cairo, left, yFor(chart.band.upperBound), plotWidth, yFor(chart.band.lowerBound) - yFor(chart.band.upperBound))
        cairo_fill(cairo)
        cairo_set_line_width(cairo, 0.4)
        for tick in chart.ticks {
            cairo_set_source_rgb(cairo, 0.8, 0.8, 0.8)
            cairo_move_to(cairo, left, yFor(tick)); cairo_line_to(cairo, left + plotWidth, yFor(tick)); cairo_stroke(cairo)
            cairo_set_source_rgb(cairo, 0, 0, 0)
            let label = layout(chart.tickLabel(tick), size: 7, bold: false, width: labelWidth - 4)
            let size = self.size(of: label)
            show(label, x: left - 4 - size.width, y: yFor(tick) - size.height / 2)
        }
        cairo_set_source_rgb(cairo, 0, 0, 0)
        cairo_set_line_width(cairo, 0.8)
        cairo_rectangle(cairo, left, top, plotWidth, plotHeight)
        cairo_stroke(cairo)
        for point in chart.points {
            cairo_arc(cairo, xFor(point.date), yFor(point.value), 1.8, 0, 2 * .pi)
            cairo_fill(cairo)
        }
        // Diary notes: small triangles standing on the bottom of the frame.
        cairo_set_source_rgb(cairo, 0.15, 0.35, 0.75)
        for note in chart.notes {
            let x = xFor(note), base = top + plotHeight
            cairo_move_to(cairo, x - 3, base); cairo_line_to(cairo, x + 3, base); cairo_line_to(cairo, x, base - 5)
            cairo_close_path(cairo)
            cairo_fill(cairo)
        }
        cairo_set_source_rgb(cairo, 0, 0, 0)
        for (date, alignRight) in [(chart.start, false), (chart.end, true)] {
            let label = layout(chart.dateLabel(date), size: 7, bold: false, width: plotWidth / 2)
            let w = size(of: label).width
            show(label, x: alignRight ? left + plotWidth - w : left, y: top + plotHeight + 3)
        }
        y = top + plotHeight + axisLabels
        paragraph(chart.legend, size: 8, after: 6)
    }

    // MARK: Tables

    private func draw(_ table: ReportContent.Table) {
        let rowHeight = lineHeight(9) + 2
        y += 8
        paragraph(table.heading, size: 13, bold: true, after: 4, keepWith: 3 * rowHeight)
        drawRow(table.columns, table.widths, bold: true, height: rowHeight)
        for row in table.rows {
            if y + rowHeight > bottom {
                newPage()
                drawRow(table.columns, table.widths, bold: true, height: rowHeight)
            }
            drawRow(row, table.widths, bold: false, height: rowHeight)
        }
    }

    /// One line: each cell ellipsized to its column, so no text runs into the next.
    private func drawRow(_ cells: [String], _ widths: [Double], bold: Bool, height: Double) {
        var x = margin
        for (cell, fraction) in zip(cells, widths) {
            let columnWidth = contentWidth * fraction
            show(layout(cell, size: 9, bold: bold, width: columnWidth - 6, singleLine: true), x: x, y: y)
            x += columnWidth
        }
        if bold {
            cairo_set_line_width(cairo, 0.5)
            cairo_move_to(cairo, margin, y + height - 1); cairo_line_to(cairo, margin + contentWidth, y + height - 1)
            cairo_stroke(cairo)
        }
        y += height
    }
}
