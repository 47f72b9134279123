import CartRender
import CartRenderCore
import Foundation

/// The HTTP side of `cartrender review`: serves the report directory of a ``ReviewSession``
/// on 127.0.0.1 and accepts frames from its page.
///
/// Who may ask: ``LoopbackGate`` (the Host check — `127.0.0.1:PORT`, `localhost:PORT` and the
/// names `--allow-host` gives, ``HostAllowance`` — and the run's token, or 403 with one line);
/// `POST /accept` needs the token in the query or the header, not only the cookie
/// `cartrender-review-PORT`.
///
/// What is served — the report and baseline directories at their paths below the directory
/// that holds both (`/snaps/cartrender-report/`, `/snaps/fly/`), so that the report's relative
/// links to baseline frames (`../fly/frame_0003.png`) resolve as they do from the file system:
/// - `GET /`: a redirect (303) to the report's page, which is its `index.html` with the review
///   controls (``ReviewPage``); `GET /REPORT/NAME`: a regular file of the report directory, with
///   its `Content-Type`, also in a subdirectory; `GET /BASELINE/frame_NNNN.png`: a baseline
///   frame. Paths with a segment below those directories that is empty or starts with `.` (`..`,
///   hidden files), that is a symbolic link (first, middle or last: `report/etc -> /etc` does not
///   serve `/REPORT/etc/passwd`), or that resolve outside the directory are refused (403): see
///   ``ServedDirectory``. Anything else, and what is not a regular file, is 404.
/// - `POST /accept?frame=NAME` or `?frame=all`: ``ReviewSession/accept(_:)``; 200 with one line
///   when done, 409 for a frame that does not fail, 500 with the error's sentence when the
///   baseline cannot be rewritten, 503 when interrupted.
/// - Other methods: 405. Every response: `Cache-Control: no-store` (a reload after an accept
///   shows the new images), `X-Content-Type-Options: nosniff`, no framing by other pages.
final class ReviewServer {
    let port: UInt16
    /// The Host check and the run's token.
    let gate: LoopbackGate
    var token: String { gate.token }
    private let http: LoopbackHTTPServer
    private let session: ReviewSession
    /// The URL path segments of the report and the baseline directory (below the directory
    /// that holds both), percent-decoded.
    private let reportPath: [String], baselinePath: [String]
    /// The report and baseline directories, resolved when the review starts; nil when one could
    /// not be resolved (its files are then 404).
    private let reportRoot: ServedDirectory?, baselineRoot: ServedDirectory?
    /// Set when an accept was interrupted: serving stops, and accepts still in flight are
    /// answered 503. Read by the accepting thread while requests are handled on others.
    private let interruptedFlag = LockedValue(false)
    var interrupted: Bool { interruptedFlag.withLock { $0 } }

    /// Largest report file served (bytes).
    static let maxFileBytes = 512 << 20


    /// Listens on 127.0.0.1 at `port` (0: a free one) with a new token, answering requests to
    /// 127.0.0.1 and localhost at that port and to the host names of `allowedHosts`.
    /// - Throws: ``ReviewServerError``.
    init(session: ReviewSession, port requested: UInt16 = 0, allowedHosts: [HostAllowance.Entry] = []) throws {
        self.session = session
        http = try LoopbackHTTPServer(port: requested)
        port = http.port
        (reportPath, baselinePath) = Self.urlPaths(session.reportDirectory, session.baseline)
        reportRoot = ServedDirectory(session.reportDirectory)
        baselineRoot = ServedDirectory(session.baseline)
        gate = LoopbackGate(command: "review", port: port, allowedHosts: allowedHosts)
    }

    /// The address to open: `http://127.0.0.1:PORT/?token=TOKEN`.
    var url: String { gate.url }

    /// Serves until `stop` returns true or an accept is interrupted.
    func serve(until stop: () -> Bool) {
        http.serve(until: { stop() || interrupted }, respond: respond)
    }

    /// The answer to one request (see the type's documentation).
    func respond(_ request: HTTPRequest) -> HTTPResponse {
        LoopbackGate.hardened(answer(request))
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        gate.answer(request, post: "/accept", { accept(request) }, get: { file(request.path) })
    }

    private func accept(_ request: HTTPRequest) -> HTTPResponse {
        guard let frame = request.queryValue("frame"), !frame.isEmpty else {
            return .text(400, "accept needs ?frame=NAME or ?frame=all")
        }
        if interrupted { return .text(503, "interrupted: review stops (its terminal says what was written)") }
        do {
            let names = try session.accept(frame == "all" ? nil : frame)
            let failing = session.result.failures.count
            let verdict = failing == 0 ? "verify passes" : "verify still fails (\(failing) frame\(failing == 1 ? "" : "s"))"
            return .text(200, "accepted \(names.count) frame\(names.count == 1 ? "" : "s"); \(verdict)")
        } catch let refusal as ReviewRefusal {
            return .text(409, refusal.description)
        } catch let cancelled as RenderCancelled {
            _ = CLI.report(cancelled)
            interruptedFlag.withLock { $0 = true }
            return .text(503, "interrupted: review stops (its terminal says what was written)")
        } catch {
            _ = CLI.report(error)
            let sentence = (error as? ReportableError)?.sentence ?? "internal error: \(error)"
            return .text(500, singleLine(sentence))
        }
    }

    /// The URL path segments of directories `a` and `b`: their components below the deepest
    /// directory that holds both, resolved as ``HTMLReport/relativeDirectory(from:to:)``
    /// resolves them (so the report's links agree).
    static func urlPaths(_ a: String, _ b: String) -> ([String], [String]) {
        func components(_ path: String) -> [String] {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().pathComponents.filter { $0 != "/" }
        }
        let x = components(a), y = components(b)
        var common = 0
        while common < x.count, common < y.count, x[common] == y[common] { common += 1 }
        return (Array(x[common...]), Array(y[common...]))
    }

    /// `/` and the segments, each percent-encoded, ending in `/`.
    private static func urlPath(_ segments: [String]) -> String {
        "/" + segments.map { ($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0) + "/" }.joined()
    }

    /// The URL path of the report's page.
    var pagePath: String { Self.urlPath(reportPath) }

    /// A file of the report directory or a baseline frame, by URL path; `/` redirects to the
    /// report's page.
    private func file(_ path: String) -> HTTPResponse {
        if path == "/" && !reportPath.isEmpty {
            return HTTPResponse(status: 303, headers: ["Location": pagePath + "?token=" + token], body: [])
        }
        // Cut at the bytes `/` (a `/` followed by a combining mark is one Character, but still a separator).
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
            .map { String(decoding: $0, as: UTF8.self) }
        func below(_ mount: [String]) -> [String]? { segments.starts(with: mount) && segments.count > mount.count ? Array(segments[mount.count...]) : nil }
        // The deeper directory first: a report inside the baseline directory is the report's.
        let report = (reportPath, reportRoot, true), baseline = (baselinePath, baselineRoot, false)
        let mounts = reportPath.count >= baselinePath.count ? [report, baseline] : [baseline, report]
        guard let (found, directory, isReport) = mounts.lazy.compactMap({ m in below(m.0).map { ($0, m.1, m.2) } }).first else {
            return .text(404, "not found: \(singleLine(path))")
        }
        var rest = found
        if isReport && rest == [""] { rest = [ReportWriter.htmlName] }
        guard !rest.contains(where: { $0.isEmpty || $0.utf8.first == UInt8(ascii: ".") || $0.utf8.contains(0) || $0.utf8.contains(UInt8(ascii: "\\")) }) else {
            return .text(403, "refused: \(singleLine(path)) is not a file of the report")
        }
        let name = rest.joined(separator: "/")
        guard isReport || (rest.count == 1 && FrameResult.index(ofFileName: name) != nil), let directory else {
            return .text(404, "not found: \(singleLine(path))")
        }
        var bytes: [UInt8]
        switch directory.read(rest, limit: Self.maxFileBytes) {
        case .file(let read): bytes = read
        case .refused: return .text(403, "refused: \(singleLine(path)) is not a file of the report")
        case .missing: return .text(404, "not found: \(singleLine(path))")
        }
        if isReport && name == ReportWriter.htmlName {
            let html = ReviewPage.inject(into: String(decoding: bytes, as: UTF8.self), token: token,
                                         frames: session.acceptable.map(\.name), failing: session.result.failures.count)
            bytes = Array(html.utf8)
        }
        return HTTPResponse(status: 200, headers: ["Content-Type": Self.contentType(of: name)], body: bytes)
    }

    /// The media type of a report file, by its extension.
    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "json": "application/json"
        case "xml": "application/xml"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "md", "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
