@testable import CartRender
import CartRenderCore
import XCTest

/// What `verify` names as changed in the scene since its baseline was recorded (`SceneChanges`):
/// each change once, a setting said as a setting only.
final class SceneChangesTests: XCTestCase {
    private func canonical(_ json: String, scale: Double? = nil) throws -> JSONValue {
        try SceneDecoder.decode(Array(json.utf8), file: "s.json", baseDirectory: "/", overrides: SceneOverrides(scale: scale)).canonicalJSON
    }

    /// A preset device (`"device": "iphone-16"`, 3x) recorded at its own scale and verified
    /// with `--scale 1`, or the other way round: the scale is said once, as a setting (verify
    /// leaves `device.scale` out), not again as the whole device changed (was: `scene changed:
    /// device iphone-16 → {"width":393,"height":852,"scale":1,…}`).
    func testAPresetWithAnotherScaleIsNamedOnceAsASetting() throws {
        let scene = #"{"device": "iphone-16", "tint": "orange"}"#
        let preset = try canonical(scene), scaled = try canonical(scene, scale: 1)
        XCTAssertNil(SceneChanges.compare(baseline: preset, current: scaled, source: nil, reported: ["device.scale"])?.summary)
        XCTAssertNil(SceneChanges.compare(baseline: scaled, current: preset, source: nil, reported: ["device.scale"])?.summary)
        XCTAssertNil(SceneChanges.compare(baseline: try canonical("{}"), current: try canonical("{}", scale: 2), source: nil,
                                          reported: ["device.scale"])?.summary, "the default device is the preset too")
        // A scene change beside it is named, the scale still not.
        let teal = try canonical(#"{"device": "iphone-16", "tint": "teal"}"#, scale: 1)
        XCTAssertEqual(SceneChanges.compare(baseline: preset, current: teal, source: nil, reported: ["device.scale"])?.summary,
                       "scene changed: tint orange → teal")
        // Not said as a setting, the scale is the scene's change, member by member.
        XCTAssertEqual(SceneChanges.compare(baseline: preset, current: scaled, source: nil)?.summary, "scene changed: device.scale 3 → 1")
    }

    /// A preset replaced by a device written out is named by the members that differ; two
    /// presets by their names.
    func testOtherDevicesAreNamedByWhatDiffers() throws {
        let preset = try canonical(#"{"device": "iphone-16"}"#)
        let wider = try canonical(#"{"device": {"width": 400, "height": 852, "scale": 3, "safeArea": {"top": 59, "bottom": 34}}}"#)
        XCTAssertEqual(SceneChanges.compare(baseline: preset, current: wider, source: nil)?.summary, "scene changed: device.width 393 → 400")
        XCTAssertEqual(SceneChanges.compare(baseline: preset, current: try canonical(#"{"device": "iphone-se"}"#), source: nil)?.summary,
                       "scene changed: device iphone-16 → iphone-se")
    }
}
