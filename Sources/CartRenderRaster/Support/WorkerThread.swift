import Glibc

/// Starts a thread with `pthread_create` and says whether it started, so that a pool can go on
/// with fewer threads when the system cannot give it another (`EAGAIN` under a memory or
/// thread limit). Foundation's `Thread.start()` drops that failure, and the pool would wait
/// forever for a thread that never ran.
public enum WorkerThread {
    /// Stack of every worker (bytes): Pango, librsvg and Cairo recurse, libimagequant and
    /// libwebp keep large arrays on the stack in places; the main thread's room.
    public static let stackBytes = 8 << 20

    /// Runs `body` on a new detached thread with a stack of ``stackBytes``.
    /// - Returns: false (and `body` never runs) when the thread cannot be created.
    @discardableResult
    public static func start(_ body: @escaping () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, &attributes, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box) == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        return true
    }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
