@testable import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// Every error type says its own exit status and sentence (docs/command-line.md): a table of
/// exact strings, as swift-argument-parser's error message tests. (How `CLI.report` prints them:
/// CLITests' CLIReportTests.)
final class ReportableErrorTests: XCTestCase {
    func testEachErrorCarriesItsExitCodeAndSentence() {
        let table: [(ReportableError, ExitCode, String, UInt)] = [
            (UsageError("--fps: expected a whole number"), .usage, "--fps: expected a whole number", #line),
            (SceneError(file: "s.json", location: SourceLocation(line: 2, column: 10), path: "fps", message: "must be ≥ 1"),
             .dataError, "s.json:2:10: fps: must be ≥ 1", #line),
            (SceneError(kind: .unreadable, file: "nope.json", location: nil, path: "", message: "no such file"),
             .noInput, "nope.json: no such file", #line),
            (OutputError(path: "out", reason: "exists and is not a directory"), .cannotCreate, "out: exists and is not a directory", #line),
            (MergeError(message: "a: no such directory", missingInput: true), .noInput, "a: no such directory", #line),
            (MergeError(message: "shards disagree"), .dataError, "shards disagree", #line),
            (AnimationEncodingError.writeFailed(path: "o/animation.gif", message: "No space left on device"),
             .cannotCreate, "Cannot write o/animation.gif: No space left on device.", #line),
            (AnimationEncodingError.qualityTooLow(frameIndex: 3, minimumQuality: 90), .dataError,
             "Frame 3 cannot be reduced to 256 colors at quality 90 or better; lower the minimum GIF quality with --gif-quality.", #line),
            (AnimationEncodingError.invalidCanvasSize(format: "GIF", width: 0, height: 4, limit: 65535), .usage,
             "GIF canvas of 0×4 px is not allowed: each side must be 1…65535 px.", #line),
            (AnimationEncodingError.invalidOption(name: "quality", reason: "must lie within 0…100"), .usage,
             "Option quality must lie within 0…100.", #line),
            (AnimationEncodingError.noFrames, .software, "internal error: The animation has no frames.", #line),
            (AnimationEncodingError.libraryFailed(library: "libwebp", operation: "WebPAnimEncoderAssemble", message: "out of memory"), .software,
             "internal error: libwebp failed in WebPAnimEncoderAssemble: out of memory.", #line),
            (ImageDecodingError(kind: .notPNG, message: "not a PNG file", path: "a.png"), .dataError, "cannot decode PNG a.png: not a PNG file", #line),
            (ImageDecodingError(kind: .unreadable, message: "no such file", path: "a.png"), .noInput, "cannot decode PNG a.png: no such file", #line),
            (InputError(.unreadable, path: "B", reason: "no such directory"), .noInput, "B: no such directory", #line),
            (InputError(.invalid, path: "B", reason: "is not a directory"), .dataError, "B: is not a directory", #line),
            (DiffError.invalidOption("--threshold: must be 0…1"), .usage, "--threshold: must be 0…1", #line),
            (ImageError(.file("/i/a.png"), "image file /i/a.png is empty"), .dataError, "image file /i/a.png is empty", #line),
            (ImageError(.file("/i/a.png"), unreadable: true, "image file /i/a.png does not exist"), .noInput,
             "image file /i/a.png does not exist", #line),
            (RasterError(.invalidInput, "font is corrupt"), .dataError, "font is corrupt", #line),
            (RasterError(.missingDependency, "install fonts-inter"), .unavailable, "install fonts-inter", #line),
            (RasterError(.library, "cairo_create failed"), .software, "internal error: cairo_create failed", #line),
        ]
        for (error, code, sentence, line) in table {
            XCTAssertEqual(error.exitCode, code, "\(error)", line: line)
            XCTAssertEqual(error.sentence, sentence, line: line)
            XCTAssertEqual(error.hint, error is UsageError ? "Run 'cartrender --help' for usage." : nil, line: line)
        }
    }
}
