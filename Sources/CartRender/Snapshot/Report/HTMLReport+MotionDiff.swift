import CartRenderCore

extension HTMLReport {
    /// The motion diff's style sheet, in the page's `<head>`: the animation at its own size, no
    /// wider than the page.
    static let motionDiffStyle = "#motion-diff{margin:1em}#motion-diff h2{display:inline;font-size:1em;font-weight:normal;margin:0}#motion-diff summary{cursor:pointer;margin:.4em 0}"
        + "#motion-diff img{max-width:100%;max-height:60vh;width:auto;height:auto;border:1px solid #ddd;background:#fff}"
        + "#motion-diff figure{margin:0}#motion-diff figcaption{font-size:.9em;margin:.3em 0}"

    /// The section showing the motion diff (``MotionDiff``) of a failing verify, above the
    /// timeline: one line that opens (a `<details>` element) on the animation, linked to its
    /// file, with what it shows; empty without one. Closed at first, so the page opens on the
    /// counts, the state panel and the timeline, and a still picture of the page (docs/report.png)
    /// holds no frame of an animation that is playing.
    static func motionDiffSection(_ result: SnapshotResult) -> String {
        guard let diff = result.motionDiff else { return "" }
        let file = Escaping.html(diff.file)
        var caption = "Expected · actual · differences, side by side, playing in sync: frames \(diff.frames.lowerBound)–\(diff.frames.upperBound)"
        if let fps = result.fps {
            let from = Double(diff.frames.lowerBound) / Double(fps), to = Double(diff.frames.upperBound) / Double(fps)
            caption += " (\(JSONValue.format(from, decimals: 3))–\(JSONValue.format(to, decimals: 3)) s)"
        }
        caption += " at \(JSONValue.format(diff.fps, decimals: 3)) fps."
        return "<section id=\"motion-diff\" aria-labelledby=\"motion-diff-title\">\n<details>"
            + "<summary><h2 id=\"motion-diff-title\">Motion diff of the failing frames: expected · actual · differences, playing in sync</h2></summary>\n"
            + "<figure><a href=\"\(file)\"><img src=\"\(file)\" width=\"\(diff.width)\" height=\"\(diff.height)\" loading=\"lazy\" "
            + "alt=\"Animation of the failing frames: expected, actual and differences side by side\"></a>"
            + "<figcaption>\(caption)</figcaption></figure>\n</details>\n</section>\n"
    }
}
