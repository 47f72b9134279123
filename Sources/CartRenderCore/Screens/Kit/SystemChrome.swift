/// The iOS status bar and home indicator a scene with `"systemChrome": true` draws above its
/// screen (docs/motion-and-look.md, “System chrome”), as display-list shapes in the label color of the
/// scene's color scheme (black on light, white on dark).
///
/// Geometry (pt). Apple publishes none of these numbers (the HIG and UIKit give no status bar
/// or home indicator metrics; Apple Design Resources' kits were not reachable to check), so
/// each says where it comes from:
/// - the status bar of Dynamic Island iPhones (14 Pro, 15, 16) is 54 pt tall in a 59 pt top
///   safe area; notched ones (iPhone 12–14) have 47 pt in 47 pt (`statusBarManager.statusBarFrame`
///   and `safeAreaInsets` measured on the simulator: github.com/wangrui460/WRNavigationBar
///   issue 201 for 54 pt; the device table of blog.csdn.net/weixin_37543822/article/details/135525139
///   for 54/59/34 and 47/47/34). The devices' safe areas are `Device`'s;
/// - the Dynamic Island is 126 × 37.33 pt, 11 pt below the top edge (iPhone 14 Pro, as
///   github.com/undeaDD/DynamicIslandUtilities `DynamicIsland.size` and `.origin` give it); the
///   time sits centered in the leading ear, the strip `(width − islandWidth) / 2` wide beside it,
///   in the system font (the Inter stand-in) semibold 17 pt; cellular bars, Wi-Fi and battery,
///   7 pt apart, centered in the trailing ear;
/// - all vertically centered on `min(safeAreaTop, 44) / 2` (22 pt; 10 pt on an iPhone SE's
///   20 pt bar). Not confirmed: no reachable source measures a Dynamic Island status bar, and
///   github.com/apparata/Bezeler's mock-ups of notched iPhones center the time 1–3 pt lower
///   (y 23 in a 44 pt bar, 25 in a 47 pt bar). The glyphs' sizes (below) are approximations
///   without a source; they agree with Bezeler's within 1 pt (battery 24.3 × 11.3, bars 17 × 10.7);
/// - the home indicator: a capsule 5 pt tall whose width is 134/375 of the screen's (134 pt on
///   375 pt wide iPhones, 140.4 pt on an iPhone 16), its bottom 8 pt above the screen's bottom
///   edge, centered, drawn only when the device has a bottom safe area (an iPhone SE has a home
///   button). Bezeler's per-device table (134 pt at 375 pt wide, 139 at 390, 148 at 414, 153
///   at 428, each 8 pt above the bottom, corner radius half the height) gives the ratio within
///   0.5 pt; its README says its mock-ups are "not 100% pixel perfect". The real indicator is
///   a luminance-adaptive pill in shades of gray, dark over light content and light over dark
///   (Nathan Gitter, "Reverse-Engineering the iPhone X Home Indicator Color", 2017); drawn here
///   at full opacity in the label color, its two extremes. No reachable source gives its
///   exact gray, so that choice is not confirmed.
///
/// Right to left the status bar is mirrored — the time at the right, the battery at the left —
/// as system-provided components "flip automatically in the RTL context" (HIG, "Right to
/// left"). No reachable Apple page shows the status bar in Arabic or Hebrew, so the mirroring
/// follows that general rule and is not confirmed for the status bar itself. The glyphs themselves keep their
/// shape (bars rise to the right, the battery cap points right).
public struct SystemChrome: Equatable, Sendable {
    /// The text of the clock, Apple's marketing time.
    public static let time = "9:41"
    /// The clock's font: semibold 17 pt, not scaled by Dynamic Type (the status bar is not).
    public static let timeFont = FontSpec(size: 17, weight: .semibold)
    /// Width of the Dynamic Island the ears sit beside (pt; 126 × 37.33 pt on an iPhone 14 Pro,
    /// github.com/undeaDD/DynamicIslandUtilities).
    public static let islandWidth = 126.0
    /// Gap between the trailing glyphs (pt).
    public static let glyphSpacing = 7.0
    /// Cellular bars: 4 bars 3 pt wide, 1.7 pt apart, heights 4…11.4 pt, corner radius 1 pt.
    public static let barWidth = 3.0, barGap = 1.7, barHeights = [4.0, 6.5, 9.0, 11.4]
    /// Wi-Fi: a 90° fan of radius 12 pt (17 pt wide, 12 pt tall): a filled sector to 3.6 pt,
    /// bands 5.1…7.6 pt and 9.2…12 pt.
    public static let wifiRadius = 12.0, wifiBands: [(inner: Double, outer: Double)] = [(0, 3.6), (5.1, 7.6), (9.2, 12)]
    /// Battery: 25×12 pt body (corner radius 4 pt, a 1 pt outline at 35 % opacity), charge
    /// inset 2 pt (radius 2.5 pt, full), a 1.5×4 pt cap 1 pt right of the body at 40 %.
    public static let batteryBody = Size(width: 25, height: 12), batteryCap = Size(width: 1.5, height: 4)
    /// Home indicator: a capsule 5 pt tall, as wide as this fraction of the screen (134 pt at
    /// 375 pt), 8 pt above the screen's bottom edge (github.com/apparata/Bezeler's device table).
    public static let homeIndicatorWidthFraction = 134.0 / 375, homeIndicatorHeight = 5.0, homeIndicatorBottom = 8.0

    /// The chrome's display items for `scene`, drawn after (above) the screen's.
    /// - Parameter measurer: measures the clock to center it in its ear.
    public static func items(for scene: Scene, measurer: any TextMeasuring) -> [DisplayItem] {
        let device = scene.device
        let color = Look.label.resolved(scene.colorScheme)
        let rtl = scene.layoutDirection == .rightToLeft
        let ear = max(0, (device.width - islandWidth) / 2)
        let midY = min(device.safeAreaTop, 44) / 2
        // Centers of the leading and trailing ears; right to left they swap sides.
        let leading = rtl ? device.width - ear / 2 : ear / 2
        let trailing = rtl ? ear / 2 : device.width - ear / 2

        let timeSize = measurer.measure(time, font: timeFont, maxWidth: nil)
        var items: [DisplayItem] = [
            .text(TextRun(time, font: timeFont, color: color, origin: Point(x: leading - timeSize.width / 2, y: midY - timeSize.height / 2))),
        ]

        let barsWidth = Double(barHeights.count) * barWidth + Double(barHeights.count - 1) * barGap
        let wifiWidth = 2 * wifiRadius * 0.5.squareRoot()
        let batteryWidth = batteryBody.width + 1 + batteryCap.width
        let widths = [barsWidth, wifiWidth, batteryWidth]
        var x = trailing - (widths.reduce(0, +) + glyphSpacing * Double(widths.count - 1)) / 2
        // Left to right: bars, Wi-Fi, battery; right to left the order reverses.
        var lefts: [Double] = []
        for w in rtl ? widths.reversed() : widths { lefts.append(x); x += w + glyphSpacing }
        if rtl { lefts.reverse() }

        let bottom = midY + barHeights.last! / 2
        for (i, h) in barHeights.enumerated() {
            let r = Rect(x: lefts[0] + Double(i) * (barWidth + barGap), y: bottom - h, width: barWidth, height: h)
            items.append(.fill(.roundedRect(r, radius: 1), .color(color)))
        }

        // The fan: a group rotated 45° about its apex, clipped to the quadrant that the
        // rotation turns into the upward 90° wedge; circles about the apex do not change.
        let apex = Point(x: lefts[1] + wifiWidth / 2, y: midY + wifiRadius / 2)
        let c = 0.5.squareRoot()
        let fan = wifiBands.map { band -> DisplayItem in
            band.inner == 0
                ? .fill(.ellipse(Rect(center: .zero, size: Size(width: 2 * band.outer, height: 2 * band.outer))), .color(color))
                : .stroke(.ellipse(Rect(center: .zero, size: Size(width: band.inner + band.outer, height: band.inner + band.outer))),
                          .color(color), lineWidth: band.outer - band.inner)
        }
        items.append(.group(transform: AffineTransform(a: c, b: c, c: -c, d: c, tx: apex.x, ty: apex.y), opacity: 1,
                            clip: .rect(Rect(x: -2 * wifiRadius, y: -2 * wifiRadius, width: 2 * wifiRadius, height: 2 * wifiRadius)), items: fan))

        let body = Rect(x: lefts[2], y: midY - batteryBody.height / 2, width: batteryBody.width, height: batteryBody.height)
        items.append(.stroke(.roundedRect(body.insetBy(0.5), radius: 4 - 0.5), .color(color.opacity(0.35)), lineWidth: 1))
        items.append(.fill(.roundedRect(body.insetBy(2), radius: 2.5), .color(color)))
        let cap = Rect(x: body.x + body.width + 1, y: midY - batteryCap.height / 2, width: batteryCap.width, height: batteryCap.height)
        items.append(.fill(.roundedRect(cap, radius: batteryCap.width / 2), .color(color.opacity(0.4))))

        if device.safeAreaBottom > 0 {
            let width = device.width * homeIndicatorWidthFraction
            let indicator = Rect(x: (device.width - width) / 2, y: device.height - homeIndicatorBottom - homeIndicatorHeight,
                                 width: width, height: homeIndicatorHeight)
            items.append(.fill(.capsule(indicator), .color(color)))
        }
        return items
    }
}
