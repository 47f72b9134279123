import Foundation
import XCTest

/// Where a binary outside the build tree finds its icons and fonts: beside itself
/// (`../share/cartrender`) or under /usr/local/share and /usr/share, never in the checkout's
/// `.build/share` (`ProjectData`).
final class InstalledDataTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws { dir = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    /// The binary copied alone to `DIR/bin/` stops with exit 69 and one sentence naming what is
    /// missing and where it looked; with the checkout's data copied to `DIR/share/cartrender`
    /// it renders.
    func testABinaryCopiedAloneNeedsItsShareDirectory() throws {
        for system in ["/usr/local/share/cartrender", "/usr/share/cartrender"] where FileManager.default.fileExists(atPath: system) {
            throw XCTSkip("\(system) exists, so a binary copied alone finds its data there")
        }
        let bin = dir + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Binary.url.path, toPath: bin + "/cartrender")
        let arguments = ["--frames", "0-0", "--scale", "1", "--quiet", "--out", "out"]

        let alone = try Binary.run(arguments, in: dir, executable: bin + "/cartrender")
        XCTAssertEqual(alone.status, 69, alone.stderr)
        XCTAssertTrue(alone.stderr.hasPrefix("cartrender: "), alone.stderr)
        XCTAssertEqual(alone.stderr.filter { $0 == "\n" }.count, 1, "one line: \(alone.stderr)")
        XCTAssertTrue(alone.stderr.contains(" is not installed: no share/cartrender/"), alone.stderr)
        XCTAssertTrue(alone.stderr.contains("in \(dir)/share/cartrender, /usr/local/share/cartrender or /usr/share/cartrender; install cartrender with its data"), alone.stderr)
        XCTAssertFalse(alone.stderr.contains(".build/share"), "the checkout's data is not a candidate: \(alone.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out/frame_0000.png"))

        let data = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../.build/share/cartrender").standardized.path
        try FileManager.default.createDirectory(atPath: dir + "/share", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: data, toPath: dir + "/share/cartrender")
        let beside = try Binary.run(arguments, in: dir, executable: bin + "/cartrender")
        XCTAssertEqual(beside.status, 0, beside.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/out/frame_0000.png"))
    }
}
