import CartRenderCore

extension HTMLReport {
    /// The panel of what the baseline's `manifest.json` tells: how the scene changed since the
    /// baseline was recorded (a table of member, baseline, now), the first frame whose state
    /// diverges (a table of path, expected, actual, linking to that frame when the report shows
    /// it), the events that moved, and the software that differs from the baseline's; or why
    /// states were not compared (styled by ``stateStyle``); empty when there is nothing to tell
    /// (a new baseline).
    /// Moved events the panel lists before "… and N more" (a scene of 10 000 taps that all
    /// moved would otherwise make a page of 10 000 lines).
    static let maxMovedEvents = 50

    /// The panel's style sheet, in the page's `<head>` (HTML allows `<style>` only there).
    /// Neutral colours: the panel says what happened; the verdict and the frames' statuses say
    /// whether that fails.
    static let stateStyle = "#state{margin:1em;padding:.5em 1em;border:1px solid #d1d1d6;border-radius:6px;background:#fff;color:#1c1c1e}"
        + "#state h2{font-size:1em;margin:.4em 0}#state table{border-collapse:collapse}"
        + "#state td,#state th{border:1px solid #ddd;padding:2px 8px;text-align:left;font:12px ui-monospace,monospace}"

    static func statePanel(_ result: SnapshotResult) -> String {
        guard result.command == .verify else { return "" }
        var body = ""
        if let scene = result.sceneChanges {
            body += "<h2>Scene changed since the baseline was recorded</h2>\n<table><thead><tr><th>member</th><th>baseline</th><th>now</th></tr></thead><tbody>\n"
            for c in scene.changes.prefix(maxMovedEvents) {
                body += "<tr><td><code>\(Escaping.html(c.path))</code></td><td>\(Escaping.html(c.expected?.serialized() ?? "none"))</td><td>\(Escaping.html(c.actual?.serialized() ?? "none"))</td></tr>\n"
            }
            body += "</tbody></table>\n"
            if scene.changes.count > maxMovedEvents {
                body += "<p>… and \(scene.changes.count - maxMovedEvents) more: every one is in report.json (\"sceneChanged\").</p>\n"
            }
            if let warning = result.sceneChangeWarning { body += "<p>\(Escaping.html(warning.prefix(1).uppercased() + warning.dropFirst())).</p>\n" }
        }
        if let f = result.stateDivergence {
            var title = "State diverges first at frame \(f.index.map(String.init) ?? Escaping.html(f.name))"
            if let t = f.time { title += " (t=\(JSONValue.format(t, decimals: 3)) s)" }
            if f.isReported { title = "<a href=\"#\(anchor(f))\">\(title)</a>" }
            if !f.stateCounts { title += " <small>(ignored: --ignore-state)</small>" }
            body += "<h2>\(title)</h2>\n<table><thead><tr><th>path</th><th>expected</th><th>actual</th></tr></thead><tbody>\n"
            for c in f.stateChanges ?? [] {
                body += "<tr><td><code>\(Escaping.html(c.path))</code></td><td>\(Escaping.html(c.expected?.serialized() ?? "none"))</td><td>\(Escaping.html(c.actual?.serialized() ?? "none"))</td></tr>\n"
            }
            body += "</tbody></table>\n"
            let n = result.frames.filter(\.stateDiffers).count
            body += "<p>\(n) frame\(n == 1 ? "'s state differs" : "s' states differ") from the baseline's manifest.json.</p>\n"
        } else if result.stateCompared {
            body += "<p>Every frame's state matches the baseline's manifest.</p>\n"
        } else if let why = result.warnings.first {
            body += "<p>\(Escaping.html(why)).</p>\n"
        }
        if !result.movedEvents.isEmpty {
            body += "<h2>Events that moved</h2>\n<ul>\n"
                + result.movedEvents.prefix(maxMovedEvents).map { "<li>\(Escaping.html($0.description))</li>\n" }.joined()
            if result.movedEvents.count > maxMovedEvents {
                body += "<li>… and \(result.movedEvents.count - maxMovedEvents) more: every one is in report.json (\"events\")</li>\n"
            }
            body += "</ul>\n"
        }
        if !result.softwareDifferences.isEmpty {
            body += "<h2>Provenance</h2>\n<ul>\n" + result.softwareDifferences.map { "<li>\(Escaping.html($0.message))</li>\n" }.joined() + "</ul>\n"
        }
        guard !body.isEmpty else { return "" }
        return "<section id=\"state\" aria-label=\"State and provenance\">\n\(body)</section>\n"
    }
}
