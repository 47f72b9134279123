@_exported import CartRender
import CartRenderCore
import Foundation
import Testing

/// Checks a scene's frames against the baseline named after the calling test, in one line, for
/// Swift Testing:
///
/// ```swift
/// import CartRenderTesting
/// import Testing
///
/// @Test func flyButton() throws {
///     try assertFrames(of: "Scenes/fly-button.json", times: [0, 0.3, 0.6, 0.95])
/// }
/// ```
///
/// The baseline is `__Snapshots__/FILE/TEST/` beside the test file, where FILE is the test
/// file's name without `.swift` and TEST the test function's name without its parentheses
/// (`__Snapshots__/FlySnapshotTests/flyButton/`), as swift-snapshot-testing names its
/// snapshots; a second call in the same test gets `TEST.2`, a third `TEST.3` (or give each a
/// `named:`). The report goes to `__Snapshots__/FILE/cartrender-report/TEST/`.
///
/// The record mode is `record` when given, else that of a ``RecordFramesTrait``
/// (`@Test(.recordFrames(.all))`) on the test or its suite, else `CARTRENDER_RECORD`, else
/// `never` when `CI` is set, else `missing`: the first local run records the baseline, passes
/// and says so on stderr; CI records nothing.
///
/// When a frame fails (or its state differs from the baseline's manifest), it records one issue
/// at the call site, a ``FramesDiffer`` error whose text, the issue's first line, is
/// ``SnapshotResult/failureMessage``: the summary line, the
/// first state divergence (`state diverges first at frame N (t=… s): …`), each failing frame
/// and the report's paths. It attaches the diff, expected and actual images of each failing
/// frame to the test (`frame_0036.diff.png`, `frame_0036.expected.png`, `frame_0036.actual.png`)
/// with `Attachment.record`: `swift test --attachments-path DIR` saves them in DIR, which must exist
/// in Swift 6.3 (`mkdir -p DIR` first).
///
/// - Parameters:
///   - scene: the scene file, relative to the test file's directory (or absolute).
///   - times: times (s) of the frames to check; nil checks every frame.
///   - named: the baseline's name instead of the test's (and its position in it).
///   - record: the record mode; nil resolves it as above.
///   - tolerance: threshold, anti-aliasing, limits.
///   - masks: regions to ignore, in points.
///   - overrides: fps, scale, color scheme, Reduce Motion.
/// - Throws: what ``Snapshots/verify(_:baseline:times:record:tolerance:masks:overrides:reportDirectory:jobs:file:)``
///   throws when the check cannot run (`SceneError` for a bad scene, `RasterError` exit 69
///   without the icons and fonts, a time outside the render…); differences are an issue, not
///   an error.
public func assertFrames(
    of scene: String, times: [Double]? = nil, named: String? = nil, record: RecordMode? = nil,
    tolerance: ComparisonOptions = ComparisonOptions(), masks: [Rect] = [], overrides: SceneOverrides = SceneOverrides(),
    fileID: String = #fileID, filePath: StaticString = #filePath, function: String = #function,
    line: Int = #line, column: Int = #column
) throws {
    try checkFrames(of: scene, times: times, named: named, record: record, tolerance: tolerance, masks: masks, overrides: overrides,
                    testFile: "\(filePath)", function: function,
                    location: Testing.SourceLocation(fileID: fileID, filePath: "\(filePath)", line: line, column: column))
}

/// ``assertFrames(of:times:named:record:tolerance:masks:overrides:fileID:filePath:function:line:column:)``
/// for a test file at `testFile` (any path; relative paths resolve against its directory).
func checkFrames(
    of scene: String, times: [Double]?, named: String?, record: RecordMode?, tolerance: ComparisonOptions, masks: [Rect],
    overrides: SceneOverrides, testFile: String, function: String, location: Testing.SourceLocation
) throws {
    let names = FrameBaselineName(filePath: testFile, function: function, named: named)
    let base = (testFile as NSString).deletingLastPathComponent
    func resolve(_ path: String) -> String { path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path) }
    // The one snapshot strategy: record policy, comparison, failure images (in the report).
    let strategy = try SnapshotStrategy.resolving(record: record ?? RecordFramesTrait.current, tolerance: tolerance)
    let result = try Snapshots.verify(
        .file(resolve(scene)), baseline: resolve(names.baseline), times: times, strategy: strategy,
        masks: masks, overrides: overrides, reportDirectory: resolve(names.report))
    guard let message = result.failureMessage else { return }
    for (name, path) in result.failureAttachments {
        guard let data = FileManager.default.contents(atPath: path) else { continue }
        Attachment.record([UInt8](data), named: name, sourceLocation: location)
    }
    // As an error, not a comment: Swift Testing's first line of an issue is its kind, which is
    // "Issue recorded" for a comment alone (the message only on the lines below it) and
    // "Caught error: MESSAGE" for an error, so the failure's first line says what failed.
    Issue.record(FramesDiffer(description: message), sourceLocation: location)
}

/// The issue of a failing ``assertFrames(of:times:named:record:tolerance:masks:overrides:fileID:filePath:function:line:column:)``:
/// `description` is cartrender verify's failure message (the verdict line, the state that
/// diverges, the failing frames and the report's path), which Swift Testing prints as the
/// issue's first line.
public struct FramesDiffer: Error, CustomStringConvertible {
    /// The message, one or more lines.
    public var description: String
}

/// The baseline and report directories of an ``assertFrames(of:times:named:record:tolerance:masks:overrides:fileID:filePath:function:line:column:)``
/// call, relative to the test file's directory.
struct FrameBaselineName {
    /// `__Snapshots__/FILE/TEST`.
    var baseline: String
    /// `__Snapshots__/FILE/cartrender-report/TEST`.
    var report: String

    /// How many times each baseline name was asked for in this process: the second call of a
    /// test gets `TEST.2`.
    private static let calls = Mutex<[String: Int]>([:])

    init(filePath: String, function: String, named: String?) {
        let file = Self.sanitized(((filePath as NSString).lastPathComponent as NSString).deletingPathExtension)
        var name = Self.sanitized(named ?? function)
        if named == nil {
            let n = Self.calls.withLock { calls -> Int in
                calls[filePath + "\u{0}" + name, default: 0] += 1
                return calls[filePath + "\u{0}" + name]!
            }
            if n > 1 { name += ".\(n)" }
        }
        baseline = "__Snapshots__/\(file)/\(name)"
        report = "__Snapshots__/\(file)/cartrender-report/\(name)"
    }

    /// `flyButton()` → `flyButton`, `test(scale:)` → `test-scale`: runs of characters other
    /// than letters, digits, `_` and `.` become `-`, trimmed at both ends (swift-snapshot-testing's
    /// rule), so that a test name is one safe path component.
    static func sanitized(_ name: String) -> String {
        var out = ""
        var pendingDash = false
        for c in name.unicodeScalars {
            if CharacterSet.alphanumerics.contains(c) || c == "_" || c == "." {
                if pendingDash && !out.isEmpty { out += "-" }
                pendingDash = false
                out.unicodeScalars.append(c)
            } else {
                pendingDash = true
            }
        }
        return out.isEmpty ? "frames" : out
    }
}

/// A lock around a value (Synchronization's `Mutex` needs a newer deployment target on some
/// platforms; this one is plain).
final class Mutex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock(); defer { lock.unlock() }
        return body(&value)
    }
}

/// The record mode of ``assertFrames(of:times:named:record:tolerance:masks:overrides:fileID:filePath:function:line:column:)``
/// for a test or every test of a suite: `@Test(.recordFrames(.all))`, `@Suite(.recordFrames(.failed))`.
/// It comes before `CARTRENDER_RECORD` and after a call's own `record:`.
public struct RecordFramesTrait: TestTrait, SuiteTrait, TestScoping {
    /// The record mode of the tests under the trait.
    public var mode: RecordMode
    /// The mode applies to every test of a suite, nested suites included.
    public var isRecursive: Bool { true }

    /// The mode of the test running on this task, if a trait set one.
    @TaskLocal static var current: RecordMode?

    /// Runs the test with ``mode`` as its record mode.
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await Self.$current.withValue(mode) { try await function() }
    }
}

extension Trait where Self == RecordFramesTrait {
    /// Records the baselines of ``assertFrames(of:times:named:record:tolerance:masks:overrides:fileID:filePath:function:line:column:)``
    /// in the test (or suite) with `mode`.
    public static func recordFrames(_ mode: RecordMode) -> Self { RecordFramesTrait(mode: mode) }
}
