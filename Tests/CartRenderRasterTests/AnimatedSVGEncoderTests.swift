import CartRenderCore
@testable import CartRenderRaster
import Foundation
import XCTest

/// The animated SVG writer on small display-list timelines: routes no example scene takes
/// (a resized continuous-corner shape, whose geometry is animated as `d: path(…)` keyframes).
final class AnimatedSVGEncoderTests: XCTestCase {
    private let red = Color(red: 1, green: 0, blue: 0)

    /// The document of `frames` (one display list each) at 10 fps, 1 px per pt.
    private func document(_ frames: [DisplayList]) throws -> String {
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        let encoder = AnimatedSVGEncoder(rasterizer: rasterizer, scale: 1, fps: 10, escapedTitle: "test", options: AnimatedSVGOptions())
        for frame in frames { encoder.add(frame) }
        return String(decoding: try encoder.finish(), as: UTF8.self)
    }

    private func list(_ items: [DisplayItem]) -> DisplayList {
        DisplayList(size: Size(width: 200, height: 100), background: .white, items: items)
    }

    /// Every number of path data, in order (commands dropped).
    private func numbers(_ d: String) -> [Double] {
        d.split(whereSeparator: { !"0123456789.-".contains($0) }).compactMap { Double($0) }
    }

    /// The numbers of `ContinuousCorners.path` of a `width`×`height` rectangle at the origin.
    private func expected(width: Double, height: Double, radius: Double) -> [Double] {
        ContinuousCorners.path(Rect(x: 0, y: 0, width: width, height: height), radius: radius).flatMap { element -> [Double] in
            switch element {
            case .move(let p), .line(let p): return [p.x, p.y]
            case .curve(let a, let b, let p): return [a.x, a.y, b.x, b.y, p.x, p.y]
            case .close: return []
            }
        }
    }

    private func matches(_ pattern: String, in text: String) throws -> [[String]] {
        let ns = text as NSString
        return try NSRegularExpression(pattern: pattern).matches(in: text, range: NSRange(location: 0, length: ns.length)).map { m in
            (0..<m.numberOfRanges).map { m.range(at: $0).location == NSNotFound ? "" : ns.substring(with: m.range(at: $0)) }
        }
    }

    private func assertPaths(_ actual: [String], widths: [Double], height: Double, radius: Double, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.count, widths.count, "one keyframe for each width: \(actual)", file: file, line: line)
        for (d, width) in zip(actual, widths) {
            let got = numbers(d), want = expected(width: width, height: height, radius: radius)
            XCTAssertEqual(got.count, want.count, "width \(width): \(d)", file: file, line: line)
            for (g, w) in zip(got, want) { XCTAssertEqual(g, w, accuracy: 0.0011, "width \(width): \(d)", file: file, line: line) }
        }
    }

    /// A continuous-corner rectangle that widens (60, 60, 80, 80, 120 pt: runs at frames 0, 2
    /// and 4) is one `<path>` whose `d` is animated by one set of keyframes, `d: path("…")` at
    /// 0 %, 40 % and 80 %, each the outline FrameRasterizer draws at that width; its attribute is
    /// the last frame's outline.
    func testAResizedContinuousCornerShapeIsOnePathWithDKeyframes() throws {
        let widths: [Double] = [60, 60, 80, 80, 120]
        let text = try document(widths.map { w in
            list([.fill(.continuousRoundedRect(Rect(x: 20, y: 30, width: w, height: 40), radius: 12), .color(red))])
        })
        let paths = try matches(##"<path d="([^"]*)"( class="(k[0-9]+)")?[^>]*fill="#FF0000"/>"##, in: text)
        XCTAssertEqual(paths.count, 1, "one element for every width: \(text)")
        guard let path = paths.first else { return }
        assertPaths([path[1]], widths: [120], height: 40, radius: 12)
        let k = path[3]
        XCTAssertFalse(k.isEmpty, "the path is not animated: \(text)")
        let body = try matches("@keyframes \(k)\\{(.*?)\\}\n", in: text).first?[1] ?? ""
        let steps = try matches(#"([0-9.]+)%\{d:path\("([^"]*)"\)\}"#, in: body)
        XCTAssertEqual(steps.map { $0[1] }, ["0", "40", "80"], body)
        assertPaths(steps.map { $0[2] }, widths: [60, 80, 120], height: 40, radius: 12)
        // The place does not move: no transform keyframes.
        XCTAssertFalse(text.contains("transform:"), text)
        XCTAssertTrue(text.contains("<g transform=\"translate(20,30)\""), text)
    }

    /// Where ``testTheResizedContinuousCornersTimelineForTheBrowser()`` writes its document and
    /// frames: .build/animated-svg-synthetic/ of the checkout.
    static let synthetic = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../.build/animated-svg-synthetic").standardized

    /// A timeline no example scene makes, for the browser test (Tests/Browser/test_animated_svg.py
    /// compares the document paused at each frame's time with that frame's PNG): a
    /// continuous-corner rectangle that widens and a group clipped by one that grows taller,
    /// 6 frames at 10 fps, 200×100 pt. Writes `animation.svg` and `frame_NNNN.png` (1 px per pt,
    /// FrameRasterizer's drawing) to ``synthetic``; checks here that it is one path and one clip.
    func testTheResizedContinuousCornersTimelineForTheBrowser() throws {
        let blue = Color(red: 0.1, green: 0.3, blue: 0.9)
        let frames = (0..<6).map { i -> DisplayList in
            let width = [40.0, 40, 90, 130, 130, 170][i], height = [20.0, 35, 35, 60, 80, 80][i]
            return list([
                .fill(.continuousRoundedRect(Rect(x: 10, y: 8, width: width, height: 36), radius: 14), .color(red)),
                .group(transform: .identity, opacity: 1, clip: .continuousRoundedRect(Rect(x: 120, y: 12, width: 70, height: height), radius: 16),
                       items: [.fill(.rect(Rect(x: 100, y: 0, width: 100, height: 100)), .color(blue))]),
            ])
        }
        let text = try document(frames)
        XCTAssertEqual(try matches(##"<path d="[^"]*" class="k[0-9]+" fill="#FF0000"/>"##, in: text).count, 1, text)
        XCTAssertEqual(text.components(separatedBy: "<clipPath").count - 1, 1, text)
        XCTAssertEqual(text.components(separatedBy: "d:path(").count - 1, 4 + 4, "a keyframe for each width and each height: \(text)")
        // Each file replaced atomically, none removed first: a browser test reading them while
        // this runs reads whole files (the same bytes on every run).
        let dir = Self.synthetic
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: dir.appendingPathComponent("animation.svg"), options: .atomic)
        let rasterizer = try FrameRasterizer(fonts: FontEnvironment.shared(), images: ImageLibrary(sources: []))
        for (i, frame) in frames.enumerated() {
            let png = try PNGEncoder.encode(try rasterizer.rasterize(frame, scale: 1))
            try Data(png).write(to: dir.appendingPathComponent(String(format: "frame_%04d.png", i)), options: .atomic)
        }
    }

    /// A group clipped by a continuous-corner rectangle that grows taller: one `<clipPath>`
    /// whose path's `d` is animated by keyframes of each height's outline.
    func testAResizedContinuousCornerClipIsOneClipPathWithDKeyframes() throws {
        let heights: [Double] = [30, 50, 70]
        let text = try document(heights.map { h in
            list([.group(transform: .identity, opacity: 1, clip: .continuousRoundedRect(Rect(x: 10, y: 10, width: 90, height: h), radius: 10),
                         items: [.fill(.rect(Rect(x: 0, y: 0, width: 200, height: 100)), .color(red))])])
        })
        let clips = try matches(#"<clipPath id="(c[0-9]+)"><path d="([^"]*)" transform="translate\(10,10\)" class="(k[0-9]+)"/></clipPath>"#, in: text)
        XCTAssertEqual(clips.count, 1, text)
        XCTAssertEqual(text.components(separatedBy: "<clipPath").count - 1, 1, "a clip for every height: \(text)")
        guard let clip = clips.first else { return }
        let body = try matches("@keyframes \(clip[3])\\{(.*?)\\}\n", in: text).first?[1] ?? ""
        let steps = try matches(#"([0-9.]+)%\{d:path\("([^"]*)"\)\}"#, in: body)
        XCTAssertEqual(steps.map { $0[1] }, ["0", "33.3333", "66.6666"], body)
        // The outline of each height is not the rectangle's transform: the corners keep their radius.
        let outlines = steps.map { $0[2] }
        for (d, h) in zip(outlines, heights) {
            let got = numbers(d), want = expected(width: 90, height: h, radius: 10)
            XCTAssertEqual(got.count, want.count, d)
            for (g, w) in zip(got, want) { XCTAssertEqual(g, w, accuracy: 0.0011, d) }
        }
    }
}
