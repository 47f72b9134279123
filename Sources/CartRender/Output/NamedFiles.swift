import CartRenderCore
import CartRenderRaster
import Foundation

/// The files one run writes to names the user gave (`-o docs/fly.gif`, `--manifest PATH`, the
/// light and dark pair of `--color-scheme light,dark`, `--picture-html FILE`, one file per
/// variant), as one transaction:
///
/// - **Checked before anything is drawn** (``init(_:inputs:)``): each name is absent or a
///   regular file (not a link, a directory, a FIFO or a device: ``OutputFile/checkReplaceable(_:)``),
///   its folder is a directory or can be made, no two names are one file, and none is a file
///   the run reads (`--manifest scene.json`).
/// - **Staged privately**: every file is written into a staging directory of its folder
///   (``StagingArea``: `.cartrender-staging-…`, mode 0700, locked while the run lives), never
///   under a predictable name beside the user's files; a killed run's staging directory is
///   removed by the next command that writes that folder.
/// - **Replaced together** (``commit(cancellation:)``): each folder's plan is written as a
///   journal first, then every earlier file is set aside and every new one moved in; when a
///   rename fails, every folder is put back as it was. Over several folders the journals are
///   one transaction (``CommitJournal/Group``): the first folder's journal lists the others'
///   staging directories, and its staging directory receives the decision once every rename of
///   every folder is done. A run killed while moving leaves the journals, and the next command
///   that writes any one of the folders rolls every folder forward (decided) or back (not).
///
/// Used by one thread at a time (the command that renders; the render's workers never see it).
package final class NamedFiles: @unchecked Sendable {
    /// The names, as given, in the order they are moved in.
    let paths: [String]
    /// Staging areas by folder (as `OutputFile.split` gives it).
    private var areas: [String: StagingArea] = [:]
    private var areaOrder: [String] = []
    /// The names whose files are staged.
    private var staged = Set<String>()

    /// Checks every name (see the type's documentation).
    /// - Parameter inputs: files the run reads (the scene): none may be written.
    /// - Throws: ``UsageError`` (64) when two names are one file; ``OutputError`` (73) naming
    ///   the first name that cannot be written as the type's documentation says.
    package init(_ paths: [String], inputs: [String]) throws {
        self.paths = paths
        var seen: [String: String] = [:]
        for path in paths {
            let absolute = FileSystemPath.absolute(path)
            if let other = seen[absolute] { throw UsageError("\(path) is named twice as an output (as \(other) too): give each file its own name") }
            seen[absolute] = path
        }
        for path in paths {
            try OutputFile.checkReplaceable(path)
            try Self.checkFolder(of: path)
            var out = stat()
            for input in inputs {
                var info = stat()
                let same = FileSystemPath.absolute(input) == FileSystemPath.absolute(path)
                    || (FileSystemPath.lstat(path, &out) == 0 && FileSystemPath.stat(input, &info) == 0 && info.st_dev == out.st_dev && info.st_ino == out.st_ino)
                if same {
                    throw OutputError(path: path, reason: "is \(input), which this run reads; cartrender never writes over its input: name another file")
                }
            }
        }
    }

    /// Refuses a name whose folder cannot be made: a component of it that exists and is not
    /// a directory (`notadir/fly.json`).
    private static func checkFolder(of path: String) throws {
        var dir = OutputFile.split(path).directory
        while true {
            var info = stat()
            if FileSystemPath.stat(dir, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw OutputError(path: path, reason: "cannot be written: \(dir) is not a directory")
                }
                return
            }
            let parent = OutputDirectory.parent(of: dir)
            if parent.isEmpty || parent == dir { return }
            dir = parent
        }
    }

    /// The staging area of `path`'s folder (made, with the folder, on first use, after
    /// repairing what a killed run left there).
    /// - Throws: `OutputError` (73); `RenderCancelled` while waiting for a lock to repair.
    func area(for path: String, cancellation: RenderCancellation?) throws -> StagingArea {
        let dir = OutputFile.split(path).directory
        if let area = areas[dir] { return area }
        let out = try OutputDirectory(path: dir)
        let area: StagingArea
        do {
            try StagingArea.recoverInterruptedCommits(in: dir, cancellation: cancellation)
            area = try StagingArea(in: out, cancellation: cancellation)
        } catch {
            out.removeCreatedDirectories()
            throw error
        }
        areas[dir] = area
        areaOrder.append(dir)
        return area
    }

    /// Stages `bytes` as the file of `path`.
    /// - Throws: `OutputError` (73).
    package func stage(_ bytes: [UInt8], as path: String, cancellation: RenderCancellation?) throws {
        precondition(paths.contains(path), "\(path) was not checked")
        try area(for: path, cancellation: cancellation).write(bytes, to: OutputFile.split(path).name)
        staged.insert(path)
    }

    /// Stages, as the file of `path`, the file `name` a render staged in `source` (moved within
    /// one folder, copied into another).
    /// - Throws: `OutputError` (73).
    func stage(_ name: String, from source: StagingArea, as path: String, cancellation: RenderCancellation?) throws {
        precondition(paths.contains(path), "\(path) was not checked")
        let target = try area(for: path, cancellation: cancellation)
        let newName = OutputFile.split(path).name
        if target === source {
            try source.renameStaged(name, to: newName)
        } else {
            let bytes: [UInt8]
            do { bytes = try source.staging.read(name, limit: Int.max) } catch {
                throw OutputError(path: path, reason: "cannot be written (\(error.reason()))")
            }
            try target.write(bytes, to: newName)
        }
        staged.insert(path)
    }

    /// The size in bytes of the file staged for `path` (0 when there is none).
    func stagedSize(of path: String) -> Int {
        let (dir, name) = OutputFile.split(path)
        return areas[dir]?.staging.info(name).map { Int($0.st_size) } ?? 0
    }

    /// Replaces every staged name together (see the type's documentation), then removes the
    /// staging directories.
    /// - Returns: the files written, with their sizes, in the order of ``paths``.
    /// - Throws: `OutputError` (73) naming the file that could not be replaced; every folder
    ///   is then as it was (or, when a file could not be put back, the error says where it is).
    @discardableResult
    package func commit(cancellation: RenderCancellation?) throws -> [WrittenFile] {
        try StagingArea.committing(cancellation) {
            var journals: [(StagingArea, CommitJournal)] = []
            // The first folder's staging directory decides a transaction over several.
            let coordinator = areaOrder.first.flatMap { areas[$0] }
            let members = areaOrder.dropFirst().map { areas[$0]!.absolutePath }
            for dir in areaOrder {
                let area = areas[dir]!
                let names = paths.filter { staged.contains($0) && OutputFile.split($0).directory == dir }.map { OutputFile.split($0).name }
                let group: CommitJournal.Group? = members.isEmpty ? nil
                    : area === coordinator ? .coordinator(members: members) : .member(coordinator: coordinator!.absolutePath)
                journals.append((area, try area.journalReplacing(names, group: group)))
            }
            /// Undoes the folders up to `last`, latest first, and says so at the end of `error`.
            func undone(_ error: OutputError, through last: Int) -> OutputError {
                var error = error
                let failed = journals[...last].reversed().flatMap { $0.0.undo($0.1) }
                error.reason += failed.isEmpty ? "; nothing was replaced"
                    : "; \(failed.count) file\(failed.count == 1 ? "" : "s") (\(failed.prefix(3).joined(separator: ", "))) could not be put back and stay in the staging directory beside it"
                return error
            }
            var step = 0
            for (k, (area, journal)) in journals.enumerated() {
                guard let error = area.perform(journal, step: &step) else { continue }
                throw undone(error, through: k)
            }
            if let coordinator, !members.isEmpty {
                do { try coordinator.decideCommitted() } catch let error as OutputError {
                    throw undone(error, through: journals.count - 1)
                }
                TestHooks.commitStep(step + 1)
            }
            let written = paths.filter(staged.contains).map { path -> WrittenFile in
                var info = stat()
                return WrittenFile(path: path, size: FileSystemPath.lstat(path, &info) == 0 ? Int(info.st_size) : 0)
            }
            discard()
            return written
        }
    }

    /// Removes every staging directory (and folders made for them) without replacing anything.
    package func discard() {
        for dir in areaOrder.reversed() { areas[dir]?.discard() }
        areas = [:]
        areaOrder = []
        staged = []
    }
}
