import CartRenderRaster
import Foundation

/// A UI-like animation drawn by hand (no Cairo), resembling the fly button of
/// docs/motion-and-look.md on a 393 × 852 pt phone: white page, a card with a 12 % indigo tint, a product image with a
/// diagonal gradient and a soft highlight, text bars, an indigo add button, and a cart icon.
/// A copy of the product (a gradient disc) flies along an arc into the cart during frames
/// 0 … `flightFrames − 1`, shrinking; from frame `flightFrames` on it has landed, the red badge
/// shows "1", and nothing moves, so the remaining frames are identical.
/// Edges are anti-aliased from signed distances; colors are 8-bit sRGB, straight alpha, opaque.
struct SyntheticAnimation {
    /// px per pt.
    var scale: Double
    var frameCount = 60
    var flightFrames = 40
    var fps = 60.0

    var width: Int { Int((393 * scale).rounded()) }
    var height: Int { Int((852 * scale).rounded()) }

    func frame(_ index: Int) -> RGBAImage {
        var canvas = Canvas(width: width, height: height, scale: scale)
        canvas.fill(r: 255, g: 255, b: 255)
        // Navigation bar title and cart icon.
        canvas.roundedRect(x: 20, y: 70, width: 150, height: 22, radius: 6, color: { _, _ in (28, 28, 30) }, opacity: 0.9)
        canvas.roundedRect(x: 335, y: 68, width: 30, height: 26, radius: 5, color: { _, _ in (88, 86, 214) }, opacity: 1)
        canvas.roundedRect(x: 340, y: 74, width: 20, height: 12, radius: 3, color: { _, _ in (255, 255, 255) }, opacity: 1)
        // Card with a 12 % indigo tint.
        canvas.roundedRect(x: 20, y: 120, width: 353, height: 460, radius: 20, color: { _, _ in (88, 86, 214) }, opacity: 0.12)
        // Product image: diagonal gradient indigo → pink with a soft radial highlight.
        canvas.roundedRect(x: 40, y: 140, width: 313, height: 260, radius: 14, color: { x, y in
            let t = min(max(((x - 40) / 313 + (y - 140) / 260) / 2, 0), 1)
            let highlight = max(0, 1 - hypot(x - 150, y - 210) / 120) * 0.45
            let r = 88 + (255 - 88) * t, g = 86 + (45 - 86) * t, b = 214 + (85 - 214) * t
            return (r + (255 - r) * highlight, g + (255 - g) * highlight, b + (255 - b) * highlight)
        }, opacity: 1)
        // Text bars: title and secondary label.
        canvas.roundedRect(x: 40, y: 420, width: 210, height: 20, radius: 5, color: { _, _ in (28, 28, 30) }, opacity: 0.85)
        canvas.roundedRect(x: 40, y: 450, width: 140, height: 14, radius: 4, color: { _, _ in (142, 142, 147) }, opacity: 1)
        // Add button with a white plus.
        canvas.roundedRect(x: 40, y: 500, width: 313, height: 52, radius: 14, color: { x, _ in
            let t = (x - 40) / 313
            return (88 + 20 * t, 86 - 10 * t, 214 + 20 * t)
        }, opacity: 1)
        canvas.roundedRect(x: 186, y: 524, width: 22, height: 4, radius: 2, color: { _, _ in (255, 255, 255) }, opacity: 1)
        canvas.roundedRect(x: 195, y: 515, width: 4, height: 22, radius: 2, color: { _, _ in (255, 255, 255) }, opacity: 1)
        if index < flightFrames {
            // Ease-in-out progress along a quadratic arc from the product to the cart.
            let p = Double(index) / Double(flightFrames - 1)
            let e = p < 0.5 ? 2 * p * p : 1 - pow(-2 * p + 2, 2) / 2
            let (x0, y0, cx, cy, x1, y1) = (196.0, 270.0, 330.0, 120.0, 350.0, 81.0)
            let x = (1 - e) * (1 - e) * x0 + 2 * (1 - e) * e * cx + e * e * x1
            let y = (1 - e) * (1 - e) * y0 + 2 * (1 - e) * e * cy + e * e * y1
            let radius = 60 * (1 - 0.8 * e)
            canvas.circle(cx: x, cy: y, radius: radius + 2, color: { _, _ in (255, 255, 255) }, opacity: 0.9)
            canvas.circle(cx: x, cy: y, radius: radius, color: { px, py in
                let t = min(max((px - x + py - y) / (4 * radius) + 0.5, 0), 1)
                return (255 - 80 * t, 149 - 100 * t, 0 + 120 * t)
            }, opacity: 1)
        } else {
            // Landed: red badge with a white "1".
            canvas.circle(cx: 362, cy: 70, radius: 10, color: { _, _ in (255, 59, 48) }, opacity: 1)
            canvas.roundedRect(x: 361, y: 64, width: 2.5, height: 12, radius: 1, color: { _, _ in (255, 255, 255) }, opacity: 1)
        }
        return RGBAImage(width: width, height: height, pixels: canvas.pixels)
    }
}

/// A straight-alpha RGBA canvas with anti-aliased shape filling in points.
struct Canvas {
    let width: Int
    let height: Int
    let scale: Double
    var pixels: [UInt8]

    init(width: Int, height: Int, scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    mutating func fill(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        for p in 0..<(width * height) {
            pixels[p * 4] = r; pixels[p * 4 + 1] = g; pixels[p * 4 + 2] = b; pixels[p * 4 + 3] = a
        }
    }

    /// Fills a rounded rectangle given in points; `color(x, y)` is evaluated in points.
    mutating func roundedRect(x: Double, y: Double, width w: Double, height h: Double, radius: Double,
                              color: (Double, Double) -> (Double, Double, Double), opacity: Double) {
        let (cx, cy, hx, hy) = (x + w / 2, y + h / 2, w / 2, h / 2)
        fillShape(minX: x, minY: y, maxX: x + w, maxY: y + h, color: color, opacity: opacity) { px, py in
            // Signed distance to the rounded rectangle, in points.
            let qx = abs(px - cx) - (hx - radius), qy = abs(py - cy) - (hy - radius)
            return hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - radius
        }
    }

    /// Fills a disc given in points.
    mutating func circle(cx: Double, cy: Double, radius: Double, color: (Double, Double) -> (Double, Double, Double), opacity: Double) {
        fillShape(minX: cx - radius, minY: cy - radius, maxX: cx + radius, maxY: cy + radius, color: color, opacity: opacity) { px, py in
            hypot(px - cx, py - cy) - radius
        }
    }

    /// Source-over compositing of `color` with coverage `0.5 − distance` (in px) clamped to 0…1.
    private mutating func fillShape(minX: Double, minY: Double, maxX: Double, maxY: Double,
                                    color: (Double, Double) -> (Double, Double, Double), opacity: Double,
                                    distance: (Double, Double) -> Double) {
        let x0 = max(0, Int((minX * scale).rounded(.down)) - 1), x1 = min(width - 1, Int((maxX * scale).rounded(.up)) + 1)
        let y0 = max(0, Int((minY * scale).rounded(.down)) - 1), y1 = min(height - 1, Int((maxY * scale).rounded(.up)) + 1)
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                let px = (Double(x) + 0.5) / scale, py = (Double(y) + 0.5) / scale
                let coverage = min(max(0.5 - distance(px, py) * scale, 0), 1) * opacity
                guard coverage > 0 else { continue }
                let (r, g, b) = color(px, py)
                let o = (y * width + x) * 4
                let dstA = Double(pixels[o + 3]) / 255
                let outA = coverage + dstA * (1 - coverage)
                func mix(_ src: Double, _ dst: UInt8) -> UInt8 {
                    let value = (src * coverage + Double(dst) * dstA * (1 - coverage)) / outA
                    return UInt8(min(max(value.rounded(), 0), 255))
                }
                pixels[o] = mix(r, pixels[o]); pixels[o + 1] = mix(g, pixels[o + 1]); pixels[o + 2] = mix(b, pixels[o + 2])
                pixels[o + 3] = UInt8((outA * 255).rounded())
            }
        }
    }
}
