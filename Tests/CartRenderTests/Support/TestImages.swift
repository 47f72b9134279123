/// Deterministic RGBA test images (8-bit straight alpha, rows top to bottom), built only from
/// integer arithmetic and correctly rounded Double operations so that the same bytes come out on
/// every machine. Pure Swift without imports: the same file was compiled into a throwaway tool to
/// feed these images to pixelmatch 7.1 for the cross-check table in `PixelmatchTests`.
struct TestPixels: Equatable {
    var width: Int
    var height: Int
    var bytes: [UInt8]

    init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8, UInt8) = (255, 255, 255, 255)) {
        self.width = width
        self.height = height
        bytes = []
        bytes.reserveCapacity(width * height * 4)
        for _ in 0 ..< width * height { bytes += [fill.0, fill.1, fill.2, fill.3] }
    }

    subscript(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        get {
            let i = (y * width + x) * 4
            return (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            bytes[i] = newValue.0
            bytes[i + 1] = newValue.1
            bytes[i + 2] = newValue.2
            bytes[i + 3] = newValue.3
        }
    }
}

/// A 32-bit linear congruential generator (Numerical Recipes constants); `next(below:)` uses the
/// high 16 bits.
struct LCG {
    var state: UInt32

    mutating func next(below limit: Int) -> Int {
        state = state &* 1_664_525 &+ 1_013_904_223
        return Int(state >> 16) % limit
    }

    mutating func byte() -> UInt8 { UInt8(next(below: 256)) }
}

enum TestImages {
    /// Uniform noise; alpha is 255 unless `translucent`.
    static func noise(width: Int, height: Int, seed: UInt32, translucent: Bool = false) -> TestPixels {
        var rng = LCG(state: seed)
        var image = TestPixels(width: width, height: height)
        for y in 0 ..< height {
            for x in 0 ..< width {
                image[x, y] = (rng.byte(), rng.byte(), rng.byte(), translucent ? rng.byte() : 255)
            }
        }
        return image
    }

    /// A copy of `image` in which about one pixel in `every` has each channel moved by up to
    /// ±`amount` (clamped to 0 … 255).
    static func perturbed(_ image: TestPixels, seed: UInt32, every: Int, amount: Int) -> TestPixels {
        var rng = LCG(state: seed)
        var out = image
        for i in 0 ..< out.bytes.count / 4 where rng.next(below: every) == 0 {
            for c in 0 ..< 4 {
                let moved = Int(out.bytes[i * 4 + c]) + rng.next(below: 2 * amount + 1) - amount
                out.bytes[i * 4 + c] = UInt8(min(max(moved, 0), 255))
            }
        }
        return out
    }

    /// A filled circle of `color` over `background`, anti-aliased by 16 × 16 supersampling: each
    /// pixel is the background blended with the color by the fraction of covered samples.
    /// Center and radius in px; pixel (x, y) covers [x, x + 1) × [y, y + 1).
    static func circle(width: Int, height: Int, centerX: Double, centerY: Double, radius: Double,
                       color: (UInt8, UInt8, UInt8), background: (UInt8, UInt8, UInt8)) -> TestPixels {
        var image = TestPixels(width: width, height: height, fill: (background.0, background.1, background.2, 255))
        for y in 0 ..< height {
            for x in 0 ..< width {
                var covered = 0
                for sy in 0 ..< 16 {
                    for sx in 0 ..< 16 {
                        let dx = Double(x) + (Double(sx) + 0.5) / 16 - centerX
                        let dy = Double(y) + (Double(sy) + 0.5) / 16 - centerY
                        if dx * dx + dy * dy <= radius * radius { covered += 1 }
                    }
                }
                func mix(_ c: UInt8, _ b: UInt8) -> UInt8 {
                    UInt8((Int(c) * covered + Int(b) * (256 - covered) + 128) / 256)
                }
                image[x, y] = (mix(color.0, background.0), mix(color.1, background.1), mix(color.2, background.2), 255)
            }
        }
        return image
    }

    /// `color` left of the vertical line x = `edgeX` px, `background` right of it; the column the line
    /// crosses is blended by its covered fraction (rounded to 1/256).
    static func verticalEdge(width: Int, height: Int, edgeX: Double,
                             color: (UInt8, UInt8, UInt8), background: (UInt8, UInt8, UInt8)) -> TestPixels {
        var image = TestPixels(width: width, height: height, fill: (background.0, background.1, background.2, 255))
        for y in 0 ..< height {
            for x in 0 ..< width {
                let covered = Int((min(max(edgeX - Double(x), 0), 1) * 256).rounded())
                func mix(_ c: UInt8, _ b: UInt8) -> UInt8 {
                    UInt8((Int(c) * covered + Int(b) * (256 - covered) + 128) / 256)
                }
                image[x, y] = (mix(color.0, background.0), mix(color.1, background.1), mix(color.2, background.2), 255)
            }
        }
        return image
    }

    /// Flat rectangles of random colors on white: large areas of identical pixels with hard edges.
    /// `shift` moves the rectangles with an odd index right by that many px.
    static func rectangles(width: Int, height: Int, count: Int, seed: UInt32, shift: Int = 0) -> TestPixels {
        var rng = LCG(state: seed)
        var image = TestPixels(width: width, height: height)
        for n in 0 ..< count {
            let w = 4 + rng.next(below: width / 3)
            let h = 4 + rng.next(below: height / 3)
            let x0 = rng.next(below: width - w) + (n % 2 == 1 ? shift : 0)
            let y0 = rng.next(below: height - h)
            let color = (rng.byte(), rng.byte(), rng.byte(), UInt8(255))
            for y in y0 ..< y0 + h {
                for x in x0 ..< min(x0 + w, width) { image[x, y] = color }
            }
        }
        return image
    }

    /// A 12 × 12 noise of white, mid gray and black, and a copy with 10 random pixels recolored:
    /// many equal neighbours, so the anti-aliasing detector meets ties between candidate darkest
    /// and brightest neighbours, which pixelmatch breaks by visiting neighbours column by column.
    static func grayNoisePair(seed: UInt32) -> (TestPixels, TestPixels) {
        let palette: [(UInt8, UInt8, UInt8, UInt8)] = [(255, 255, 255, 255), (128, 128, 128, 255), (0, 0, 0, 255)]
        var rng = LCG(state: seed)
        var first = TestPixels(width: 12, height: 12)
        for y in 0 ..< 12 {
            for x in 0 ..< 12 { first[x, y] = palette[rng.next(below: 3)] }
        }
        var second = first
        for _ in 0 ..< 10 {
            let x = rng.next(below: 12)
            let y = rng.next(below: 12)
            second[x, y] = palette[rng.next(below: 3)]
        }
        return (first, second)
    }

    /// A horizontal alpha ramp of one color (alpha = x × 255 / (width − 1)) over transparent black.
    static func alphaRamp(width: Int, height: Int, color: (UInt8, UInt8, UInt8)) -> TestPixels {
        var image = TestPixels(width: width, height: height, fill: (0, 0, 0, 0))
        for y in 0 ..< height {
            for x in 0 ..< width {
                image[x, y] = (color.0, color.1, color.2, UInt8(x * 255 / max(width - 1, 1)))
            }
        }
        return image
    }

    /// 64-bit FNV-1a of `bytes`, to pin a whole diff image in a table.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
