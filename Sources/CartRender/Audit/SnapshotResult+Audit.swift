extension SnapshotResult {
    /// Whether every frame passed and the audit, when the run had one, found no issue: what
    /// `verify --audit` exits 0 on. (``passed`` and the report's `"passed"` are the frames'.)
    public var passedWithAudit: Bool { passed && audit?.passed != false }
}
