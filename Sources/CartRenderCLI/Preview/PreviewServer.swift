import CartRender
import CartRenderCore
import Foundation

/// The HTTP side of `cartrender preview`, on ``LoopbackHTTPServer`` with review's checks
/// (``LoopbackGate``: the Host header, the run's token; 403 with one line otherwise).
///
/// - `GET /`: the preview page (``PreviewPage``), which sets the token cookie.
/// - `GET /viewer?variant=NAME`: the viewer page (``ViewerPage``) of a variant's last good
///   render (`NAME` empty without a matrix), shown in a frame of the preview page; 404 before
///   the variant first rendered.
/// - `GET /NAME.png`: a frame of the preview's private directory (``PreviewFrames``), by the name
///   the data gives; 404 for any other name.
/// - `GET /events`: server-sent events (``EventStreams``): first the current state, then one
///   `render` event per state published (``PreviewSession/payload``).
/// - `POST /playhead?t=SECONDS`: the time the page shows, drawn first after the next save;
///   needs the token in the query or the `X-Cartrender-Token` header.
/// - Other methods: 405. Every response has review's headers, but the page may frame its own
///   (`frame-ancestors 'self'`), and frames may be cached (their names change with their bytes).
final class PreviewServer: @unchecked Sendable {
    let gate: LoopbackGate
    let streams = EventStreams()
    private let http: LoopbackHTTPServer
    private let session: PreviewSession

    /// Listens on 127.0.0.1 at `port` (0: a free one) with a new token, answering requests to
    /// 127.0.0.1 and localhost at that port and to the host names of `allowedHosts` (`--allow-host`).
    /// - Throws: ``ReviewServerError``.
    init(session: PreviewSession, port: UInt16, allowedHosts: [HostAllowance.Entry] = []) throws {
        self.session = session
        http = try LoopbackHTTPServer(port: port)
        gate = LoopbackGate(command: "preview", port: http.port, allowedHosts: allowedHosts)
    }

    /// Serves until `stop` returns true, then closes every event stream.
    func serve(until stop: () -> Bool) {
        http.serve(until: stop, streams: streams, respond: respond)
        streams.closeAll()
    }

    /// Sends a published state to every open page.
    func push(_ payload: String) { streams.broadcast("render", data: payload) }

    /// The answer to one request (see the type's documentation).
    func respond(_ request: HTTPRequest) -> HTTPResponse {
        var response = LoopbackGate.hardened(answer(request), frameAncestors: "'self'")
        // A frame's name is its bytes' hash: the browser keeps it, and fetches only new ones.
        if response.status == 200 && response.headers["Content-Type"] == "image/png" {
            response.headers["Cache-Control"] = "private, max-age=86400, immutable"
        }
        return response
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        gate.answer(request, post: "/playhead", { playhead(request) }, get: { file(request) })
    }

    private func playhead(_ request: HTTPRequest) -> HTTPResponse {
        guard let t = request.queryValue("t").flatMap(Double.init), t.isFinite, t >= 0 else { return .text(400, "playhead needs ?t=SECONDS") }
        session.playhead.withLock { $0 = t }
        return .text(200, "playhead at \(t) s")
    }

    private func file(_ request: HTTPRequest) -> HTTPResponse {
        switch request.path {
        case "/":
            let page = PreviewPage.html(scene: session.scene.sceneName, token: gate.token)
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(page.utf8))
        case "/viewer":
            guard let v = session.variant(request.queryValue("variant") ?? ""), let page = try? ViewerPage.html(for: v.manifest) else {
                return .text(404, "not rendered yet")
            }
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(page.utf8))
        case "/events":
            let first = EventStreams.event("render", data: session.payload.withLock { $0 })
            // `retry` is in milliseconds: a page whose stream broke (the preview restarted, a
            // laptop woke) connects again after half a second.
            return HTTPResponse(status: 200, headers: ["Content-Type": EventStreams.contentType], body: Array("retry: 500\n\n".utf8) + first)
        default:
            let name = String(request.path.dropFirst())
            guard !name.contains("/"), name.hasSuffix(".png"), let bytes = session.frames.read(name) else {
                return .text(404, "not found: \(singleLine(request.path))")
            }
            return HTTPResponse(status: 200, headers: ["Content-Type": "image/png"], body: bytes)
        }
    }
}
