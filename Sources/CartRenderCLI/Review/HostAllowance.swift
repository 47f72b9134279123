import Foundation

/// The `Host` headers `cartrender review` and `preview` answer: `127.0.0.1:PORT` and `localhost:PORT` (its
/// own port), and the names `--allow-host NAME[:PORT]` gives, for a port forward that reaches
/// it under another name (GitHub Codespaces' `NAME-PORT.app.github.dev`, a VS Code tunnel, a
/// devcontainer's forward to another port). `NAME` alone allows that name with any port or none
/// (a forward over HTTPS sends `Host: NAME`); `NAME:PORT` that name at that port only. Names are
/// compared without regard to case. The token stays required whatever the host; any other
/// host — a name that resolves to 127.0.0.1 in a DNS-rebinding attack — is refused.
struct HostAllowance: Equatable, Sendable {
    /// One `--allow-host` value: a host name, and a port when given.
    struct Entry: Equatable, Sendable {
        /// The name, lower case.
        var name: String
        /// The port the name must come with; nil = any, or none.
        var port: UInt16?

        /// Parses `NAME` or `NAME:PORT`: NAME of letters, digits, `-`, `.` and `_` (a DNS
        /// name or an IPv4 address), PORT 1 to 65535; nil for anything else (an IPv6 literal, a
        /// URL, a path, spaces).
        init?(_ text: String) {
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).lowercased()
            guard !name.isEmpty, name.count <= 253,
                  name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-._".unicodeScalars.contains($0)) })
            else { return nil }
            self.name = name
            if parts.count == 2 {
                guard let p = UInt16(parts[1]), p > 0, parts[1].allSatisfy(\.isASCII) else { return nil }
                port = p
            }
        }
    }

    /// The port review listens on.
    let port: UInt16
    /// The `--allow-host` entries.
    let allowed: [Entry]

    /// Whether a request with this `Host` header is answered.
    func allows(_ host: String) -> Bool {
        let h = host.lowercased()
        if h == "127.0.0.1:\(port)" || h == "localhost:\(port)" { return true }
        let parts = h.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let given: UInt16?
        if parts.count == 2 {
            guard let p = UInt16(parts[1]), p > 0 else { return false }
            given = p
        } else {
            given = nil
        }
        return allowed.contains { e in e.name == name && (e.port == nil || e.port == given) }
    }

    /// Whether `origin` (an `Origin` header) is the page of `host` (an allowed `Host`): `http://HOST`,
    /// or for a name `--allow-host` allows also `https://HOST` (a forward serves over TLS).
    func isOrigin(_ origin: String, of host: String) -> Bool {
        let o = origin.lowercased(), h = host.lowercased()
        if o == "http://" + h { return true }
        let local = h == "127.0.0.1:\(port)" || h == "localhost:\(port)"
        return !local && o == "https://" + h
    }
}
