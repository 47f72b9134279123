import CartRender
import Foundation

/// Who may ask a loopback server of cartrender (`review`, `preview`) anything: the checks every
/// request passes before its handler sees it, and the headers every response carries. One run,
/// one port, one token.
///
/// - Its `Host` is `127.0.0.1:PORT`, `localhost:PORT`, or a name `--allow-host` allows (a port
///   forward's: Codespaces, VS Code), ``HostAllowance``; any other name that resolves to
///   127.0.0.1 (DNS rebinding) is refused; and its `Origin`, when sent, is that host's
///   (`http://HOST`, or `https://HOST` for an allowed name, which a forward serves over TLS).
/// - It carries the run's token: 256 random bits (64 hex digits), in the `token` query
///   parameter, the `X-Cartrender-Token` header, or — for `GET` only — the cookie
///   `cartrender-COMMAND-PORT` that a `GET` with the token in its query sets (`HttpOnly;
///   SameSite=Strict`), so that the page's images and frames load. A request that changes
///   something needs the query or the header (``Admission/explicit``): a page of another port
///   of 127.0.0.1 cannot make its browser send them.
struct LoopbackGate: Sendable {
    /// The command whose server this is (`review`, `preview`), in the cookie's name and the
    /// refusal's sentence.
    let command: String
    let port: UInt16
    /// 64 lowercase hex digits.
    let token: String
    /// The `Host` headers answered.
    let hosts: HostAllowance

    /// A gate with a new random token, answering `127.0.0.1:PORT`, `localhost:PORT` and the
    /// names of `allowedHosts` (`--allow-host`).
    init(command: String, port: UInt16, allowedHosts: [HostAllowance.Entry] = []) {
        self.command = command
        self.port = port
        hosts = HostAllowance(port: port, allowed: allowedHosts)
        var random = SystemRandomNumberGenerator()
        token = (0..<4).map { _ in String(format: "%016llx", random.next() as UInt64) }.joined()
    }

    /// The address to open: `http://127.0.0.1:PORT/?token=TOKEN`.
    var url: String { "http://127.0.0.1:\(port)/?token=\(token)" }

    /// `cartrender-COMMAND-PORT`.
    var cookieName: String { "cartrender-\(command)-\(port)" }

    /// A request let in.
    struct Admission {
        /// The token came in the query or the `X-Cartrender-Token` header, not only in the cookie.
        var explicit: Bool
    }

    /// Lets `request` in, or refuses it.
    /// - Returns: the admission, or the 403 response with one line saying why.
    func admit(_ request: HTTPRequest) -> Result<Admission, HTTPResponse> {
        guard let host = request.header("host"), hosts.allows(host) else {
            return .failure(.text(403, "refused: the Host header must be 127.0.0.1:\(port) or localhost:\(port)\(hosts.allowed.isEmpty ? "" : ", or a host --allow-host names")"))
        }
        if let o = request.headers.first(where: { $0.name == "origin" }), !hosts.isOrigin(o.value, of: host) {
            return .failure(.text(403, "refused: the request comes from another origin"))
        }
        let explicit = request.header("x-cartrender-token") ?? request.queryValue("token")
        let presented = explicit ?? (request.method == "GET" ? cookie(request) : nil)
        guard let presented, Self.equalInConstantTime(presented, token) else {
            return .failure(.text(403, "refused: the request does not carry this \(command)'s token (open the address cartrender \(command) printed)"))
        }
        return .success(Admission(explicit: explicit != nil))
    }

    /// The answer to `request` on a server with one `POST` route, `postPath` (`/accept`):
    /// the refusal of ``admit(_:)``; at `postPath`, 405 for another method and 403 for a token
    /// that came only in the cookie, else `post()`; elsewhere 405 for a method but `GET`, else
    /// `get()` with the cookie set (``settingCookie(_:for:)``).
    func answer(_ request: HTTPRequest, post postPath: String, _ post: () -> HTTPResponse, get: () -> HTTPResponse) -> HTTPResponse {
        let admission: Admission
        switch admit(request) {
        case .success(let a): admission = a
        case .failure(let refusal): return refusal
        }
        let name = String(postPath.dropFirst())
        if request.path == postPath {
            guard request.method == "POST" else { return .text(405, "\(name) takes POST", headers: ["Allow": "POST"]) }
            guard admission.explicit else { return .text(403, "refused: \(name) needs the token in the X-Cartrender-Token header or the query") }
            return post()
        }
        guard request.method == "GET" else { return .text(405, "only GET, and POST \(postPath)", headers: ["Allow": "GET"]) }
        return settingCookie(get(), for: request)
    }

    /// `response` with the token cookie set when `request` brought the token in its query and
    /// the response is a page or a redirect to one (200, 303).
    func settingCookie(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        var response = response
        if request.queryValue("token") != nil && (response.status == 200 || response.status == 303) {
            response.headers["Set-Cookie"] = "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
        }
        return response
    }

    /// `response` with the headers every answer carries: `Cache-Control: no-store`,
    /// `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, and no framing by
    /// other pages (`frameAncestors`: `'none'`, or `'self'` for a page that frames its own).
    static func hardened(_ response: HTTPResponse, frameAncestors: String = "'none'") -> HTTPResponse {
        var response = response
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = frameAncestors == "'self'" ? "SAMEORIGIN" : "DENY"
        response.headers["Content-Security-Policy"] = "frame-ancestors \(frameAncestors)"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response
    }

    /// The value of this run's cookie in the request's `Cookie` header(s).
    private func cookie(_ request: HTTPRequest) -> String? {
        for header in request.headers where header.name == "cookie" {
            for pair in header.value.split(separator: ";") {
                let nv = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if nv.count == 2 && nv[0] == cookieName { return String(nv[1]) }
            }
        }
        return nil
    }

    /// Compares two strings in time that depends on their lengths only.
    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
