import CartRenderCore
import Foundation

/// `index.html`: a self-contained page (inline CSS and JavaScript, no network) over every frame
/// of the run, the frames that did not pass first.
///
/// - Each frame that did not pass has five views, chosen for all frames at once by the tabs or
///   the keys 1–5: side by side (expected, actual, diff, each captioned with its size in px),
///   slider (wipes from expected to actual), blend (actual over expected at the opacity of a
///   range input), toggle (a click on the image, or T, flips between expected and actual) and
///   diff only. Frames with one side only, or sides of different sizes, show side by side.
/// - Every frame is reachable: a timeline cell per frame (or group of frames) and a grid of
///   thumbnails of all frames link to the frame's section; a passing or recorded frame's section
///   shows its thumbnail in the report (``ReportThumbnail``), or, for a directory diff, the
///   expected frame by a path relative to the report (`expectedDirectory`). ← → step through the
///   frames that did not pass.
/// - The state panel (``statePanel(_:)``) sits under the counts.
///
/// Images are referenced by relative paths; a verify report's are all inside the report
/// directory, so it can be uploaded or moved alone. Without JavaScript every frame is shown one under the other,
/// side by side.
package enum HTMLReport {
    /// At most this many cells in the timeline; longer runs are grouped, a group taking the worst status.
    static let maxTimelineCells = 600

    /// The page for `result`.
    /// - Parameter expectedDirectory: the baseline directory (verify) or the expected directory
    ///   (diff) as a URL path relative to the report directory, ending in `/` (`../baseline/`),
    ///   for the images of frames that have none in the report; nil to show those frames without
    ///   an image.
    static func html(for result: SnapshotResult, expectedDirectory: String? = nil) -> String {
        let shown = result.frames.filter(\.isReported)
        let failing = result.failures
        let verdict = result.passed ? "passed" : "FAILED"
        var h = """
        <header>
        <h1>cartrender \(result.command.rawValue) <span class="verdict \(result.passed ? "pass" : "fail")">\(verdict)</span></h1>

        """
        let subjectLabel = result.command == .verify ? "scene" : "actual"
        let baselineLabel = result.command == .verify ? "baseline" : "expected"
        var meta = "\(subjectLabel) <code>\(Escaping.html(result.subject))</code> · \(baselineLabel) <code>\(Escaping.html(result.baseline))</code>"
        meta += " · threshold \(JSONValue.format(result.options.threshold, decimals: 6)) · allowed \(Escaping.html(result.allowance))"
        meta += result.options.includeAA ? " · anti-aliasing counted" : " · anti-aliasing ignored"
        if !result.options.masks.isEmpty { meta += " · \(result.options.masks.count) mask\(result.options.masks.count == 1 ? "" : "s")" }
        if let record = result.record { meta += " · record \(record.rawValue)" }
        if let line = result.settingMismatchLine { h += "<p class=\"mismatch\" role=\"alert\">\(Escaping.html(line.prefix(1).uppercased() + line.dropFirst()))</p>\n" }
        h += "<p class=\"meta\">\(meta)</p>\n"
        var counts = ["\(result.frames.count) frames"]
        // A frame whose pixels match but whose state differs from the baseline manifest's fails
        // as "state", not as a pass.
        let stateOnly = result.frames.filter { $0.status == .pass && !$0.passed }.count
        for status in FrameStatus.allCases {
            let n = result.count(status) - (status == .pass ? stateOnly : 0)
            // A count of 0 in a neutral colour: "0 fail" is no alarm.
            if n > 0 || status == .pass || status == .fail { counts.append("<span class=\"n\(n > 0 ? " " + status.rawValue : "")\">\(n) \(label(status))</span>") }
        }
        if stateOnly > 0 { counts.append("<span class=\"n state\">\(stateOnly) state</span>") }
        if result.recordedCount > 0 { counts.append("<span class=\"n recorded\">\(result.recordedCount) recorded</span>") }
        h += "<p class=\"counts\">\(counts.joined(separator: " · "))</p>\n"
        if let note = result.recordingNote { h += "<p class=\"recording\">\(Escaping.html(note.prefix(1).uppercased() + note.dropFirst()))</p>\n" }
        h += "</header>\n"

        h += statePanel(result)
        h += motionDiffSection(result)
        h += timeline(result)
        if !shown.isEmpty { h += filmstrip(shown) }
        h += allFrames(result, expectedDirectory: expectedDirectory, open: shown.isEmpty)

        h += "<main>\n"
        if shown.isEmpty {
            let recorded = result.recordedCount
            h += recorded == 0 ? "<p class=\"allpass\">Every frame matches the baseline.</p>\n"
                : "<p class=\"allpass\">Every frame passed; \(recorded) baseline frame\(recorded == 1 ? " was" : "s were") recorded.</p>\n"
        }
        for (n, frame) in shown.enumerated() {
            h += section(frame, number: n + 1, of: shown.count, result: result, eager: n == 0)
        }
        for frame in result.frames where !frame.isReported {
            h += passingSection(frame, expectedDirectory: expectedDirectory, result: result)
        }
        h += "</main>\n"
        if !failing.isEmpty {
            h += "<footer>First failing frame: <a href=\"#\(anchor(failing[0]))\">\(Escaping.html(failing[0].name))</a>. Keys: ← → previous / next frame that did not pass · 1–5 views · T flips the toggle view.</footer>\n"
        }
        h += "<script>\(script)</script>\n"
        return page(title: "cartrender \(result.command.rawValue) \(verdict): \(result.subject)", style: css + stateStyle + motionDiffStyle, body: h)
    }

    /// A whole HTML5 page, as every page cartrender writes begins and ends: doctype, English,
    /// UTF-8, a viewport for phones, `title` (plain text, escaped here), `style` (CSS) and
    /// `body` (HTML, ending in a newline).
    package static func page(title: String, style: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(Escaping.html(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        \(body)</body>
        </html>

        """
    }

    static func label(_ status: FrameStatus) -> String {
        status == .sizeMismatch ? "size mismatch" : status.rawValue
    }

    static func anchor(_ frame: FrameResult) -> String { String(frame.name.dropLast(4)) }

    /// The CSS class and label of a frame's status: `recorded`, `state` (pixels match, state
    /// differs from the baseline manifest's), or the ``FrameStatus``.
    static func shownStatus(_ frame: FrameResult) -> (css: String, label: String) {
        if frame.recorded { return ("recorded", "recorded") }
        if frame.status == .pass && !frame.passed { return ("state", "state") }
        return (frame.status.rawValue, label(frame.status))
    }

    /// One cell per frame (or group of frames), colored by status; failing cells link to their frame.
    static func timeline(_ result: SnapshotResult) -> String {
        let frames = result.frames
        guard !frames.isEmpty else { return "" }
        let cells = min(frames.count, maxTimelineCells)
        var h = "<nav class=\"timeline\" aria-label=\"Frames in time order\">\n<div class=\"strip\">"
        let rank: [FrameStatus: Int] = [.pass: 0, .extra: 1, .missing: 2, .sizeMismatch: 3, .fail: 4]
        for c in 0..<cells {
            let lo = c * frames.count / cells
            let hi = max(lo + 1, (c + 1) * frames.count / cells)
            let group = frames[lo..<hi]
            let worst = group.max { a, b in
                let ra = a.passed ? -1 : rank[a.status]!
                let rb = b.passed ? -1 : rank[b.status]!
                return ra < rb
            }!
            let status = worst.passed ? (worst.recorded ? "recorded" : "pass") : shownStatus(worst).css
            var title = group.count == 1 ? worst.name : "\(group.first!.name) – \(group.last!.name)"
            if let t = worst.time { title += " · \(JSONValue.format(t, decimals: 3)) s" }
            title += " · " + shownStatus(worst).label
            h += "<a class=\"cell \(status)\" href=\"#\(anchor(worst))\" data-frame=\"\(anchor(worst))\" title=\"\(Escaping.html(title))\"></a>"
        }
        h += "</div>\n<div class=\"axis\">"
        // Ticks at start, quarters and end, labeled with the frame's time when known.
        for q in 0...4 {
            let i = min(frames.count - 1, q * (frames.count - 1) / 4)
            let f = frames[i]
            let text = f.time.map { "\(JSONValue.format($0, decimals: 2)) s" } ?? f.name
            h += "<span style=\"left:\(JSONValue.format(Double(q) * 25, decimals: 2))%\">\(Escaping.html(text))</span>"
        }
        h += "</div>\n</nav>\n"
        return h
    }

    /// Thumbnails of the frames that did not pass, in time order.
    static func filmstrip(_ frames: [FrameResult]) -> String {
        var h = "<div class=\"filmstrip\" role=\"group\" aria-label=\"Failing frames\">"
        for frame in frames {
            guard let thumb = frame.thumbnailFile ?? frame.diffFile ?? frame.actualFile ?? frame.expectedFile else { continue }
            let time = frame.time.map { "\(JSONValue.format($0, decimals: 3)) s" } ?? ""
            h += "<a class=\"thumb \(shownStatus(frame).css)\" href=\"#\(anchor(frame))\" data-frame=\"\(anchor(frame))\">"
            h += "<img src=\"\(Escaping.html(thumb))\" alt=\"\(Escaping.html(frame.name))\" loading=\"lazy\"><span>\(Escaping.html(frame.name.dropLast(4).dropFirst(6)))<br>\(Escaping.html(time))</span></a>"
        }
        return h + "</div>\n"
    }

    /// The views a frame that did not pass has, in tab order: side by side always; slider,
    /// blend and toggle when both sides exist at one size; diff only when there is a diff image.
    static func views(of frame: FrameResult) -> [(id: String, label: String)] {
        var v = [(id: "side", label: "Side by side")]
        if frame.expectedFile != nil, frame.actualFile != nil, frame.status != .sizeMismatch {
            v += [(id: "slider", label: "Slider"), (id: "blend", label: "Blend"), (id: "toggle", label: "Toggle")]
        }
        if frame.diffFile != nil { v.append((id: "diff", label: "Diff only")) }
        return v
    }

    /// ` · 393×852 px`, or nothing when the size is unknown.
    static func size(_ s: PixelSize?) -> String { s.map { " · \($0.width)×\($0.height) px" } ?? "" }

    static func section(_ frame: FrameResult, number: Int, of total: Int, result: SnapshotResult, eager: Bool) -> String {
        let lazy = eager ? "" : " loading=\"lazy\""
        var h = "<section class=\"frame\" id=\"\(anchor(frame))\">\n"
        var title = "<h2><span class=\"status \(shownStatus(frame).css)\">\(shownStatus(frame).label)</span> \(Escaping.html(frame.name))"
        if let t = frame.time { title += " <small>t = \(JSONValue.format(t, decimals: 3)) s</small>" }
        title += " <small class=\"pos\">\(number) of \(total)</small></h2>\n"
        h += title
        h += "<p class=\"why\">\(Escaping.html(result.explanation(of: frame)))</p>\n"
        let views = views(of: frame)
        h += "<div class=\"views\" data-view=\"side\" data-views=\"\(views.map(\.id).joined(separator: " "))\">\n"
        if views.count > 1 {
            h += "<div class=\"tabs\" role=\"group\" aria-label=\"View\">"
            for (n, v) in views.enumerated() {
                h += "<button type=\"button\" data-view=\"\(v.id)\" aria-pressed=\"\(n == 0)\">\(v.label)</button>"
            }
            h += "</div>\n"
        }
        // Fit (the default: each image within the page) or 1:1 (device pixels, panned by scrolling).
        h += "<button type=\"button\" class=\"zoom\" aria-pressed=\"false\" title=\"Fit the page, or show the images pixel for pixel (scroll to pan)\">1:1</button>\n"
        h += "<div class=\"view side\"><div class=\"panels\">\n"
        func figure(_ caption: String, _ file: String?, _ cls: String, _ size: PixelSize?) {
            guard let file else { return }
            h += "<figure class=\"\(cls)\"><figcaption>\(caption)\(Self.size(size))</figcaption><a href=\"\(Escaping.html(file))\"><img src=\"\(Escaping.html(file))\" alt=\"\(caption) \(Escaping.html(frame.name))\"\(lazy)></a></figure>\n"
        }
        figure("Expected", frame.expectedFile, "expected", frame.expectedSize)
        figure("Actual", frame.actualFile, "actual", frame.actualSize)
        figure("Diff", frame.diffFile, "diff", frame.actualSize)
        h += "</div></div>\n"
        if let e = frame.expectedFile.map(Escaping.html), let a = frame.actualFile.map(Escaping.html), views.contains(where: { $0.id == "slider" }) {
            let sized = size(frame.actualSize)
            h += "<figure class=\"view slider wipe\"><figcaption>Slider: expected ◀ ▶ actual\(sized)</figcaption><div class=\"stack\">"
            h += "<img src=\"\(e)\" alt=\"expected\"\(lazy)><img class=\"over\" src=\"\(a)\" alt=\"actual\"\(lazy) style=\"clip-path: inset(0 0 0 50%)\"><div class=\"handle\" style=\"left:50%\"></div></div>"
            h += "<input type=\"range\" min=\"0\" max=\"100\" value=\"50\" aria-label=\"Wipe between expected and actual\"></figure>\n"
            h += "<figure class=\"view blend\"><figcaption>Blend: actual over expected at <output>50</output> % opacity\(sized)</figcaption><div class=\"stack\">"
            h += "<img src=\"\(e)\" alt=\"expected\"\(lazy)><img class=\"over\" src=\"\(a)\" alt=\"actual\"\(lazy) style=\"opacity:0.5\"></div>"
            h += "<input type=\"range\" min=\"0\" max=\"100\" value=\"50\" aria-label=\"Opacity of the actual frame\"></figure>\n"
            h += "<figure class=\"view toggle\"><figcaption>Toggle: showing <b class=\"side-shown\">expected</b> (click the image or press T)\(sized)</figcaption>"
            h += "<div class=\"stack flip\" role=\"button\" tabindex=\"0\" aria-label=\"Flip between expected and actual\">"
            h += "<img src=\"\(e)\" alt=\"expected\"\(lazy)><img class=\"over\" src=\"\(a)\" alt=\"actual\"\(lazy) hidden></div></figure>\n"
        }
        if let d = frame.diffFile.map(Escaping.html) {
            h += "<figure class=\"view diff\"><figcaption>Diff: red differs, yellow anti-aliasing\(size(frame.actualSize))</figcaption><a href=\"\(d)\"><img src=\"\(d)\" alt=\"diff \(Escaping.html(frame.name))\"\(lazy)></a></figure>\n"
        }
        h += "</div>\n"
        h += "</section>\n"
        return h
    }

    /// The image of a frame in the expected directory, when the report has one.
    static func expectedImage(_ frame: FrameResult, in directory: String?) -> String? {
        directory.map { $0 + (frame.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? frame.name) }
    }

    /// The section of a frame whose pixels match (passed, recorded, or failing on its state alone): the baseline frame, its size and why.
    static func passingSection(_ frame: FrameResult, expectedDirectory: String?, result: SnapshotResult) -> String {
        let status = frame.passed ? (frame.recorded ? "recorded" : "pass") : shownStatus(frame).css
        var h = "<section class=\"frame \(status)\" id=\"\(anchor(frame))\">\n"
        h += "<h2><span class=\"status \(status)\">\(status)</span> \(Escaping.html(frame.name))"
        if let t = frame.time { h += " <small>t = \(JSONValue.format(t, decimals: 3)) s</small>" }
        h += "</h2>\n"
        let why = frame.recorded ? "recorded into the baseline by this run" : result.explanation(of: frame) + (frame.byteEqual ? " (byte-identical)" : "")
        h += "<p class=\"why\">\(Escaping.html(why))</p>\n"
        if let src = (frame.thumbnailFile ?? frame.actualFile ?? expectedImage(frame, in: expectedDirectory)).map(Escaping.html) {
            let caption = frame.recorded ? "Baseline, as recorded" : "Baseline (the actual frame matches it)"
            h += "<div class=\"panels\"><figure class=\"expected\"><figcaption>\(caption)\(size(frame.actualSize ?? frame.expectedSize))</figcaption>"
            h += "<a href=\"\(src)\"><img src=\"\(src)\" alt=\"baseline \(Escaping.html(frame.name))\" loading=\"lazy\"></a></figure></div>\n"
        }
        return h + "</section>\n"
    }

    /// Thumbnails of every frame in frame order, each linking to its section; open when every frame passed.
    static func allFrames(_ result: SnapshotResult, expectedDirectory: String?, open: Bool) -> String {
        guard !result.frames.isEmpty else { return "" }
        var h = "<details class=\"allframes\"\(open ? " open" : "")><summary>All \(result.frames.count) frames</summary><div class=\"grid\">"
        for frame in result.frames {
            let status = shownStatus(frame).css
            let thumb = frame.thumbnailFile ?? (frame.isReported ? (frame.diffFile ?? frame.actualFile ?? frame.expectedFile) : (frame.actualFile ?? expectedImage(frame, in: expectedDirectory)))
            let time = frame.time.map { "\(JSONValue.format($0, decimals: 3)) s" } ?? ""
            h += "<a class=\"thumb \(status)\" href=\"#\(anchor(frame))\" data-frame=\"\(anchor(frame))\" title=\"\(Escaping.html(frame.name)) · \(frame.recorded ? "recorded" : label(frame.status))\">"
            if let thumb { h += "<img src=\"\(Escaping.html(thumb))\" alt=\"\(Escaping.html(frame.name))\" loading=\"lazy\">" }
            h += "<span>\(Escaping.html(frame.name.dropLast(4).dropFirst(6)))<br>\(Escaping.html(time))</span></a>"
        }
        return h + "</div></details>\n"
    }

    /// `target` as a URL path relative to the directory `base`, ending in `/` (`../baseline/`),
    /// both resolved against the working directory and through symbolic links; each component
    /// percent-encoded.
    package static func relativeDirectory(from base: String, to target: String) -> String {
        func components(_ path: String) -> [String] {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().pathComponents.filter { $0 != "/" }
        }
        let b = components(base), t = components(target)
        var common = 0
        while common < b.count, common < t.count, b[common] == t[common] { common += 1 }
        let up = Array(repeating: "..", count: b.count - common)
        let down = t[common...].map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0 }
        return (up + down).map { $0 + "/" }.joined()
    }

    static let css = """
    :root{--pass:#34c759;--fail:#ff3b30;--missing:#ff9500;--extra:#af52de;--sizeMismatch:#5856d6;--state:#ff2d55;--recorded:#8e8e93;--bg:#f2f2f7;--card:#fff;--ink:#1c1c1e;--mute:#6e6e73}
    *{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Inter",sans-serif;background:var(--bg);color:var(--ink)}
    header,nav,.filmstrip,main,footer{padding:0 20px}header{padding-top:14px}
    h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:0 0 4px}code{font:12px ui-monospace,monospace;background:#e5e5ea;padding:1px 4px;border-radius:4px}
    .meta,.counts,.why,footer{color:var(--mute);margin:2px 0}.mismatch{background:var(--fail);color:#fff;padding:6px 10px;border-radius:8px;margin:6px 0;overflow-wrap:anywhere}
    .verdict{font-size:13px;padding:2px 8px;border-radius:10px;color:#fff;vertical-align:middle}.verdict.pass{background:var(--pass)}.verdict.fail{background:var(--fail)}
    .n.fail{color:var(--fail);font-weight:600}.n.missing{color:var(--missing);font-weight:600}.n.extra{color:var(--extra);font-weight:600}.n.sizeMismatch{color:var(--sizeMismatch);font-weight:600}.n.state{color:var(--state);font-weight:600}
    .timeline{margin:10px 0 0}.strip{display:flex;height:22px;border-radius:5px;overflow:hidden;background:#d1d1d6}
    .cell{flex:1 1 0;min-width:1px}.cell.pass{background:var(--pass);opacity:.35}.cell.recorded{background:var(--recorded)}
    .cell.fail{background:var(--fail)}.cell.missing{background:var(--missing)}.cell.extra{background:var(--extra)}.cell.sizeMismatch{background:var(--sizeMismatch)}.cell.state{background:var(--state)}
    a.cell:hover,a.cell.current{outline:2px solid var(--ink);outline-offset:-2px}
    .axis{position:relative;height:18px;font-size:11px;color:var(--mute)}.axis span{position:absolute;transform:translateX(-50%);white-space:nowrap}.axis span:first-child{transform:none}.axis span:last-child{transform:translateX(-100%)}
    .filmstrip{display:flex;gap:8px;overflow-x:auto;padding-top:6px;padding-bottom:8px}
    .thumb{flex:0 0 auto;text-align:center;font-size:11px;color:var(--mute);text-decoration:none;border:2px solid transparent;border-radius:6px;padding:2px;background:var(--card)}
    .thumb img{display:block;height:96px;width:auto;border-radius:3px}.thumb.current{border-color:var(--fail)}
    .thumb.fail{box-shadow:inset 0 -3px var(--fail)}.thumb.missing{box-shadow:inset 0 -3px var(--missing)}.thumb.extra{box-shadow:inset 0 -3px var(--extra)}.thumb.sizeMismatch{box-shadow:inset 0 -3px var(--sizeMismatch)}.thumb.state{box-shadow:inset 0 -3px var(--state)}
    main{padding-bottom:20px}.frame{background:var(--card);border-radius:10px;padding:12px 14px;margin:10px 0}
    .js .frame:not(.current){display:none}
    .status{font-size:12px;color:#fff;padding:1px 7px;border-radius:9px;vertical-align:middle}
    .status.fail{background:var(--fail)}.status.missing{background:var(--missing)}.status.extra{background:var(--extra)}.status.sizeMismatch{background:var(--sizeMismatch)}.status.state{background:var(--state)}.status.recorded{background:var(--recorded)}
    small{color:var(--mute);font-weight:400}.pos{float:right}
    .panels{display:flex;gap:14px;align-items:flex-start;margin-top:8px;overflow-x:auto}
    figure{margin:0;flex:0 1 auto;min-width:0}figcaption{font-size:12px;font-weight:600;color:var(--mute);margin-bottom:3px}
    figure img{display:block;width:auto;max-width:100%;height:auto;max-height:max(360px,calc(100vh - 430px));border:1px solid #d1d1d6;background:repeating-conic-gradient(#e5e5ea 0 25%,#fff 0 50%) 0 0/16px 16px}
    .diff img{image-rendering:pixelated}
    .stack{position:relative;display:inline-block;vertical-align:top}.stack img.over{position:absolute;left:0;top:0;width:100%;height:100%}
    .flip{cursor:pointer}[hidden]{display:none!important}
    .handle{position:absolute;top:0;bottom:0;width:2px;background:var(--fail);pointer-events:none}
    .view input{display:block;width:100%;margin:6px 0 0}
    .views .view{display:none}.views[data-view=side] .view.side,.views[data-view=slider] .view.slider,.views[data-view=blend] .view.blend,.views[data-view=toggle] .view.toggle,.views[data-view=diff] .view.diff{display:block}
    .tabs{display:inline-flex;flex-wrap:wrap;gap:4px;margin:8px 4px 4px 0;vertical-align:middle}.tabs button{font:inherit;font-size:12px;padding:2px 10px;border:1px solid #d1d1d6;border-radius:6px;background:var(--card);cursor:pointer}
    .tabs button[aria-pressed=true]{background:var(--ink);color:#fff;border-color:var(--ink)}
    .allframes{padding:0 20px;margin:4px 0}.allframes summary{cursor:pointer;color:var(--mute);font-weight:600}
    .allframes .grid{display:flex;flex-wrap:wrap;gap:6px;padding:6px 0;max-height:260px;overflow:auto}.allframes .thumb img{height:64px}
    .thumb.pass{opacity:.8}.thumb.recorded{box-shadow:inset 0 -3px var(--recorded)}.status.pass{background:var(--pass)}
    .state-divergence{background:#fff4e5;border-left:4px solid var(--missing);border-radius:6px;padding:6px 10px;margin:6px 0;overflow-x:auto}
    .allpass{font-size:16px;color:var(--pass);font-weight:600}
    .zoom{font:inherit;font-size:12px;padding:2px 10px;border:1px solid #d1d1d6;border-radius:6px;background:var(--card);color:var(--ink);cursor:pointer}
    .zoom[aria-pressed=true]{background:var(--ink);color:var(--card)}
    .views.actual .view{overflow:auto;max-height:85vh;-webkit-overflow-scrolling:touch}.views.actual .panels{overflow:visible}
    .views.actual figure img{max-width:none;max-height:none;width:auto;height:auto}.views.actual .stack img.over{width:100%;height:100%}
    :root{color-scheme:light dark}
    @media (prefers-color-scheme:dark){:root{--bg:#000;--card:#1c1c1e;--ink:#f2f2f7;--mute:#98989f}
    code{background:#2c2c2e}.strip{background:#3a3a3c}.state-divergence{background:#3a2a10}figure img,.tabs button,.zoom{border-color:#3a3a3c}
    .tabs button{color:var(--ink)}.tabs button[aria-pressed=true]{color:var(--card)}
    :root #state{background:#2a2410;color:var(--ink);border-color:#6b5a1a}:root #state td,:root #state th{border-color:#3a3a3c}}
    @media (max-width:520px){header,nav,.filmstrip,main,footer,.allframes{padding-left:10px;padding-right:10px}.frame{padding:10px}
    .panels{flex-direction:column}.pos{float:none;display:block}.tabs{flex-wrap:wrap}h1{font-size:18px}.meta{overflow-wrap:anywhere}}
    """

    static let script = """
    (function(){
      var sections=[].slice.call(document.querySelectorAll('section.frame'));
      if(!sections.length)return;
      document.body.classList.add('js');
      var reported=sections.filter(function(x){return !x.classList.contains('pass')&&!x.classList.contains('recorded')});
      var links=[].slice.call(document.querySelectorAll('[data-frame]'));
      var number=function(s){return Number(s.id.replace(/[^0-9]/g,''))};
      function show(id){
        var s=sections.filter(function(x){return x.id===id})[0]||reported[0];
        sections.forEach(function(x){x.classList.toggle('current',x===s)});
        if(!s)return null;
        links.forEach(function(a){a.classList.toggle('current',a.getAttribute('data-frame')===s.id)});
        var t=document.querySelector('.filmstrip .thumb.current');if(t&&t.scrollIntoView)t.scrollIntoView({block:'nearest',inline:'nearest'});
        return s;
      }
      function step(d){
        var cur=document.querySelector('section.frame.current');
        if(!reported.length)return;
        var n=cur?number(cur):-1, s;
        var after=reported.filter(function(x){return d>0?number(x)>n:number(x)<n});
        s=after.length?(d>0?after[0]:after[after.length-1]):(cur&&reported.indexOf(cur)>=0?cur:reported[d>0?reported.length-1:0]);
        history.replaceState(null,'','#'+s.id);show(s.id);
      }
      var views=[].slice.call(document.querySelectorAll('.views'));
      function setView(v){
        views.forEach(function(el){
          var has=el.getAttribute('data-views').split(' ').indexOf(v)>=0;
          el.setAttribute('data-view',has?v:'side');
          [].slice.call(el.querySelectorAll('.tabs button')).forEach(function(b){b.setAttribute('aria-pressed',String(b.getAttribute('data-view')===el.getAttribute('data-view')))});
        });
      }
      views.forEach(function(el){[].slice.call(el.querySelectorAll('.tabs button')).forEach(function(b){
        b.addEventListener('click',function(){setView(b.getAttribute('data-view'))});
      })});
      function flip(box){
        var over=box.querySelector('img.over');over.hidden=!over.hidden;
        box.parentNode.querySelector('.side-shown').textContent=over.hidden?'expected':'actual';
      }
      [].slice.call(document.querySelectorAll('.flip')).forEach(function(box){box.addEventListener('click',function(){flip(box)})});
      [].slice.call(document.querySelectorAll('button.zoom')).forEach(function(b){b.addEventListener('click',function(){
        var v=b.nextElementSibling&&b.parentNode,on=b.getAttribute('aria-pressed')!=='true';
        b.setAttribute('aria-pressed',String(on));v.classList.toggle('actual',on);
      })});
      window.addEventListener('hashchange',function(){show(location.hash.slice(1))});
      document.addEventListener('keydown',function(e){
        if(e.target&&e.target.tagName==='INPUT')return;
        var order=['side','slider','blend','toggle','diff'];
        if(e.key==='ArrowRight'){step(1);e.preventDefault()}else if(e.key==='ArrowLeft'){step(-1);e.preventDefault()}
        else if(/^[1-5]$/.test(e.key)){setView(order[Number(e.key)-1])}
        else if(e.key==='t'||e.key==='T'){var c=document.querySelector('section.frame.current .views[data-view=toggle] .flip');if(c)flip(c)}
      });
      [].slice.call(document.querySelectorAll('.wipe')).forEach(function(f){
        var r=f.querySelector('input'),o=f.querySelector('img.over'),h=f.querySelector('.handle');
        r.addEventListener('input',function(){o.style.clipPath='inset(0 0 0 '+r.value+'%)';h.style.left=r.value+'%'});
      });
      [].slice.call(document.querySelectorAll('.view.blend')).forEach(function(f){
        var r=f.querySelector('input'),o=f.querySelector('img.over'),out=f.querySelector('output');
        r.addEventListener('input',function(){o.style.opacity=String(r.value/100);out.textContent=r.value});
      });
      show(location.hash.slice(1));
    })();
    """
}
