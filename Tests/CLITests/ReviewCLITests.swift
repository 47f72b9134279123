import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// `cartrender review` run as a user runs it: the built binary serving its report on
/// 127.0.0.1, talked to over raw sockets (so that a test can send what a browser never would:
/// another Host, `..` in the path, no token).
final class ReviewCLITests: XCTestCase {
    private var dir = ""
    /// The default scene at 4 fps and 1x: 14 frames.
    private let sceneOptions = ["--scale", "1", "--fps", "4", "--quiet"]

    override func setUpWithError() throws {
        signal(SIGINT, SIG_DFL)
        dir = try makeTemporaryDirectory()
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    // MARK: - Helpers

    /// A running `cartrender review` and the address it printed.
    final class Review {
        let process: Process
        let stdoutPath: String, stderrPath: String
        var port: UInt16 = 0
        var token = ""
        init(process: Process, stdoutPath: String, stderrPath: String) {
            self.process = process
            self.stdoutPath = stdoutPath
            self.stderrPath = stderrPath
        }
        var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

        /// Sends `signal` and waits for the exit status (at most 20 s).
        func stop(_ signal: Int32 = SIGINT) -> Int32 {
            kill(process.processIdentifier, signal)
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Starts `cartrender review ARGS` in the test directory and waits (at most 60 s) for the
    /// address on stdout.
    private func startReview(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Review {
        let binary = Binary.url.path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["review"] + args
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        p.environment = Binary.environment()
        let out = dir + "/review.stdout", err = dir + "/review.stderr"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let review = Review(process: p, stdoutPath: out, stderrPath: err)
        addTeardownBlock { if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() } }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && p.isRunning {
            if let url = review.stdout.split(separator: "\n").first(where: { $0.hasPrefix("http://") }) {
                let rest = try XCTUnwrap(url.hasPrefix("http://127.0.0.1:") ? url.dropFirst(17) : nil, "\(url)", file: file, line: line)
                let parts = rest.split(separator: "/?token=")
                XCTAssertEqual(parts.count, 2, "\(url)", file: file, line: line)
                review.port = try XCTUnwrap(UInt16(parts[0]), "\(url)", file: file, line: line)
                review.token = String(parts[1])
                XCTAssertTrue(review.token.count == 64 && review.token.allSatisfy(\.isHexDigit), review.token, file: file, line: line)
                return review
            }
            usleep(20_000)
        }
        XCTFail("review printed no address; stdout: \(review.stdout) stderr: \(review.stderr)", file: file, line: line)
        throw XCTSkip("no server")
    }

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends `raw` (a whole request) to 127.0.0.1:`port` and reads the response to the end.
    private func send(_ raw: String, port: UInt16, file: StaticString = #filePath, line: UInt = #line) throws -> Response {
        let fd = try Loopback.connect(port: port, receiveTimeout: 60)
        defer { close(fd) }
        XCTAssertEqual(Loopback.send(fd, raw), raw.utf8.count, file: file, line: line)
        let data = Loopback.receiveAll(fd)
        let end = try XCTUnwrap((0..<max(0, data.count - 3)).first { data[$0..<$0 + 4] == [13, 10, 13, 10] }, "no response head", file: file, line: line)
        let head = String(decoding: data[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = try XCTUnwrap(Int(head[0].split(separator: " ")[1]), file: file, line: line)
        var headers: [String: String] = [:]
        for h in head.dropFirst() {
            let nv = h.split(separator: ":", maxSplits: 1)
            headers[nv[0].lowercased()] = nv[1].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Array(data[(end + 4)...]))
    }

    private func get(_ target: String, _ review: Review, host: String? = nil, headers: [String] = []) throws -> Response {
        let h = (["Host: \(host ?? "127.0.0.1:\(review.port)")"] + headers).map { $0 + "\r\n" }.joined()
        return try send("GET \(target) HTTP/1.1\r\n\(h)\r\n", port: review.port)
    }

    private func post(_ target: String, _ review: Review, headers: [String]) throws -> Response {
        let h = (["Host: 127.0.0.1:\(review.port)", "Content-Length: 0"] + headers).map { $0 + "\r\n" }.joined()
        return try send("POST \(target) HTTP/1.1\r\n\(h)\r\n", port: review.port)
    }

    private func run(_ args: [String], env: [String: String] = [:]) throws -> Binary.Result {
        try Binary.run(args, in: dir, environment: env)
    }

    /// Renders the default scene into `baseline` (frames and manifest.json, as a render writes
    /// them) and changes one pixel of each of `changed`, and its SHA-256 in the manifest (a
    /// baseline recorded from an earlier render).
    private func makeBaseline(_ baseline: String, changing changed: [Int]) throws {
        let r = try run(["--out", baseline] + sceneOptions)
        XCTAssertEqual(r.status, 0, r.stderr)
        for i in changed {
            let p = dir + "/" + baseline + String(format: "/frame_%04d.png", i)
            let old = Checksum.sha256(Array(try Data(contentsOf: URL(fileURLWithPath: p))))
            var image = try PNGDecoder.decode(contentsOf: p)
            image.pixels[(10 * image.width + 10) * 4 + 1] ^= 0xFF
            let bytes = try PNGEncoder.encode(image)
            try Data(bytes).write(to: URL(fileURLWithPath: p))
            let manifest = dir + "/" + baseline + "/manifest.json"
            let text = try String(contentsOfFile: manifest, encoding: .utf8)
            XCTAssertTrue(text.contains(old))
            try text.replacingOccurrences(of: old, with: Checksum.sha256(bytes)).write(toFile: manifest, atomically: true, encoding: .utf8)
        }
    }

    /// The report images of frame `index` (`expected`, `actual`, `diff`), as the report.json in
    /// `directory` names them.
    private func reportImages(_ index: Int, in directory: String = "snaps/cartrender-report") throws -> [String: String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + directory + "/report.json"))
        let frames = try XCTUnwrap((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["frames"] as? [[String: Any]])
        return try XCTUnwrap(frames[index]["files"] as? [String: String])
    }

    /// The bytes of every file of `directory` that is not hidden, by name.
    private func files(_ directory: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir + "/" + directory) where !name.hasPrefix(".") {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + directory + "/" + name))
        }
        return out
    }

    // MARK: - Tests

    func testServesTheReportWithTheTokenAndRefusesRequestsWithoutIt() throws {
        try makeBaseline("snaps/scene", changing: [6])
        let review = try startReview(["--baseline", "snaps/scene"] + sceneOptions)
        let diff = try XCTUnwrap(reportImages(6)["diff"])
        XCTAssertEqual(review.stdout.components(separatedBy: "\n").first,
                       "FAIL     frame_0006.png (t=1.5 s): 1 px differs (0.0003 %), allowed 0 px → snaps/cartrender-report/\(diff)")

        let root = try get("/?token=\(review.token)", review)
        XCTAssertEqual(root.status, 303, root.text)
        XCTAssertEqual(root.headers["location"], "/cartrender-report/?token=\(review.token)", "the report at its path beside the baseline's (below snaps/)")
        let page = try get("/cartrender-report/?token=\(review.token)", review)
        XCTAssertEqual(page.status, 200, page.text)
        XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertEqual(page.headers["connection"], "close")
        XCTAssertEqual(page.headers["cache-control"], "no-store")
        XCTAssertTrue(page.text.contains("\"frames\":[\"frame_0006.png\"]"), "the served page offers frame 6 to accept")
        XCTAssertTrue(page.text.contains("Accept all"))
        let cookie = try XCTUnwrap(page.headers["set-cookie"])
        XCTAssertEqual(cookie, "cartrender-review-\(review.port)=\(review.token); Path=/; HttpOnly; SameSite=Strict")
        let onDisk = try String(contentsOfFile: dir + "/snaps/cartrender-report/index.html", encoding: .utf8)
        XCTAssertFalse(onDisk.contains("Accept all"), "the static report has no review controls")
        XCTAssertFalse(onDisk.contains(review.token))

        // The report's images load with the cookie, the header or the query.
        let expected = try Data(contentsOf: URL(fileURLWithPath: dir + "/snaps/cartrender-report/" + diff))
        for auth in [["Cookie: other=1; cartrender-review-\(review.port)=\(review.token)"], ["X-Cartrender-Token: \(review.token)"]] {
            let image = try get("/cartrender-report/" + diff, review, headers: auth)
            XCTAssertEqual(image.status, 200, image.text)
            XCTAssertEqual(image.headers["content-type"], "image/png")
            XCTAssertEqual(Data(image.body), expected)
        }
        XCTAssertEqual(try get("/cartrender-report/report.json?token=\(review.token)", review).headers["content-type"], "application/json")
        // A passing frame's section shows its thumbnail, inside the report; the baseline's frames are served too.
        let thumb = try XCTUnwrap(page.text.range(of: #"src="thumb_[0-9a-f]{16}\.png""#, options: .regularExpression).map { String(page.text[$0].dropFirst(5).dropLast()) })
        XCTAssertEqual(try get("/cartrender-report/\(thumb)?token=\(review.token)", review).status, 200)
        let baselineFrame = try get("/scene/frame_0000.png?token=\(review.token)", review)
        XCTAssertEqual(baselineFrame.status, 200, baselineFrame.text)
        XCTAssertEqual(Data(baselineFrame.body), try Data(contentsOf: URL(fileURLWithPath: dir + "/snaps/scene/frame_0000.png")))
        XCTAssertEqual(try get("/scene/manifest.json?token=\(review.token)", review).status, 404, "only frames of the baseline")

        let refusal = "refused: the request does not carry this review's token (open the address cartrender review printed)\n"
        for (target, headers) in [("/", [String]()), ("/cartrender-report/" + diff, []), ("/scene/frame_0000.png", []), ("/?token=\(String(repeating: "0", count: 64))", []),
                                  ("/", ["X-Cartrender-Token: \(review.token.dropLast())"]), ("/", ["Cookie: cartrender-review-1=\(review.token)"])] {
            let r = try get(target, review, headers: headers)
            XCTAssertEqual(r.status, 403, "\(target) \(headers)")
            XCTAssertEqual(r.text, refusal, "\(target) \(headers)")
        }
        XCTAssertEqual(review.stop(), 0, review.stderr)
        XCTAssertTrue(review.stderr.hasSuffix("cartrender review: stopped by SIGINT\n"), review.stderr)
    }

    func testRefusesAnotherHostAnotherOriginAndPathsOutOfTheReport() throws {
        try makeBaseline("snaps/scene", changing: [6])
        try Data("secret".utf8).write(to: URL(fileURLWithPath: dir + "/secret.txt"))
        let review = try startReview(["--baseline", "snaps/scene"] + sceneOptions)
        try FileManager.default.createSymbolicLink(atPath: dir + "/snaps/cartrender-report/link.txt", withDestinationPath: dir + "/secret.txt")
        let q = "?token=\(review.token)"

        for host in ["localhost", "127.0.0.1", "127.0.0.1:1", "localhost:1", "rebound.example:\(review.port)", "rebound.example"] {
            let r = try get("/\(q)", review, host: host)
            XCTAssertEqual(r.status, 403, host)
            XCTAssertEqual(r.text, "refused: the Host header must be 127.0.0.1:\(review.port) or localhost:\(review.port)\n", host)
        }
        let noHost = try send("GET /\(q) HTTP/1.0\r\n\r\n", port: review.port)
        XCTAssertEqual(noHost.status, 403)
        let twoHosts = try get("/\(q)", review, headers: ["Host: 127.0.0.1:\(review.port)"])
        XCTAssertEqual(twoHosts.status, 403, "a repeated Host is no Host")
        let origin = try post("/accept?frame=frame_0006.png", review, headers: ["X-Cartrender-Token: \(review.token)", "Origin: http://127.0.0.1:8080"])
        XCTAssertEqual(origin.status, 403)
        XCTAssertEqual(origin.text, "refused: the request comes from another origin\n")

        for target in ["/../scene/frame_0000.png", "/%2e%2e/scene/frame_0000.png", "/..%2fscene%2fframe_0000.png", "/./index.html",
                       "//etc/passwd", "/.cartrender-staging", "/a/../index.html", "/.%CC%81hidden"].map({ "/cartrender-report" + $0 }) + ["/scene/../../secret.txt"] {
            let r = try get(target + q, review)
            XCTAssertEqual(r.status, 403, target)
            XCTAssertTrue(r.text.hasPrefix("refused: ") && r.text.hasSuffix(" is not a file of the report\n"), r.text)
        }
        XCTAssertEqual(try get("/cartrender-report/link.txt" + q, review).status, 403, "a symbolic link")
        for target in ["/cartrender-report/missing.png", "/cartrender-report/frame_0006.png", "/secret.txt", "/../secret.txt", "/etc/passwd", "/scene/frame_0006.png/x", "/snaps/scene/frame_0006.png"] {
            XCTAssertEqual(try get(target + q, review).status, 404, target)
        }
        XCTAssertEqual(try send("GET http://127.0.0.1/\(q) HTTP/1.1\r\nHost: 127.0.0.1:\(review.port)\r\n\r\n", port: review.port).status, 400)
        XCTAssertEqual(try send("GET /\(q) HTTP/1.1\r\nHost: 127.0.0.1:\(review.port)\r\nX: " + String(repeating: "a", count: 20_000) + "\r\n\r\n",
                                port: review.port).status, 431)
        XCTAssertEqual(try send("POST /accept\(q)&frame=all HTTP/1.1\r\nHost: 127.0.0.1:\(review.port)\r\nContent-Length: 1000000\r\n\r\n",
                                port: review.port).status, 413)
        XCTAssertEqual(review.stop(), 0, review.stderr)
    }

    /// Symbolic links are refused on every segment of a path, not only the last: a link to a
    /// directory elsewhere (`/etc`, a directory beside the report) in the middle of the path, a
    /// link whose target leaves the report (`up -> ../..`, into the baseline or above), a link
    /// that stays inside, a linked file and a linked baseline frame are each 403 with one line.
    /// A real subdirectory of the report is served, and so is a report below a linked directory
    /// (`snaps -> real`: the roots are resolved once, at start).
    func testRefusesSymbolicLinksOnEverySegment() throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/real", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: dir + "/snaps", withDestinationPath: "real")
        try makeBaseline("snaps/scene", changing: [6])
        try fm.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: dir + "/outside/secret.txt"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: dir + "/secret.txt"))
        let review = try startReview(["--baseline", "snaps/scene"] + sceneOptions)
        let report = dir + "/real/cartrender-report"
        try fm.createDirectory(atPath: report + "/sub", withIntermediateDirectories: true)
        try Data("served".utf8).write(to: URL(fileURLWithPath: report + "/sub/real.txt"))
        try fm.createSymbolicLink(atPath: report + "/etcdir", withDestinationPath: "/etc")
        try fm.createSymbolicLink(atPath: report + "/sub/mid", withDestinationPath: dir + "/outside")
        try fm.createSymbolicLink(atPath: report + "/up", withDestinationPath: "../..")
        try fm.createSymbolicLink(atPath: report + "/here", withDestinationPath: ".")
        try fm.createSymbolicLink(atPath: report + "/link.txt", withDestinationPath: dir + "/secret.txt")
        try fm.createSymbolicLink(atPath: dir + "/real/scene/frame_0100.png", withDestinationPath: dir + "/secret.txt")
        let q = "?token=\(review.token)"

        XCTAssertEqual(try get("/cartrender-report/\(q)", review).status, 200, "a report below a linked directory is served")
        let real = try get("/cartrender-report/sub/real.txt\(q)", review)
        XCTAssertEqual(real.status, 200, real.text)
        XCTAssertEqual(real.text, "served")
        for target in ["/cartrender-report/etcdir/passwd", "/cartrender-report/sub/mid/secret.txt", "/cartrender-report/up/secret.txt",
                       "/cartrender-report/up/real/scene/frame_0000.png", "/cartrender-report/here/index.html",
                       "/cartrender-report/link.txt", "/scene/frame_0100.png"] {
            let r = try get(target + q, review)
            XCTAssertEqual(r.status, 403, target)
            XCTAssertEqual(r.text, "refused: \(target) is not a file of the report\n", target)
        }
        XCTAssertEqual(review.stop(), 0, review.stderr)
    }

    func testAcceptNeedsPostAndTheTokenInTheHeaderOrQuery() throws {
        try makeBaseline("snaps/scene", changing: [6])
        let before = try files("snaps/scene")
        let review = try startReview(["--baseline", "snaps/scene"] + sceneOptions)
        let get = try get("/accept?frame=frame_0006.png&token=\(review.token)", review)
        XCTAssertEqual(get.status, 405)
        XCTAssertEqual(get.headers["allow"], "POST")
        let cookieOnly = try post("/accept?frame=frame_0006.png", review, headers: ["Cookie: cartrender-review-\(review.port)=\(review.token)"])
        XCTAssertEqual(cookieOnly.status, 403)
        XCTAssertEqual(try post("/accept?frame=frame_0006.png", review, headers: []).status, 403)
        let passing = try post("/accept?frame=frame_0005.png", review, headers: ["X-Cartrender-Token: \(review.token)"])
        XCTAssertEqual(passing.status, 409)
        XCTAssertEqual(passing.text, "frame_0005.png is not a failing frame of this review (passed, accepted or not verified)\n")
        XCTAssertEqual(try post("/accept", review, headers: ["X-Cartrender-Token: \(review.token)"]).status, 400)
        XCTAssertEqual(try post("/index.html?token=\(review.token)", review, headers: []).status, 405)
        XCTAssertEqual(try files("snaps/scene"), before, "no refused request changed the baseline")
        XCTAssertEqual(review.stop(SIGTERM), 0, review.stderr)
    }

    /// Accepting one frame rewrites exactly what `verify --record failed --frames N-N` rewrites
    /// (the frame and the baseline's manifest.json); Accept all what `verify --record failed`
    /// rewrites. Each accept verifies again: the report on disk and a later verify agree.
    func testAcceptRewritesTheBaselineAsRecordFailedAndVerifiesAgain() throws {
        try makeBaseline("snaps/scene", changing: [2, 6])
        try FileManager.default.copyItem(atPath: dir + "/snaps/scene", toPath: dir + "/one")
        try FileManager.default.copyItem(atPath: dir + "/snaps/scene", toPath: dir + "/all")
        let changed = try files("snaps/scene")
        XCTAssertEqual(try run(["verify", "--baseline", "one", "--record", "failed", "--frames", "6-6", "--report", "r1"] + sceneOptions).status, 0)
        XCTAssertEqual(try run(["verify", "--baseline", "all", "--record", "failed", "--report", "r2"] + sceneOptions).status, 0)
        let recordedOne = try files("one"), recordedAll = try files("all")
        XCTAssertNotEqual(recordedOne["frame_0006.png"], changed["frame_0006.png"])
        XCTAssertNotEqual(recordedOne["manifest.json"], changed["manifest.json"], "record failed rewrites the manifest's sha256")

        let review = try startReview(["--baseline", "snaps/scene"] + sceneOptions)
        let token = "X-Cartrender-Token: \(review.token)"
        let diff6 = try XCTUnwrap(reportImages(6)["diff"])
        let before = try String(contentsOfFile: dir + "/snaps/cartrender-report/report.json", encoding: .utf8)
        let motion = try XCTUnwrap(before.range(of: #"motion_[0-9a-f]{16}\.webp"#, options: .regularExpression).map { String(before[$0]) })
        let one = try post("/accept?frame=frame_0006.png", review, headers: [token])
        XCTAssertEqual(one.status, 200, one.text)
        XCTAssertEqual(one.text, "accepted 1 frame; verify still fails (1 frame)\n")
        XCTAssertEqual(try files("snaps/scene"), recordedOne, "the same bytes as verify --record failed --frames 6-6")
        let report = try String(contentsOfFile: dir + "/snaps/cartrender-report/report.json", encoding: .utf8)
        XCTAssertTrue(report.contains("\"frame_0002.png\"") && !report.contains(diff6), "the report is of the verify after the accept")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/snaps/cartrender-report/" + diff6), "frame 6's diff image is gone")
        XCTAssertTrue(report.contains("\"motionDiff\": null"), "the motion diff showed frame 6 failing: dropped")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/snaps/cartrender-report/" + motion), "and its file is gone")
        let page = try get("/cartrender-report/?token=\(review.token)", review)
        XCTAssertTrue(page.text.contains("\"frames\":[\"frame_0002.png\"]"), "only frame 2 is left to accept")
        XCTAssertEqual(try post("/accept?frame=frame_0006.png", review, headers: [token]).status, 409, "frame 6 passes now")

        let all = try post("/accept?frame=all&token=\(review.token)", review, headers: [])
        XCTAssertEqual(all.status, 200, all.text)
        XCTAssertEqual(all.text, "accepted 1 frame; verify passes\n")
        XCTAssertEqual(try files("snaps/scene"), recordedAll, "the same bytes as verify --record failed")
        XCTAssertTrue(try String(contentsOfFile: dir + "/snaps/cartrender-report/report.json", encoding: .utf8).contains("\"passed\": true"))
        XCTAssertEqual(try post("/accept?frame=all", review, headers: [token]).text, "nothing to accept: every frame passes\n")
        XCTAssertEqual(review.stop(), 0, review.stderr)
        XCTAssertTrue(review.stdout.contains("cartrender review: accepted frame_0006.png into snaps/scene\n"), review.stdout)
        XCTAssertTrue(review.stdout.hasSuffix("cartrender review: accepted frame_0002.png into snaps/scene\ncartrender verify: passed, 14 frames, 14 matched (14 byte-identical); report: snaps/cartrender-report/index.html\n"), review.stdout)

        let verify = try run(["verify", "--baseline", "snaps/scene"] + sceneOptions, env: ["CI": "true"])
        XCTAssertEqual(verify.status, 0, verify.stdout)
    }

    /// Accept all on a baseline a PNG optimiser rewrote losslessly records as `verify --record
    /// failed` does (it answered HTTP 500, "has changed since cartrender wrote it", when the
    /// ledger compared bytes only).
    func testAcceptRecordsOverABaselineAnOptimiserRewrote() throws {
        try OptimisedBaselineTests.writeScenes(in: dir)
        let options = OptimisedBaselineTests.options
        XCTAssertEqual(try run(["verify", "orange.json", "--baseline", "snaps/scene", "--record", "all"] + options).status, 0)
        try OptimisedBaselineTests.optimise(dir + "/snaps/scene")
        let review = try startReview(["teal.json", "--baseline", "snaps/scene"] + options)
        let all = try post("/accept?frame=all", review, headers: ["X-Cartrender-Token: \(review.token)"])
        XCTAssertEqual(all.status, 200, all.text)
        XCTAssertTrue(all.text.hasSuffix("; verify passes\n"), all.text)
        XCTAssertEqual(review.stop(), 0, review.stderr)
        XCTAssertEqual(try run(["verify", "teal.json", "--baseline", "snaps/scene"] + options).status, 0)
    }

    /// `--port N` listens there; `localhost:N` is answered as `127.0.0.1:N`; `--allow-host`
    /// lets a forwarded name through, with any port or none (`NAME`) or that port only
    /// (`NAME:PORT`), its `https://` origin too; the token stays required and other hosts stay
    /// refused. A port in use stops a second review with exit 69.
    func testAChosenPortLocalhostAndAllowedForwardedHosts() throws {
        try makeBaseline("snaps/scene", changing: [6])
        var review: Review?
        var port = 0
        for _ in 0..<5 where review == nil {
            port = Int.random(in: 20_000...60_000)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = UInt16(port).bigEndian
            a.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            let free = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 } }
            close(fd)
            guard free else { continue }
            review = try startReview(["--baseline", "snaps/scene", "--port", "\(port)", "--allow-host", "Abc-8123.App.GitHub.dev",
                                      "--allow-host", "tunnel.example:9443"] + sceneOptions)
        }
        let r = try XCTUnwrap(review, "no free port")
        XCTAssertEqual(Int(r.port), port)
        let q = "?token=\(r.token)"
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "abc-8123.app.github.dev", "abc-8123.app.github.dev:443",
                     "tunnel.example:9443"] {
            XCTAssertEqual(try get("/\(q)", r, host: host).status, 303, host)
            XCTAssertEqual(try get("/", r, host: host).status, 403, "\(host): the token stays required")
        }
        for host in ["tunnel.example", "tunnel.example:8443", "other.app.github.dev", "abc-8123.app.github.dev.evil.example", "localhost"] {
            XCTAssertEqual(try get("/\(q)", r, host: host).status, 403, host)
        }
        let forwarded = try get("/\(q)", r, host: "abc-8123.app.github.dev", headers: ["Origin: https://abc-8123.app.github.dev"])
        XCTAssertEqual(forwarded.status, 303)
        XCTAssertEqual(try get("/\(q)", r, host: "localhost:\(port)", headers: ["Origin: https://localhost:\(port)"]).status, 403)
        XCTAssertEqual(try get("/\(q)", r, host: "abc-8123.app.github.dev", headers: ["Origin: https://evil.example"]).status, 403)

        let second = try run(["review", "--baseline", "snaps/scene", "--port", "\(port)"] + sceneOptions)
        XCTAssertEqual(second.status, 69, second.stderr)
        XCTAssertTrue(second.stderr.hasSuffix("cartrender: cannot listen on 127.0.0.1:\(port) (bind: Address already in use): choose another --port, or leave it out for a free one\n"), second.stderr)
        XCTAssertEqual(r.stop(), 0, r.stderr)

        for bad in [["--port", "0"], ["--port", "65536"], ["--allow-host", "https://x.example"], ["--allow-host", "x.example:port"]] {
            let u = try run(["review", "--baseline", "snaps/scene"] + bad + sceneOptions)
            XCTAssertEqual(u.status, 64, "\(bad): \(u.stderr)")
        }
    }

    /// A scene with a variants matrix: review serves the one variant `--variant` picks, from its
    /// subdirectories of the baseline and report, as verify verifies it; several are refused.
    func testReviewsOneVariantOfAMatrix() throws {
        let scene = #"{"screen": "shop", "fps": 4, "duration": 0.5, "events": [{"at": 0.25, "tap": "add"}], "variants": {"colorScheme": ["light", "dark"]}}"#
        try scene.write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
        let args = ["scene.json", "--baseline", "snaps", "--scale", "1", "--quiet"]
        XCTAssertEqual(try run(["verify"] + args).status, 0)
        try FileManager.default.removeItem(atPath: dir + "/snaps/dark/frame_0001.png")
        try FileManager.default.copyItem(atPath: dir + "/snaps/light/frame_0001.png", toPath: dir + "/snaps/dark/frame_0001.png")
        try OwnershipFixture.adopt(["frame_0001.png"], in: dir + "/snaps/dark")  // as a recording of a changed render leaves it

        let several = try run(["review"] + args)
        XCTAssertEqual(several.status, 64)
        XCTAssertEqual(several.stderr, "cartrender: scene.json has 2 variants; review serves one: choose it with --variant NAME\nRun 'cartrender review --help' for usage.\n")

        let review = try startReview(args + ["--variant", "dark", "--record", "never"])
        XCTAssertTrue(review.stdout.hasPrefix("FAIL     frame_0001.png"), review.stdout)
        let diff = try XCTUnwrap(reportImages(1, in: "cartrender-report/dark")["diff"])
        XCTAssertTrue(try get("/cartrender-report/dark/\(diff)?token=\(review.token)", review).status == 200, "served from cartrender-report/dark")
        let accepted = try post("/accept?frame=frame_0001.png", review, headers: ["X-Cartrender-Token: \(review.token)"])
        XCTAssertEqual(accepted.text, "accepted 1 frame; verify passes\n")
        XCTAssertEqual(review.stop(), 0, review.stderr)
        XCTAssertNotEqual(try files("snaps/dark")["frame_0001.png"], try files("snaps/light")["frame_0001.png"])
        XCTAssertEqual(try run(["verify"] + args, env: ["CI": "true"]).status, 0, "both variants pass")
    }

    /// Bad input ends review as it ends verify: the same exit status and sentence.
    func testBadInputExitsAsVerify() throws {
        try makeBaseline("snaps/scene", changing: [])
        try Data("{".utf8).write(to: URL(fileURLWithPath: dir + "/broken.json"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/snaps/scene/frame_0003.png"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        let cases: [[String]] = [
            ["missing.json", "--baseline", "snaps/scene"],
            ["broken.json", "--baseline", "snaps/scene"],
            ["--baseline", "file"] + sceneOptions,
            ["--baseline", "snaps/scene", "--record", "never"] + sceneOptions,
            ["--baseline", "snaps/scene", "--threshold", "2"],
            ["--frames", "0-1"],
        ]
        for args in cases {
            let verify = try run(["verify"] + args, env: ["CI": "true"])
            let review = try run(["review"] + args, env: ["CI": "true"])
            XCTAssertNotEqual(verify.status, 0, args.joined(separator: " "))
            XCTAssertEqual(review.status, verify.status, args.joined(separator: " "))
            XCTAssertEqual(review.stderr, verify.stderr.replacingOccurrences(of: "'cartrender verify --help'", with: "'cartrender review --help'"),
                           args.joined(separator: " "))
        }
        let json = try run(["review", "--baseline", "snaps/scene", "--json"])
        XCTAssertEqual(json.status, 64)
        XCTAssertEqual(json.stderr, "cartrender: --json is verify's: review prints the address of the report it serves\nRun 'cartrender review --help' for usage.\n")
    }

    /// With standard output closed (`>&-`) nobody can learn the address and its token: review
    /// stops at once with 73 and one sentence instead of serving until killed.
    func testAClosedStandardOutputStopsAtOnce() throws {
        try makeBaseline("snaps/scene", changing: [1])
        let r = try Binary.run(["-c", "exec \"$0\" review --baseline snaps/scene --scale 1 --fps 4 --quiet >&-", Binary.url.path],
                               in: dir, timeout: 120, executable: "/bin/bash")
        XCTAssertFalse(r.timedOut)
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertEqual(r.stderr, "cartrender: standard output cannot be written (Bad file descriptor): review serves nothing, as nobody could learn its address\n")
    }
}
