import CPango

/// SHA-256 through GLib's `GChecksum` (GLib is already loaded with Pango).
public enum Checksum {
    /// Lowercase hex SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> String {
        guard let c = g_checksum_new(G_CHECKSUM_SHA256) else { preconditionFailure("g_checksum_new(SHA256) failed") }
        defer { g_checksum_free(c) }
        bytes.withUnsafeBufferPointer { g_checksum_update(c, $0.baseAddress, gssize($0.count)) }
        return String(cString: g_checksum_get_string(c))
    }
}
