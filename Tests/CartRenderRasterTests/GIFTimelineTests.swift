import XCTest
@testable import CartRenderRaster

/// Check values computed by hand from `t = i / fps` (docs/motion-and-look.md): boundaries at `round(t × 100)` cs,
/// and above 50 fps the latest frame due at each 2 cs tick.
final class GIFTimelineTests: XCTestCase {
    func testDisplayStartsInCentiseconds() {
        let table: [(fps: Double, maxFrameRate: Double, starts: [Int?], line: UInt)] = [
            // 30 fps: 3.33 cs apart, rounding distributed (3, 4, 3, 3, 4, 3 …).
            (30, 50, [0, 3, 7, 10, 13, 17, 20], #line),
            // 24 fps: 4.1667 cs apart; 12.5 cs is an exact half and rounds up.
            (24, 50, [0, 4, 8, 13, 17, 21, 25], #line),
            (25, 50, [0, 4, 8, 12], #line),
            (50, 50, [0, 2, 4, 6, 8, 10], #line),
            // 60 fps capped to 50: ticks every 2 cs; frames 5 and 11 are never due at a tick.
            (60, 50, [0, 2, 4, 6, 8, nil, 10, 12, 14, 16, 18, nil, 20], #line),
            // 120 fps capped to 50: tick k shows frame ⌊2.4 k⌋ → 0, 2, 4, 7, 9, 12.
            (120, 50, [0, nil, 2, nil, 4, nil, nil, 6, nil, 8, nil, nil, 10], #line),
            // 30 fps capped to 25 (4 cs ticks): one frame in six is dropped.
            (30, 25, [0, 4, 8, 12, 16, nil, 20], #line),
        ]
        for row in table {
            let timeline = GIFTimeline(fps: row.fps, maxFrameRate: row.maxFrameRate)
            let starts = row.starts.indices.map { timeline.displayStart(ofFrame: $0) }
            XCTAssertEqual(starts, row.starts, "fps \(row.fps), cap \(row.maxFrameRate)", line: row.line)
        }
    }

    func testEndIsRoundedTotalDuration() {
        let table: [(fps: Double, frames: Int, end: Int, line: UInt)] = [
            (60, 60, 100, #line),
            (60, 61, 102, #line),   // 101.67 cs
            (60, 62, 103, #line),   // 103.33 cs
            (30, 7, 23, #line),     // 23.33 cs
            (24, 3, 13, #line),     // 12.5 cs, half up
        ]
        for row in table {
            XCTAssertEqual(GIFTimeline(fps: row.fps, maxFrameRate: 50).end(frameCount: row.frames), row.end, line: row.line)
        }
    }

    func testMillisecondsRoundHalfUp() {
        XCTAssertEqual((0...6).map { GIFTimeline.milliseconds(Double($0) / 60) }, [0, 17, 33, 50, 67, 83, 100])
        // 1/8 s at 1000/8 ms is exact; 1/16 s = 62.5 ms rounds up.
        XCTAssertEqual(GIFTimeline.milliseconds(1.0 / 16), 63)
    }

    func testDropsFramesOnlyAboveTheCap() {
        XCTAssertFalse(GIFTimeline(fps: 50, maxFrameRate: 50).dropsFrames)
        XCTAssertTrue(GIFTimeline(fps: 60, maxFrameRate: 50).dropsFrames)
    }
}
