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

    /// SHA-256 of bytes given piece by piece (a file written in blocks).
    public final class Hasher {
        private let c: OpaquePointer

        /// A hasher of no bytes yet.
        public init() {
            guard let c = g_checksum_new(G_CHECKSUM_SHA256) else { preconditionFailure("g_checksum_new(SHA256) failed") }
            self.c = c
        }

        deinit { g_checksum_free(c) }

        /// Adds `bytes` to what is hashed.
        public func update(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { g_checksum_update(c, $0.baseAddress, gssize($0.count)) }
        }

        /// Lowercase hex SHA-256 of everything given; no update after it.
        public func finish() -> String { String(cString: g_checksum_get_string(c)) }
    }
}
