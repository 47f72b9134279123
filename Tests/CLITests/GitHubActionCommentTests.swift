import CartRenderCore
import Foundation
import XCTest

/// The action's sticky pull-request comment (`pr-comment: true`, `Scripts/pr-comment.sh`), run
/// as the action runs it (the `run` step, then the `comment` step) against a fake of the GitHub
/// REST endpoints it calls — list, create and update an issue's comments, read and write a
/// file of a branch — served by Python's `http.server` on 127.0.0.1, started by the test, which
/// keeps the comments in memory and logs every request.
final class GitHubActionCommentTests: XCTestCase {
    private static let root = GitHubActionTests.root
    private var dir = ""
    private var server: Process?
    private var api = ""

    /// The fake API: comments of any issue in memory, numbered from 1000; files of branches;
    /// every request appended to `log` as one JSON line (method, path, authorization, body).
    private static let fake = #"""
    import http.server, json, os, sys, urllib.parse
    comments, files, log = [], {}, sys.argv[2]
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a): pass
        def reply(self, status, value):
            data = json.dumps(value).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        def handle_any(self, method):
            url = urllib.parse.urlparse(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            with open(log, "a") as f:
                f.write(json.dumps({"method": method, "path": url.path, "query": url.query,
                                    "auth": self.headers.get("Authorization"), "body": body}) + "\n")
            if self.headers.get("Authorization") != "Bearer secret-token":
                return self.reply(401, {"message": "Bad credentials"})
            parts = url.path.strip("/").split("/")
            if parts[:1] != ["repos"] or parts[1:3] != ["shop", "app"]:
                return self.reply(404, {"message": "Not Found"})
            rest = parts[3:]
            if rest[:1] == ["issues"] and len(rest) == 3 and rest[2] == "comments":
                issue = int(rest[1])
                if method == "GET":
                    q = urllib.parse.parse_qs(url.query)
                    per, page = int(q.get("per_page", ["30"])[0]), int(q.get("page", ["1"])[0])
                    mine = [c for c in comments if c["issue"] == issue]
                    return self.reply(200, mine[(page - 1) * per: page * per])
                if method == "POST":
                    c = {"id": 1000 + len(comments), "issue": issue, "body": body["body"],
                         "html_url": "https://github.com/shop/app/pull/%d#issuecomment-%d" % (issue, 1000 + len(comments))}
                    comments.append(c)
                    return self.reply(201, c)
            if rest[:2] == ["issues", "comments"] and len(rest) == 3 and method == "PATCH":
                for c in comments:
                    if c["id"] == int(rest[2]):
                        c["body"] = body["body"]
                        return self.reply(200, c)
                return self.reply(404, {"message": "Not Found"})
            if rest[:1] == ["contents"]:
                path = "/".join(rest[1:])
                if method == "GET":
                    ref = urllib.parse.parse_qs(url.query).get("ref", [""])[0]
                    if (ref, path) in files: return self.reply(200, {"path": path, "sha": "abc"})
                    return self.reply(404, {"message": "Not Found"})
                if method == "PUT":
                    if body["branch"] != "cartrender-images": return self.reply(422, {"message": "No such branch"})
                    files[(body["branch"], path)] = body["content"]
                    return self.reply(201, {"content": {"path": path}})
            return self.reply(404, {"message": "Not Found"})
        def do_GET(self): self.handle_any("GET")
        def do_POST(self): self.handle_any("POST")
        def do_PATCH(self): self.handle_any("PATCH")
        def do_PUT(self): self.handle_any("PUT")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[1] + ".new", "w") as f: f.write(str(server.server_address[1]))
    os.rename(sys.argv[1] + ".new", sys.argv[1])
    server.serve_forever()
    """#

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/workspace", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/tmp", withIntermediateDirectories: true)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", Self.fake, dir + "/port", dir + "/requests.log"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        server = p
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: dir + "/port") && p.isRunning && Date() < deadline { usleep(20_000) }
        api = "http://127.0.0.1:" + (try String(contentsOfFile: dir + "/port", encoding: .utf8))
    }

    override func tearDownWithError() throws {
        if let server, server.isRunning { server.terminate(); server.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// The requests the fake has seen since the last call, as (method, path).
    private func requests() throws -> [(method: String, path: String, body: [String: Any]?)] {
        let file = dir + "/requests.log"
        guard FileManager.default.fileExists(atPath: file) else { return [] }
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map { line in
            let r = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            XCTAssertEqual(r["auth"] as? String, "Bearer secret-token")
            return (r["method"] as! String, r["path"] as! String, r["body"] as? [String: Any])
        }
    }

    /// A pull_request event of pull request 7, from `head` (a fork when not shop/app).
    private func event(head: String = "shop/app") throws -> String {
        let path = dir + "/event.json"
        try #"{"pull_request": {"number": 7, "head": {"repo": {"full_name": "\#(head)"}}, "base": {"repo": {"full_name": "shop/app"}}}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The run step, then the comment step, as the action runs them with `pr-comment: true`.
    private func action(_ extra: [String: String] = [:], eventName: String = "pull_request",
                        head: String = "shop/app") throws -> (run: Binary.Result, comment: Binary.Result) {
        let outputFile = dir + "/output.txt"
        try? FileManager.default.removeItem(atPath: outputFile)
        var env = ["GITHUB_ACTION_PATH": Self.root, "GITHUB_OUTPUT": outputFile, "GITHUB_STEP_SUMMARY": dir + "/summary.md",
                   "CI": "true", "CARTRENDER": Binary.url.path, "RUNNER_TEMP": dir + "/tmp",
                   "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "shop/app", "GITHUB_RUN_ID": "42",
                   "GITHUB_API_URL": api, "GITHUB_EVENT_NAME": eventName, "GITHUB_EVENT_PATH": try event(head: head),
                   "INPUT_SCENE": "fly.json", "INPUT_BASELINE": "snapshots/fly", "INPUT_REPORT": "reports/fly", "INPUT_SCALE": "1",
                   "INPUT_ARTIFACT": "fly-report", "INPUT_PR_COMMENT": "true", "INPUT_GITHUB_TOKEN": "secret-token",
                   "INPUT_ARTIFACT_URL": "https://github.com/shop/app/actions/runs/42/artifacts/9"]
        env.merge(extra) { $1 }
        let script = "\"$GITHUB_ACTION_PATH/Scripts/github-action.sh\""
        let run = try Binary.run(["-c", script + " run"], in: dir + "/workspace", environment: env, timeout: 300, executable: "/bin/bash")
        let outputs = try String(contentsOfFile: outputFile, encoding: .utf8).split(separator: "\n")
        env["INPUT_RESULT"] = outputs.first { $0.hasPrefix("result=") }.map { String($0.dropFirst(7)) }
        env["INPUT_EXIT_CODE"] = outputs.first { $0.hasPrefix("exit-code=") }.map { String($0.dropFirst(10)) }
        let comment = try Binary.run(["-c", script + " comment"], in: dir + "/workspace", environment: env, timeout: 120, executable: "/bin/bash")
        XCTAssertEqual(comment.status, 0, "the comment step never fails the job: \(comment.stdout) \(comment.stderr)")
        return (run, comment)
    }

    /// The fly button at 10 fps for 1.2 s, its tap at `tap` s.
    private func scene(tap: Double) throws {
        try #"{"screen": "shop", "fps": 10, "duration": 1.2, "events": [{"at": \#(tap), "tap": "add"}]}"#
            .write(toFile: dir + "/workspace/fly.json", atomically: true, encoding: .utf8)
    }

    private let list = ("GET", "/repos/shop/app/issues/7/comments")

    /// Failing: one comment created with the marker, the summary table and the links; failing
    /// again: the same comment updated, no second one; passing: updated to say so. A passing
    /// pull request without a comment gets none.
    func testOneStickyCommentCreatedThenUpdated() throws {
        try scene(tap: 0.3)
        let record = try action(["INPUT_RECORD": "all"])
        XCTAssertEqual(record.run.status, 0, record.run.stderr)
        var seen = try requests()
        XCTAssertEqual(seen.map(\.method), ["GET"], "a pass with no comment yet: listed, nothing posted")
        XCTAssertEqual(seen.first?.path, list.1)
        XCTAssertTrue(record.comment.stdout.contains("every frame passed: no comment"), record.comment.stdout)

        try scene(tap: 0.5)
        let failing = try action()
        XCTAssertEqual(failing.run.status, 1)
        seen = try requests()
        XCTAssertEqual(seen.map(\.method), ["GET", "POST"], failing.comment.stdout + failing.comment.stderr)
        XCTAssertEqual(seen[1].path, list.1)
        let body = try XCTUnwrap(seen[1].body?["body"] as? String)
        XCTAssertTrue(body.hasPrefix("<!-- cartrender-pr-comment fly-report -->\n### ❌ cartrender verify: FAILED — `fly.json`"), body)
        XCTAssertTrue(body.contains("| frame | time | differing pixels | status | state divergence | images |"), body)
        XCTAssertFalse(body.contains("](reports/"), "report paths resolve only in the artifact: no links to them")
        XCTAssertTrue(body.contains("[run 42](https://github.com/shop/app/actions/runs/42)"), body)
        XCTAssertTrue(body.contains("[the artifact `fly-report`](https://github.com/shop/app/actions/runs/42/artifacts/9)"), body)
        XCTAssertTrue(body.range(of: #"motion diff .*`motion_[0-9a-f]{16}\.webp` in the artifact"#, options: .regularExpression) != nil, body)

        let again = try action()
        XCTAssertEqual(again.run.status, 1)
        seen = try requests()
        XCTAssertEqual(seen.map(\.method), ["GET", "PATCH"], "updated in place")
        XCTAssertEqual(seen[1].path, "/repos/shop/app/issues/comments/1000")

        try scene(tap: 0.3)
        let passing = try action()
        XCTAssertEqual(passing.run.status, 0)
        seen = try requests()
        XCTAssertEqual(seen.map(\.method), ["GET", "PATCH"], "the comment now says it passes")
        let passed = try XCTUnwrap(seen[1].body?["body"] as? String)
        XCTAssertTrue(passed.hasPrefix("<!-- cartrender-pr-comment fly-report -->\n### ✅ cartrender verify: passed — `fly.json`"), passed)
        XCTAssertFalse(passed.contains("motion diff"), passed)
    }

    /// With pr-comment-branch the motion diff is pushed to that branch and shown inline.
    func testTheMotionDiffIsInlineWhenABranchIsNamed() throws {
        try scene(tap: 0.3)
        XCTAssertEqual(try action(["INPUT_RECORD": "all"]).run.status, 0)
        _ = try requests()
        try scene(tap: 0.5)
        let failing = try action(["INPUT_PR_COMMENT_BRANCH": "cartrender-images"])
        XCTAssertEqual(failing.run.status, 1)
        let seen = try requests()
        XCTAssertEqual(seen.map(\.method), ["GET", "GET", "PUT", "POST"], failing.comment.stdout + failing.comment.stderr)
        XCTAssertTrue(seen[2].path.hasPrefix("/repos/shop/app/contents/cartrender-pr-comment/pr-7/fly-report/motion_"), seen[2].path)
        XCTAssertEqual(seen[2].body?["branch"] as? String, "cartrender-images")
        let report = try String(contentsOfFile: dir + "/workspace/reports/fly/report.json", encoding: .utf8)
        let name = try XCTUnwrap(report.range(of: #"motion_[0-9a-f]{16}\.webp"#, options: .regularExpression).map { String(report[$0]) })
        let file = try Data(contentsOf: URL(fileURLWithPath: dir + "/workspace/reports/fly/" + name))
        XCTAssertEqual(seen[2].body?["content"] as? String, file.base64EncodedString(), "the motion diff's bytes")
        let body = try XCTUnwrap(seen[3].body?["body"] as? String)
        XCTAssertTrue(body.contains("![motion diff \(name)](https://github.com/shop/app/raw/cartrender-images/cartrender-pr-comment/pr-7/fly-report/\(name))"), body)

        // A branch GitHub refuses: the comment links the artifact instead.
        _ = try action(["INPUT_PR_COMMENT_BRANCH": "no-such-branch"])
        let refused = try requests()
        XCTAssertEqual(refused.map(\.method), ["GET", "GET", "PUT", "PATCH"])
        let text = try XCTUnwrap(refused[3].body?["body"] as? String)
        XCTAssertTrue(text.contains("is in the artifact (it could not be pushed to `no-such-branch`: HTTP 422)"), text)
    }

    /// A pull request from a fork (read-only token): no request at all, and the job summary says
    /// why; an event that is not a pull request: nothing; pr-comment off: nothing.
    func testForksOtherEventsAndTheInputOffMakeNoRequest() throws {
        try scene(tap: 0.3)
        XCTAssertEqual(try action(["INPUT_RECORD": "all"]).run.status, 0)
        _ = try requests()
        try scene(tap: 0.5)
        try? FileManager.default.removeItem(atPath: dir + "/summary.md")
        let fork = try action(head: "someone/app")
        XCTAssertEqual(fork.run.status, 1)
        XCTAssertEqual(try requests().count, 0)
        let summary = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        XCTAssertTrue(summary.contains("No pull-request comment: this pull request comes from the fork `someone/app`, and GitHub gives workflows of pull requests from forks a read-only token"), summary)

        let push = try action(eventName: "push")
        XCTAssertTrue(push.comment.stdout.contains("not a pull_request event (push): no comment"), push.comment.stdout)
        XCTAssertEqual(try requests().count, 0)
        _ = try action(["INPUT_PR_COMMENT": "false"])
        XCTAssertEqual(try requests().count, 0)
        // Without the token's permission: a warning, the reason in the summary, no failure.
        let denied = try action(["INPUT_GITHUB_TOKEN": "read-only"])
        XCTAssertTrue(denied.comment.stdout.contains("::warning::cartrender pr-comment: GitHub answered HTTP 401"), denied.comment.stdout)
        XCTAssertTrue(try String(contentsOfFile: dir + "/summary.md", encoding: .utf8).contains("No pull-request comment: GitHub answered HTTP 401"))
    }
}
