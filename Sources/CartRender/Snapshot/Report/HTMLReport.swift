import CartRenderCore
import Foundation

/// `index.html`: a self-contained page (inline CSS and JavaScript, no network) that shows the
/// frames that did not pass, the first one first: expected, actual and diff side by side, and a
/// slider that wipes from the expected frame to the actual one. A timeline of every frame marks
/// where in time the failures are, with a filmstrip of the failing frames under it. Images are
/// referenced by relative paths, so the directory can be uploaded or moved as a whole. Without
/// JavaScript every failing frame is shown one under the other.
enum HTMLReport {
    /// At most this many cells in the timeline; longer runs are grouped, a group taking the worst status.
    static let maxTimelineCells = 600

    static func html(for result: SnapshotResult) -> String {
        let shown = result.frames.filter(\.isReported)
        let failing = result.failures
        let verdict = result.passed ? "passed" : "FAILED"
        var h = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(esc("cartrender \(result.command.rawValue) \(verdict): \(result.subject)"))</title>
        <style>\(css)</style>
        </head>
        <body>
        <header>
        <h1>cartrender \(result.command.rawValue) <span class="verdict \(result.passed ? "pass" : "fail")">\(verdict)</span></h1>

        """
        let subjectLabel = result.command == .verify ? "scene" : "actual"
        let baselineLabel = result.command == .verify ? "baseline" : "expected"
        var meta = "\(subjectLabel) <code>\(esc(result.subject))</code> · \(baselineLabel) <code>\(esc(result.baseline))</code>"
        meta += " · threshold \(JSONValue.format(result.options.threshold, decimals: 6)) · allowed \(esc(result.allowance))"
        meta += result.options.includeAA ? " · anti-aliasing counted" : " · anti-aliasing ignored"
        if !result.options.masks.isEmpty { meta += " · \(result.options.masks.count) mask\(result.options.masks.count == 1 ? "" : "s")" }
        if let record = result.record { meta += " · record \(record.rawValue)" }
        h += "<p class=\"meta\">\(meta)</p>\n"
        var counts = ["\(result.frames.count) frames"]
        for status in FrameStatus.allCases {
            let n = result.count(status)
            if n > 0 || status == .pass || status == .fail { counts.append("<span class=\"n \(status.rawValue)\">\(n) \(label(status))</span>") }
        }
        if result.recordedCount > 0 { counts.append("<span class=\"n recorded\">\(result.recordedCount) recorded</span>") }
        h += "<p class=\"counts\">\(counts.joined(separator: " · "))</p>\n</header>\n"

        h += statePanel(result)
        h += timeline(result)
        if !shown.isEmpty { h += filmstrip(shown) }

        h += "<main>\n"
        if shown.isEmpty {
            let recorded = result.recordedCount
            h += recorded == 0 ? "<p class=\"allpass\">Every frame matches the baseline.</p>\n"
                : "<p class=\"allpass\">Every frame passed; \(recorded) baseline frame\(recorded == 1 ? " was" : "s were") recorded.</p>\n"
        }
        for (n, frame) in shown.enumerated() {
            h += section(frame, number: n + 1, of: shown.count, result: result, eager: n == 0)
        }
        h += "</main>\n"
        if !failing.isEmpty {
            h += "<footer>First failing frame: <a href=\"#\(anchor(failing[0]))\">\(esc(failing[0].name))</a>. Keys: ← → previous / next frame.</footer>\n"
        }
        h += "<script>\(script)</script>\n</body>\n</html>\n"
        return h
    }

    static func label(_ status: FrameStatus) -> String {
        status == .sizeMismatch ? "size mismatch" : status.rawValue
    }

    static func anchor(_ frame: FrameResult) -> String { String(frame.name.dropLast(4)) }

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
                let ra = a.status == .pass || a.recorded ? -1 : rank[a.status]!
                let rb = b.status == .pass || b.recorded ? -1 : rank[b.status]!
                return ra < rb
            }!
            let status = worst.passed ? (worst.recorded ? "recorded" : "pass") : worst.status.rawValue
            var title = group.count == 1 ? worst.name : "\(group.first!.name) – \(group.last!.name)"
            if let t = worst.time { title += " · \(JSONValue.format(t, decimals: 3)) s" }
            title += " · " + (worst.recorded ? "recorded" : label(worst.status))
            if worst.status != .pass {
                h += "<a class=\"cell \(status)\" href=\"#\(anchor(worst))\" data-frame=\"\(anchor(worst))\" title=\"\(esc(title))\"></a>"
            } else {
                h += "<span class=\"cell \(status)\" title=\"\(esc(title))\"></span>"
            }
        }
        h += "</div>\n<div class=\"axis\">"
        // Ticks at start, quarters and end, labeled with the frame's time when known.
        for q in 0...4 {
            let i = min(frames.count - 1, q * (frames.count - 1) / 4)
            let f = frames[i]
            let text = f.time.map { "\(JSONValue.format($0, decimals: 2)) s" } ?? f.name
            h += "<span style=\"left:\(JSONValue.format(Double(q) * 25, decimals: 2))%\">\(esc(text))</span>"
        }
        h += "</div>\n</nav>\n"
        return h
    }

    /// Thumbnails of the frames that did not pass, in time order.
    static func filmstrip(_ frames: [FrameResult]) -> String {
        var h = "<div class=\"filmstrip\" aria-label=\"Failing frames\">"
        for frame in frames {
            guard let thumb = frame.diffFile ?? frame.actualFile ?? frame.expectedFile else { continue }
            let time = frame.time.map { "\(JSONValue.format($0, decimals: 3)) s" } ?? ""
            h += "<a class=\"thumb \(frame.recorded ? "recorded" : frame.status.rawValue)\" href=\"#\(anchor(frame))\" data-frame=\"\(anchor(frame))\">"
            h += "<img src=\"\(esc(thumb))\" alt=\"\(esc(frame.name))\" loading=\"lazy\"><span>\(esc(frame.name.dropLast(4).dropFirst(6)))<br>\(esc(time))</span></a>"
        }
        return h + "</div>\n"
    }

    static func section(_ frame: FrameResult, number: Int, of total: Int, result: SnapshotResult, eager: Bool) -> String {
        let lazy = eager ? "" : " loading=\"lazy\""
        var h = "<section class=\"frame\" id=\"\(anchor(frame))\">\n"
        var title = "<h2><span class=\"status \(frame.recorded ? "recorded" : frame.status.rawValue)\">\(frame.recorded ? "recorded" : label(frame.status))</span> \(esc(frame.name))"
        if let t = frame.time { title += " <small>t = \(JSONValue.format(t, decimals: 3)) s</small>" }
        title += " <small class=\"pos\">\(number) of \(total)</small></h2>\n"
        h += title
        h += "<p class=\"why\">\(esc(result.explanation(of: frame)))</p>\n"
        h += "<div class=\"panels\">\n"
        func figure(_ caption: String, _ file: String?, _ cls: String) {
            guard let file else { return }
            h += "<figure class=\"\(cls)\"><figcaption>\(caption)</figcaption><a href=\"\(esc(file))\"><img src=\"\(esc(file))\" alt=\"\(caption) \(esc(frame.name))\"\(lazy)></a></figure>\n"
        }
        figure("Expected", frame.expectedFile, "expected")
        figure("Actual", frame.actualFile, "actual")
        figure("Diff", frame.diffFile, "diff")
        if let e = frame.expectedFile, let a = frame.actualFile, frame.status != .sizeMismatch {
            h += "<figure class=\"wipe\"><figcaption>Slider: expected ◀ ▶ actual</figcaption><div class=\"wipe-box\">"
            h += "<img src=\"\(esc(e))\" alt=\"expected\"\(lazy)><img class=\"over\" src=\"\(esc(a))\" alt=\"actual\"\(lazy) style=\"clip-path: inset(0 0 0 50%)\"><div class=\"handle\" style=\"left:50%\"></div></div>"
            h += "<input type=\"range\" min=\"0\" max=\"100\" value=\"50\" aria-label=\"Wipe between expected and actual\"></figure>\n"
        }
        h += "</div>\n"
        if let panel = frame.panelFile {
            h += "<p class=\"why\"><a href=\"\(esc(panel))\">Expected | diff | actual in one image</a></p>\n"
        }
        h += "</section>\n"
        return h
    }

    static func esc<S: StringProtocol>(_ text: S) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    static let css = """
    :root{--pass:#34c759;--fail:#ff3b30;--missing:#ff9500;--extra:#af52de;--sizeMismatch:#5856d6;--recorded:#8e8e93;--bg:#f2f2f7;--card:#fff;--ink:#1c1c1e;--mute:#6e6e73}
    *{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Inter",sans-serif;background:var(--bg);color:var(--ink)}
    header,nav,.filmstrip,main,footer{padding:0 20px}header{padding-top:14px}
    h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:0 0 4px}code{font:12px ui-monospace,monospace;background:#e5e5ea;padding:1px 4px;border-radius:4px}
    .meta,.counts,.why,footer{color:var(--mute);margin:2px 0}
    .verdict{font-size:13px;padding:2px 8px;border-radius:10px;color:#fff;vertical-align:middle}.verdict.pass{background:var(--pass)}.verdict.fail{background:var(--fail)}
    .n.fail{color:var(--fail);font-weight:600}.n.missing{color:var(--missing);font-weight:600}.n.extra{color:var(--extra);font-weight:600}.n.sizeMismatch{color:var(--sizeMismatch);font-weight:600}
    .timeline{margin:10px 0 0}.strip{display:flex;height:22px;border-radius:5px;overflow:hidden;background:#d1d1d6}
    .cell{flex:1 1 0;min-width:1px}.cell.pass{background:var(--pass);opacity:.35}.cell.recorded{background:var(--recorded)}
    .cell.fail{background:var(--fail)}.cell.missing{background:var(--missing)}.cell.extra{background:var(--extra)}.cell.sizeMismatch{background:var(--sizeMismatch)}
    a.cell:hover,a.cell.current{outline:2px solid var(--ink);outline-offset:-2px}
    .axis{position:relative;height:18px;font-size:11px;color:var(--mute)}.axis span{position:absolute;transform:translateX(-50%);white-space:nowrap}.axis span:first-child{transform:none}.axis span:last-child{transform:translateX(-100%)}
    .filmstrip{display:flex;gap:8px;overflow-x:auto;padding-top:6px;padding-bottom:8px}
    .thumb{flex:0 0 auto;text-align:center;font-size:11px;color:var(--mute);text-decoration:none;border:2px solid transparent;border-radius:6px;padding:2px;background:var(--card)}
    .thumb img{display:block;height:96px;width:auto;border-radius:3px}.thumb.current{border-color:var(--fail)}
    .thumb.fail{box-shadow:inset 0 -3px var(--fail)}.thumb.missing{box-shadow:inset 0 -3px var(--missing)}.thumb.extra{box-shadow:inset 0 -3px var(--extra)}.thumb.sizeMismatch{box-shadow:inset 0 -3px var(--sizeMismatch)}
    main{padding-bottom:20px}.frame{background:var(--card);border-radius:10px;padding:12px 14px;margin:10px 0}
    .js .frame:not(.current){display:none}
    .status{font-size:12px;color:#fff;padding:1px 7px;border-radius:9px;vertical-align:middle}
    .status.fail{background:var(--fail)}.status.missing{background:var(--missing)}.status.extra{background:var(--extra)}.status.sizeMismatch{background:var(--sizeMismatch)}.status.recorded{background:var(--recorded)}
    small{color:var(--mute);font-weight:400}.pos{float:right}
    .panels{display:flex;gap:14px;align-items:flex-start;margin-top:8px;overflow-x:auto}
    figure{margin:0;flex:0 1 auto;min-width:0}figcaption{font-size:12px;font-weight:600;color:var(--mute);margin-bottom:3px}
    figure img{display:block;width:auto;max-width:100%;height:auto;max-height:max(360px,calc(100vh - 430px));border:1px solid #d1d1d6;background:repeating-conic-gradient(#e5e5ea 0 25%,#fff 0 50%) 0 0/16px 16px}
    .diff img{image-rendering:pixelated}
    .wipe-box{position:relative;display:inline-block;vertical-align:top}.wipe-box img.over{position:absolute;left:0;top:0;width:100%;height:100%}
    .handle{position:absolute;top:0;bottom:0;width:2px;background:var(--fail);pointer-events:none}
    .wipe input{display:block;width:100%;margin:6px 0 0}
    .allpass{font-size:16px;color:var(--pass);font-weight:600}
    """

    static let script = """
    (function(){
      var sections=[].slice.call(document.querySelectorAll('section.frame'));
      if(!sections.length)return;
      document.body.classList.add('js');
      var links=[].slice.call(document.querySelectorAll('[data-frame]'));
      function show(id){
        var s=sections.filter(function(x){return x.id===id})[0]||sections[0];
        sections.forEach(function(x){x.classList.toggle('current',x===s)});
        links.forEach(function(a){a.classList.toggle('current',a.getAttribute('data-frame')===s.id)});
        var t=document.querySelector('.thumb.current');if(t&&t.scrollIntoView)t.scrollIntoView({block:'nearest',inline:'nearest'});
        return s;
      }
      function step(d){
        var i=sections.indexOf(document.querySelector('section.frame.current'));
        var s=sections[Math.min(sections.length-1,Math.max(0,i+d))];
        history.replaceState(null,'','#'+s.id);show(s.id);
      }
      window.addEventListener('hashchange',function(){show(location.hash.slice(1))});
      document.addEventListener('keydown',function(e){
        if(e.target&&e.target.tagName==='INPUT')return;
        if(e.key==='ArrowRight'){step(1);e.preventDefault()}else if(e.key==='ArrowLeft'){step(-1);e.preventDefault()}
      });
      [].slice.call(document.querySelectorAll('.wipe')).forEach(function(f){
        var r=f.querySelector('input'),o=f.querySelector('img.over'),h=f.querySelector('.handle');
        r.addEventListener('input',function(){o.style.clipPath='inset(0 0 0 '+r.value+'%)';h.style.left=r.value+'%'});
      });
      show(location.hash.slice(1));
    })();
    """
}
