import CartRenderCore
import XCTest

/// The structural diff of manifest states, the events that moved, and software differences.
final class ManifestComparisonTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue { JSONValue(try JSONParser.parse(Array(text.utf8))) }

    private func changes(_ expected: String, _ actual: String) throws -> [String] {
        try ManifestComparison.changes(expected: parse(expected), actual: parse(actual)).map(\.description)
    }

    /// Numbers agree within 1e-6 of their unit; every kind of difference is named by its JSON
    /// path, in the expected value's member order, then the members only the actual one has.
    func testChangesByPathInAFixedOrder() throws {
        XCTAssertEqual(try changes(#"{"x": 114.29, "y": 1}"#, #"{"x": 114.290001, "y": 1.0000005}"#), [])
        XCTAssertEqual(try changes(#"{"x": 114.29}"#, #"{"x": 114.290002}"#), ["x 114.29 → 114.290002"])
        let e = #"{"count": 1, "flights": [{"id": 1, "center": {"x": 10, "y": 114.29}}], "badgeText": "1", "pressed": false}"#
        let a = #"{"count": 0, "flights": [{"id": 1, "center": {"x": 10, "y": 118.02}}, {"id": 2}], "badgeText": null, "extra": [1]}"#
        XCTAssertEqual(try changes(e, a), [
            "count 1 → 0", "flights[0].center.y 114.29 → 118.02", #"flights[1] none → {"id":2}"#, #"badgeText "1" → null"#,
            "pressed false → none", "extra none → [1]",
        ])
        // Values read from a file and values encoded by this run compare alike.
        XCTAssertEqual(ManifestComparison.changes(expected: try parse(#"{"v": 0.333333}"#), actual: .object([("v", .num(1.0 / 3))])), [])
        let long = ManifestComparison.Change(path: "p", expected: .string(String(repeating: "a", count: 60)), actual: nil)
        XCTAssertEqual(long.description, "p \"" + String(repeating: "a", count: 38) + "… → none")
    }

    /// Events match by kind and identity (the k-th of each), so a moved landing is found
    /// whatever else moved; events only one side has are listed with `null` on the other.
    func testMovedEvents() throws {
        let expected = [TimelineEvent(time: 0.3, ShopEvent.tap), TimelineEvent(time: 0.95, ShopEvent.land(flight: 1, count: 1)),
                        TimelineEvent(time: 1.2, ShopEvent.tap)]
        let actual = [TimelineEvent(time: 0.3, ShopEvent.tap), TimelineEvent(time: 1.0, ShopEvent.land(flight: 1, count: 1)),
                      TimelineEvent(time: 1.2000004, ShopEvent.tap), TimelineEvent(time: 1.5, ShopEvent.tap)]
        XCTAssertEqual(try ManifestComparison.movedEvents(expected: expected, actual: actual).map { $0.json.serialized() }, [
            #"{"kind":"land","flight":1,"expected":0.95,"actual":1}"#,
            #"{"kind":"tap","target":"add","expected":null,"actual":1.5}"#,
        ])
        XCTAssertEqual(try ManifestComparison.movedEvents(expected: actual, actual: actual), [])
    }

    /// One difference per program version and per font that is missing or from another package.
    func testSoftwareDifferences() {
        let fonts = [Manifest.Software.Font(file: "Inter.ttc", package: "fonts-inter"),
                     Manifest.Software.Font(file: "NotoSans.ttf", package: "fonts-noto-core")]
        let baseline = Manifest.Software(cartrender: "0.1.0", cairo: "1.18.0", pango: "1.50.12", librsvg: "2.54.7", libpng: "1.6.39", zlib: "1.2.13", fonts: fonts)
        var current = baseline
        XCTAssertEqual(ManifestComparison.softwareDifferences(baseline: baseline, current: current), [])
        current.cairo = "1.16.0"
        current.fonts = [Manifest.Software.Font(file: "Inter.ttc", package: "fonts-inter-variable"),
                         Manifest.Software.Font(file: "Emoji.ttf", package: "fonts-noto-color-emoji")]
        XCTAssertEqual(ManifestComparison.softwareDifferences(baseline: baseline, current: current).map(\.message), [
            "baseline recorded with cairo 1.18.0, this run uses 1.16.0: pixel differences may come from that",
            "baseline recorded without font Emoji.ttf, this run uses it from fonts-noto-color-emoji: pixel differences may come from that",
            "baseline recorded with font Inter.ttc from fonts-inter, this run uses it from fonts-inter-variable: pixel differences may come from that",
            "baseline recorded with font NotoSans.ttf from fonts-noto-core, this run does not use it: pixel differences may come from that",
        ])
    }

    /// FreeType, HarfBuzz, pixman and fontconfig are compared like the other libraries; a
    /// baseline written before they were recorded names none of them, and that is no difference.
    func testGlyphLibrariesAreComparedWhenTheBaselineNamesThem() throws {
        let old = Manifest.Software(cartrender: "0.1.0", cairo: "1.16.0", pango: "1.50.12", librsvg: "2.54.7", libpng: "1.6.39", zlib: "1.2.13", fonts: [])
        var current = old
        current.freetype = "2.12.1"; current.harfbuzz = "6.0.0"; current.pixman = "0.42.2"; current.fontconfig = "2.14.1"
        XCTAssertEqual(ManifestComparison.softwareDifferences(baseline: old, current: current), [])
        var baseline = current
        baseline.freetype = "2.13.2"; baseline.harfbuzz = "8.3.0"; baseline.pixman = "0.42.2"; baseline.fontconfig = "2.15.0"
        XCTAssertEqual(ManifestComparison.softwareDifferences(baseline: baseline, current: current).map(\.component), ["freetype", "harfbuzz", "fontconfig"])
        XCTAssertEqual(ManifestComparison.softwareDifferences(baseline: baseline, current: current).first?.message,
                       "baseline recorded with freetype 2.13.2, this run uses 2.12.1: pixel differences may come from that")
        // Read back from JSON: written when known, optional when read.
        let encoded = try JSONValueEncoder().encode(current)
        XCTAssertTrue(encoded.serialized().contains("\"zlib\":\"1.2.13\",\"freetype\":\"2.12.1\",\"harfbuzz\":\"6.0.0\",\"pixman\":\"0.42.2\",\"fontconfig\":\"2.14.1\""), encoded.serialized())
        XCTAssertEqual(try JSONValueDecoder().decode(Manifest.Software.self, from: encoded), current)
        XCTAssertEqual(try JSONValueDecoder().decode(Manifest.Software.self, from: try JSONValueEncoder().encode(old)), old)
    }
}
