import Foundation
import XCTest

/// Names that are not UTF-8 (`$'bad\xff\xfename'`): paths are bytes, so any name the file system
/// accepts works as a scene, `--out`, `--baseline`, `--report`, diff's A and B and merge's
/// directories, and messages show such bytes as `\xFF`.
///
/// Foundation's `Process` passes arguments as UTF-8, so the runs go through `/bin/sh`, with the
/// names made by `printf` and checked by the shell.
final class NonUTF8PathTests: XCTestCase {
    /// Shell lines that name the paths: `$B` = `bad\xFF\xFEname`, `$S` a scene file, `$D` a
    /// directory whose name is not UTF-8 either.
    static let names = """
        B=$(printf 'bad\\377\\376name'); S=$(printf 'scene\\377.json'); D=$(printf 'dir\\376'); R=$(printf 'report\\377')
        """

    /// Runs `script` (after `names`) with `$CR` the cartrender binary, in `dir`.
    func sh(_ script: String, in dir: String) throws -> Binary.Result {
        try Binary.run(["-c", Self.names + "\n" + script], in: dir, environment: ["CR": Binary.url.path], executable: "/bin/sh")
    }

    func testRenderWritesIntoTheDirectoryNamedByTheBytes() throws {
        let dir = Binary.tempDir(self)
        let r = try sh(#"""
            "$CR" --out "$B" --fps 4 --scale 1 || exit 10
            [ -f "$B/manifest.json" ] && [ -f "$B/frame_0000.png" ] || exit 11
            [ "$(ls -A | wc -l)" -eq 1 ] || exit 12
            """#, in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains(#") to bad\xFF\xFEname from 14 frames of "#), r.stderr)
    }

    /// A scene file with such a name, and one in such a directory with an image beside it (found
    /// relative to the scene, also from inside that directory).
    func testSceneFilesAndTheirImages() throws {
        let dir = Binary.tempDir(self)
        let r = try sh(#"""
            cp "\#(Binary.examples)/fly-button.json" "$S" || exit 9
            "$CR" "$S" --out a --frames 0-0 --scale 1 --quiet || exit 10
            mkdir -p "$D/images" && cp "\#(Binary.examples)/png-image.json" "$D/s.json" && cp "\#(Binary.examples)/images/sneaker.png" "$D/images/" || exit 9
            "$CR" "$D/s.json" --out b --frames 0-0 --scale 1 --quiet || exit 11
            (cd "$D" && "$CR" s.json --out ../c --frames 0-0 --scale 1 --quiet) || exit 12
            cmp b/frame_0000.png c/frame_0000.png || exit 13
            """#, in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// Errors name the file with its bytes escaped.
    func testMessagesShowTheBytesEscaped() throws {
        let dir = Binary.tempDir(self)
        let missing = try sh(#""$CR" "$S" --out a"#, in: dir)
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stderr, "cartrender: scene\\xFF.json: no such file\n")
        let notDir = try sh(#"touch "$B" && "$CR" --out "$B" --frames 0-0"#, in: dir)
        XCTAssertEqual(notDir.status, 73)
        XCTAssertEqual(notDir.stderr, "cartrender: bad\\xFF\\xFEname: exists and is not a directory\n")
    }

    func testVerifyWithSuchABaselineAndReport() throws {
        let dir = Binary.tempDir(self)
        let r = try sh(#"""
            "$CR" verify --baseline "$B" --report "$R" --fps 4 --scale 1 --quiet --record missing || exit 10
            [ -f "$B/frame_0013.png" ] && [ -f "$R/report.json" ] || exit 11
            "$CR" verify --baseline "$B" --report "$R" --fps 4 --scale 1 --quiet --record never || exit 12
            [ "$(ls -A | wc -l)" -eq 2 ] || exit 13
            """#, in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix(#"14 matched (14 byte-identical); report: report\xFF/index.html"# + "\n"), r.stdout)
    }

    func testDiffAndMergeWithSuchDirectories() throws {
        let dir = Binary.tempDir(self)
        let r = try sh(#"""
            "$CR" --out "$B" --frames 0-1 --scale 1 --quiet && "$CR" --out "$D" --frames 0-1 --scale 1 --quiet --color-scheme dark || exit 9
            "$CR" diff "$B" "$D" --out "$R" --report "$R"; [ $? -eq 1 ] || exit 10
            [ -f "$R/frame_0001.diff.png" ] && [ -f "$R/report.json" ] || exit 11
            "$CR" diff "$B/frame_0000.png" "$D/frame_0000.png" --out "$R/one.png"; [ $? -eq 1 ] || exit 12
            [ -f "$R/one.png" ] || exit 13
            for k in 1 2; do "$CR" --out "$B-$k" --shard $k/2 --fps 4 --scale 1 --quiet || exit 14; done
            "$CR" merge "$B-1" "$B-2" --out "$S" || exit 15
            "$CR" --out single --fps 4 --scale 1 --quiet && cmp single/manifest.json "$S/manifest.json" || exit 16
            """#, in: dir)
        XCTAssertEqual(r.status, 0, r.stderr + r.stdout)
        XCTAssertTrue(r.stderr.hasSuffix("merged 14 frames into scene\\xFF.json/manifest.json\n"), r.stderr)
    }
}
