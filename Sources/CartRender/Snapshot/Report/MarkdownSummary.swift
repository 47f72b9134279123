import CartRenderCore
import Foundation

/// A short Markdown account of a `verify` run for CI job pages: GitHub Actions shows what is
/// appended to `$GITHUB_STEP_SUMMARY`; `--summary-markdown FILE` writes the same anywhere
/// (GitLab, Buildkite).
///
/// A heading with the verdict and the scene, one line of counts with links to the report's
/// `index.html`, `report.json` and `junit.xml`, then a table of the frames that did not pass
/// (at most ``maxRows``): frame, time (s), differing pixels, status, how its state diverges
/// from the baseline manifest's, and links to the frame's diff, expected and actual images; a
/// failing run's motion diff (``MotionDiff``) is linked above the table. The
/// first state divergence, events that moved and software that differs from the baseline's are
/// lines above the table. Links are the report paths as the console prints them
/// (relative to the working directory, or absolute), so they resolve in a checkout or in an
/// artifact that keeps those paths. Same result, same bytes.
public enum MarkdownSummary {
    /// Most failing frames listed in the table; the rest are counted below it.
    public static let maxRows = 50
    /// Most lines of notes (moved events, software) above the table; the rest are counted.
    public static let maxNotes = 20
    /// The most bytes a summary may have: GitHub refuses a step summary over 1 MiB.
    public static let maxBytes = 1 << 20
    /// Most variants whose own section follows the table of a matrix's summary.
    public static let maxVariantSections = 10

    /// `text`, or its first lines within `limit` bytes (UTF-8) and a last line saying it was cut.
    static func capped(_ text: String, limit: Int = maxBytes) -> String {
        guard text.utf8.count > limit else { return text }
        let tail = "\n… summary cut at \(limit / 1024) KiB: see the report.\n\n"
        var out = ""
        var used = tail.utf8.count
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let n = line.utf8.count + 1
            if used + n > limit { break }
            out += line + "\n"
            used += n
        }
        return out + tail
    }

    /// One section for a variant matrix: the verdict, a table with a row per variant (result,
    /// frames, failed, recorded, report link), then the sections of the failing variants (at
    /// most ``maxVariantSections``), each a level lower; within ``maxBytes`` in all.
    public static func markdown(forVariants results: [(name: String, result: SnapshotResult)], scene: String, reportDirectory: String?) -> String {
        let failed = results.filter { !$0.result.passedWithAudit }
        let ok = failed.isEmpty
        var s = "### \(ok ? "✅" : "❌") cartrender verify: \(ok ? "passed" : "FAILED") — \(code(scene)), \(results.count) variant\(results.count == 1 ? "" : "s")\n\n"
        s += "\(results.count - failed.count) of \(results.count) variants passed."
        if let dir = reportDirectory {
            s += " Report: " + [ReportWriter.htmlName, ReportWriter.junitName].map { link($0, (dir as NSString).appendingPathComponent($0)) }.joined(separator: " · ")
        }
        s += "\n\n| variant | result | frames | failed | recorded | report |\n| --- | --- | ---: | ---: | ---: | --- |\n"
        for (name, r) in results.prefix(maxRows * 4) {
            let report = r.reportIndex.map { link("index.html", $0) } ?? "—"
            s += "| \(code(name)) | \(r.passedWithAudit ? "✅ passed" : "❌ FAILED") | \(r.frames.count) | \(r.failures.count) | \(r.recordedCount) | \(report) |\n"
        }
        if results.count > maxRows * 4 { s += "\n… and \(results.count - maxRows * 4) more variants: see the report.\n" }
        s += "\n"
        for (name, r) in failed.prefix(maxVariantSections) {
            var section = markdown(for: r)
            if section.hasPrefix("### ") { section = "#### variant \(code(name)): " + section.dropFirst(4) }
            s += section
        }
        if failed.count > maxVariantSections { s += "… and \(failed.count - maxVariantSections) more failing variants: see the report.\n\n" }
        return capped(s)
    }

    /// The Markdown section for `result`, ending with a blank line so that sections appended
    /// one after another stay apart.
    /// - Parameter baselineMissing: the baseline directory did not exist and nothing was
    ///   recorded: the section says so instead of listing every frame as missing.
    public static func markdown(for result: SnapshotResult, baselineMissing: Bool = false) -> String {
        let n = result.frames.count
        var s = "### \(result.passed ? "✅" : "❌") cartrender \(result.command.rawValue): \(result.passed ? "passed" : "FAILED") — \(code(result.subject))\n\n"
        if baselineMissing {
            s += "There is no baseline directory \(code(result.baseline)): all \(n) frame\(n == 1 ? " is" : "s are") missing. "
            s += "Record it with `--record missing` (or `\(RecordMode.environmentVariable)=missing`) and commit it."
        } else if result.passed {
            let matched = result.count(.pass)
            s += "\(n) frame\(n == 1 ? "" : "s") checked against \(code(result.baseline)): \(matched) matched"
            s += " (\(result.frames.filter(\.byteEqual).count) byte-identical)"
            if result.recordedCount > 0 { s += ", \(result.recordedCount) recorded" }
            s += "."
        } else {
            var kinds: [String] = []
            for status in FrameStatus.allCases where status != .pass {
                let k = result.failures.filter { $0.status == status }.count
                if k > 0 { kinds.append("\(k) \(status.rawValue)") }
            }
            let states = result.failures.filter { $0.status == .pass }.count
            if states > 0 { kinds.append("\(states) state") }
            s += "\(result.failures.count) of \(n) frame\(n == 1 ? "" : "s") failed (\(kinds.joined(separator: ", "))) against \(code(result.baseline))"
            if result.recordedCount > 0 { s += "; \(result.recordedCount) recorded" }
            s += "."
        }
        if let dir = result.reportDirectory {
            let files = [ReportWriter.htmlName, ReportWriter.jsonName, ReportWriter.junitName]
            s += " Report: " + files.map { link($0, (dir as NSString).appendingPathComponent($0)) }.joined(separator: " · ")
        }
        s += "\n\n"
        if let diff = result.motionDiff, let dir = result.reportDirectory {
            s += "Motion diff of frames \(diff.frames.lowerBound)–\(diff.frames.upperBound) (expected · actual · differences, in the report): "
                + link(diff.file, (dir as NSString).appendingPathComponent(diff.file)) + "\n\n"
        }
        let mismatch = result.settingMismatchLine
        var notes = (mismatch.map { [$0, result.mismatchedFramesLine] } ?? [result.stateDivergenceLine, result.movedEventsLine].compactMap { $0 })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }
        if let note = result.recordingNote { notes.append(note.prefix(1).uppercased() + note.dropFirst()) }
        notes += result.softwareDifferences.map { "⚠️ " + $0.message.prefix(1).uppercased() + $0.message.dropFirst() }
        if notes.count > maxNotes { notes = Array(notes.prefix(maxNotes)) + ["… and \(notes.count - maxNotes) more notes: see the report"] }
        if !notes.isEmpty && !baselineMissing { s += notes.map { "- " + Escaping.markdown($0) + "\n" }.joined() + "\n" }
        let listed = mismatch != nil ? [] : result.failures.filter { $0.isReported || $0.stateDiffers }
        if !listed.isEmpty && !baselineMissing {
            s += "| frame | time | differing pixels | status | state divergence | images |\n| --- | ---: | ---: | --- | --- | --- |\n"
            for frame in listed.prefix(maxRows) {
                let time = frame.time.map { JSONValue.format($0, decimals: 3) + " s" } ?? "—"
                var pixels = "—"
                if let r = frame.result {
                    pixels = "\(r.differingPixels) (\(result.percentText(of: r)) %)"
                }
                var images: [String] = []
                if let dir = result.reportDirectory {
                    for (label, file) in [("diff", frame.diffFile), ("expected", frame.expectedFile), ("actual", frame.actualFile)] {
                        if let file { images.append(link(label, (dir as NSString).appendingPathComponent(file))) }
                    }
                }
                let status = frame.status == .pass && frame.stateDiffers ? "state" : frame.status.rawValue
                let state = frame.stateDiffers ? Escaping.markdown(SnapshotResult.describe(frame.stateChanges!)) : "—"
                s += "| \(code(frame.name)) | \(time) | \(pixels) | \(status) | \(state) | \(images.isEmpty ? "—" : images.joined(separator: " · ")) |\n"
            }
            if listed.count > maxRows { s += "\n… and \(listed.count - maxRows) more frames: see the report.\n" }
            s += "\n"
        }
        return capped(s)
    }

    /// `text` as inline code, safe in a table cell: `|` escaped, line breaks as spaces, and
    /// plain text when it holds a backtick.
    static func code(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
        if flat.contains("`") { return Escaping.markdown(flat) }
        return "`" + flat.replacingOccurrences(of: "|", with: "\\|") + "`"
    }

    /// `[label](path)`, the path's characters that would end or break the link percent-encoded
    /// (`Escaping.markdownLinkTarget`).
    static func link(_ label: String, _ path: String) -> String {
        "[\(Escaping.markdown(label))](\(Escaping.markdownLinkTarget(path)))"
    }

    /// Appends `text` to the file at `path` (created when missing), as GitHub Actions expects
    /// of `$GITHUB_STEP_SUMMARY`: all of it or nothing. When a write fails partway (a full disk,
    /// `EFBIG` past a file size limit), a regular file is cut back to the length it had before,
    /// so that the job summary does not end in half a section; a FIFO or device keeps what it took.
    /// - Throws: ``OutputError`` (exit 73) naming `path` when the file cannot be opened or written
    ///   (`cannot be written (File too large)`).
    package static func append(_ text: String, to path: String) throws {
        var fd: Int32
        repeat { fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw OutputError(path: path, reason: "cannot be opened to append the summary (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var info = stat()
        let earlierLength: off_t? = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? info.st_size : nil
        let e = FileSystemPath.writeAll(Array(text.utf8), to: fd)
        guard e != 0 else { return }
        if let earlierLength { _ = ftruncate(fd, earlierLength) }
        throw OutputError(path: path, reason: "cannot be written (\(String(cString: strerror(e))))")
    }
}
