@testable import CartRender
@testable import CartRenderCLI
import CartRenderCore
import CartRenderTestSupport
import Foundation
import XCTest

/// The pieces of `cartrender preview` below the browser: the inotify watcher (saves by rename,
/// bursts, other files), the loopback gate it shares with review, and its event streams.
final class PreviewTests: XCTestCase {
    private func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "preview-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }

    /// Saves `text` as editors do: a temporary file renamed over `path` (a new inode).
    private func saveByRename(_ text: String, to path: String) throws {
        try text.write(toFile: path + ".swp", atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(path + ".swp", path), 0)
    }

    private func after(_ seconds: Double, _ body: @escaping @Sendable () throws -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { try? body() }
    }

    /// A folder with `scene.json`, and a watcher of that file.
    private func watchedScene() throws -> (dir: String, scene: String, watcher: FileWatcher) {
        let dir = try temporaryDirectory()
        let scene = dir + "/scene.json"
        try "{}".write(toFile: scene, atomically: false, encoding: .utf8)
        let watcher = try FileWatcher()
        try watcher.watch([scene])
        return (dir, scene, watcher)
    }

    func testASaveByRenameIsSeenEveryTimeAndABurstIsOneChange() throws {
        let (_, scene, watcher) = try watchedScene()
        for round in 0..<2 {
            // The second save replaces the inode the first one made: a watch on the file would miss it.
            after(0.05) { [self] in try saveByRename("{\"round\": \(round)}", to: scene) }
            let deadline = Date().addingTimeInterval(10)
            XCTAssertEqual(watcher.wait(until: { Date() > deadline }), [scene], "round \(round)")
        }
        // A burst: several writes 10 ms apart are one change, and nothing is left pending after it.
        after(0.05) {
            for k in 0..<5 {
                try "{\"k\": \(k)}".write(toFile: scene, atomically: false, encoding: .utf8)
                usleep(10_000)
            }
        }
        let deadline = Date().addingTimeInterval(10)
        XCTAssertEqual(watcher.wait(until: { Date() > deadline }, debounce: 0.3), [scene])
        XCTAssertFalse(watcher.hasPending)
    }

    func testOtherFilesOfTheDirectoryAreNotChanges() throws {
        let (dir, _, watcher) = try watchedScene()
        XCTAssertEqual(watcher.watchedDirectories, [dir])
        after(0.05) { try "x".write(toFile: dir + "/other.json", atomically: false, encoding: .utf8) }
        let deadline = Date().addingTimeInterval(0.8)
        XCTAssertEqual(watcher.wait(until: { Date() > deadline }), [])
    }

    private func request(_ target: String, method: String = "GET", host: String = "127.0.0.1:4000", headers: [(String, String)] = []) throws -> HTTPRequest {
        let head = ([method + " " + target + " HTTP/1.1", "Host: " + host] + headers.map { "\($0.0): \($0.1)" }).joined(separator: "\r\n")
        return try HTTPRequest.parse(head: Array(head.utf8))
    }

    /// preview takes review's `--port` and `--allow-host`, parsed once into what the server uses.
    func testPortAndAllowedHostsReachTheServersOptions() throws {
        let c = try PreviewCommand.parse(["s.json", "--port", "8123", "--allow-host", "abc-8123.app.github.dev", "--allow-host", "Tunnel.example:443"])
        XCTAssertEqual(c.port, 8123)
        XCTAssertEqual(c.allowedHosts, [HostAllowance.Entry("abc-8123.app.github.dev"), HostAllowance.Entry("tunnel.example:443")].compactMap { $0 })
        XCTAssertEqual(c.allowedHosts.map(\.port), [nil, 443])
        XCTAssertThrowsError(try PreviewCommand.parse(["s.json", "--allow-host", "https://x.example"]))
        XCTAssertThrowsError(try PreviewCommand.parse(["s.json", "--port", "0"]))
    }

    func testTheGateWantsTheHostAndTheToken() throws {
        let gate = LoopbackGate(command: "preview", port: 4000)
        XCTAssertEqual(gate.token.count, 64)
        XCTAssertNotEqual(gate.token, LoopbackGate(command: "preview", port: 4000).token)
        func refusal(_ r: HTTPRequest) -> String? {
            if case .failure(let response) = gate.admit(r) { return String(decoding: response.body, as: UTF8.self) }
            return nil
        }
        XCTAssertEqual(refusal(try request("/")), "refused: the request does not carry this preview's token (open the address cartrender preview printed)\n")
        XCTAssertEqual(refusal(try request("/?token=" + gate.token, host: "tunnel.example:4000")), "refused: the Host header must be 127.0.0.1:4000 or localhost:4000\n")
        XCTAssertEqual(refusal(try request("/?token=" + gate.token, host: "localhost:4001")), "refused: the Host header must be 127.0.0.1:4000 or localhost:4000\n")
        XCTAssertNil(refusal(try request("/?token=" + gate.token, host: "localhost:4000")), "localhost at the port, as review")
        XCTAssertEqual(refusal(try request("/?token=" + gate.token, headers: [("Origin", "http://127.0.0.1:4001")])), "refused: the request comes from another origin\n")
        XCTAssertNil(refusal(try request("/?token=" + gate.token)))
        let cookie = ("Cookie", "cartrender-preview-4000=" + gate.token)
        guard case .success(let byCookie) = gate.admit(try request("/events", headers: [cookie])) else { return XCTFail("a GET with the cookie is let in") }
        XCTAssertFalse(byCookie.explicit)
        XCTAssertNotNil(refusal(try request("/playhead?t=1", method: "POST", headers: [cookie])), "a POST needs more than the cookie")
        guard case .success(let byHeader) = gate.admit(try request("/playhead?t=1", method: "POST", headers: [("X-Cartrender-Token", gate.token)])) else { return XCTFail() }
        XCTAssertTrue(byHeader.explicit)
        let page = gate.settingCookie(.text(200, "page"), for: try request("/?token=" + gate.token))
        XCTAssertEqual(page.headers["Set-Cookie"], "cartrender-preview-4000=\(gate.token); Path=/; HttpOnly; SameSite=Strict")
        XCTAssertEqual(LoopbackGate.hardened(page, frameAncestors: "'self'").headers["X-Frame-Options"], "SAMEORIGIN")
        XCTAssertEqual(LoopbackGate.hardened(page).headers["Content-Security-Policy"], "frame-ancestors 'none'")
    }

    func testAnEventOfSeveralLinesIsOneDataLineEach() {
        XCTAssertEqual(String(decoding: EventStreams.event("render", data: "{\"a\":1}\n{\"b\":2}"), as: UTF8.self),
                       "event: render\ndata: {\"a\":1}\ndata: {\"b\":2}\n\n")
    }

    /// A stream served through the loopback server stays open and gets each broadcast; a client
    /// that went away is dropped at the next one.
    func testStreamsStayOpenAndGetEveryBroadcast() throws {
        let server = try LoopbackHTTPServer()
        let streams = EventStreams()
        let stopped = LockedValue(false)
        let done = DispatchGroup()
        done.enter()
        nonisolated(unsafe) let serving = server
        Thread {
            serving.serve(until: { stopped.withLock { $0 } }, streams: streams) { _ in
                HTTPResponse(status: 200, headers: ["Content-Type": EventStreams.contentType], body: Array("retry: 500\n\n".utf8))
            }
            done.leave()
        }.start()
        defer { stopped.withLock { $0 = true }; done.wait(); streams.closeAll() }
        let fd = try Loopback.connect(port: server.port, receiveTimeout: 5)
        _ = Loopback.send(fd, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        var received = ""
        let deadline = Date().addingTimeInterval(10)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while streams.count == 0 && Date() < deadline { usleep(10_000) }
        streams.broadcast("render", data: "one")
        while !received.contains("data: one\n\n") && Date() < deadline {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            received += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        XCTAssertTrue(received.hasPrefix("HTTP/1.1 200 OK\r\n"), received)
        XCTAssertFalse(received.contains("Content-Length"), received)
        XCTAssertTrue(received.hasSuffix("retry: 500\n\nevent: render\ndata: one\n\n"), received)
        close(fd)
        usleep(50_000)
        streams.broadcast("render", data: "two")
        XCTAssertEqual(streams.count, 0, "the closed stream is dropped")
    }

    /// A broadcast to a client that reads nothing waits for it (up to its deadline) without
    /// holding the streams' lock: `count`, `adopt` and `closeAll` answer at once meanwhile, and
    /// the stream it writes to is closed when it ends, not under it.
    func testASlowClientHoldsNoLock() throws {
        var pair: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        defer { close(pair[1]) }
        _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
        let streams = EventStreams()
        streams.adopt(pair[0])
        let done = DispatchSemaphore(value: 0)
        let big = String(repeating: "x", count: 4 << 20)
        Thread { streams.broadcast("render", data: big); done.signal() }.start()
        usleep(300_000)
        let start = Date()
        XCTAssertEqual(streams.count, 1)
        streams.closeAll()
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "count and closeAll waited for the broadcast")
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(streams.count, 0)
    }

    /// Several problems of one scene (``SceneErrors``) are an entry each in the page's errors,
    /// each its own sentence with its file, line, column and JSON path; the sentences on stderr
    /// are the same, one a line.
    func testSeveralSceneErrorsAreAnEntryEach() throws {
        let errors = SceneErrors([
            SceneError(file: "scene.json", location: SourceLocation(line: 3, column: 9), path: "fps", message: "must be 1…240, got 0"),
            SceneError(file: "scene.json", location: SourceLocation(line: 5, column: 12), path: "device.width", message: "must be a number"),
        ])
        let entries = PreviewSession.describe(errors)
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(entries.map { $0.serialized() }, [
            #"{"sentence":"scene.json:3:9: fps: must be 1…240, got 0","file":"scene.json","line":3,"column":9,"path":"fps","message":"must be 1…240, got 0"}"#,
            #"{"sentence":"scene.json:5:12: device.width: must be a number","file":"scene.json","line":5,"column":12,"path":"device.width","message":"must be a number"}"#,
        ])
        XCTAssertEqual(PreviewSession.sentences(of: errors), ["scene.json:3:9: fps: must be 1…240, got 0", "scene.json:5:12: device.width: must be a number"])
    }

    /// A command line the preview cannot serve is a usage error (exit 64), not a scene error
    /// shown while it waits for a save: two appearances at parse, an unknown variant at the
    /// first render.
    func testUsageErrorsExit64() throws {
        let scene = Binary.examples + "/fly-button.json"
        let two = try Binary.run(["preview", scene, "--color-scheme", "light,dark"])
        XCTAssertEqual(two.status, 64, two.stderr)
        XCTAssertTrue(two.stderr.hasPrefix("cartrender: --color-scheme light,dark renders one file per appearance"), two.stderr)
        let variant = try Binary.run(["preview", scene, "--variant", "nope"])
        XCTAssertEqual(variant.status, 64, variant.stderr)
        XCTAssertTrue(variant.stderr.hasPrefix("cartrender: --variant nope: "), variant.stderr)
        XCTAssertFalse(variant.stderr.contains("rendered"), variant.stderr)
    }
}
