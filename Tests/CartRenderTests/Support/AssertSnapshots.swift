import CartRender
import CartRenderCore
import XCTest

/// The thin XCTest wrapper a test target writes around ``Snapshots/failure(_:baseline:times:record:tolerance:masks:overrides:reportDirectory:jobs:file:)``:
/// fails the calling test with the failing frames and the report's paths.
func assertSnapshots(
    _ scene: SnapshotScene, baseline: String, times: [Double]? = nil, record: RecordMode? = nil,
    tolerance: ComparisonOptions = ComparisonOptions(), masks: [Rect] = [], overrides: SceneOverrides = SceneOverrides(),
    file: StaticString = #filePath, line: UInt = #line
) {
    if let message = Snapshots.failure(scene, baseline: baseline, times: times, record: record, tolerance: tolerance,
                                       masks: masks, overrides: overrides, file: file) {
        XCTFail(message, file: file, line: line)
    }
}
