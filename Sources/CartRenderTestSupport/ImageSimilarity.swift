import CartRenderRaster
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Perceptual comparison of two images.
public enum ImageSimilarity {
    /// Mean structural similarity (SSIM, Wang et al. 2004) of the luma of two images of the same
    /// size: 1 for identical images, lower as structure, contrast or brightness differ.
    ///
    /// Both images are composited over white (documentation pages are white), reduced to luma
    /// `Y = 0.299 R + 0.587 G + 0.114 B` on the 0…255 sRGB values (BT.601, as in the reference
    /// implementation), and compared in 11 × 11 Gaussian windows (σ = 1.5 px) at every position
    /// where the window fits, with `C1 = (0.01 × 255)²` and `C2 = (0.03 × 255)²`. Images smaller
    /// than the window are compared as one window with uniform weights.
    ///
    /// - Returns: the mean SSIM over all windows, in −1…1 (in practice 0…1).
    /// - Precondition: `a` and `b` have the same size, at least 1 × 1 px.
    /// - Complexity: O(width × height × 11), about 0.2 s for a 1179 × 2556 px frame in a release build.
    public static func meanSSIM(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        precondition(a.width == b.width && a.height == b.height,
                     "meanSSIM: \(a.width)×\(a.height) px and \(b.width)×\(b.height) px images cannot be compared")
        precondition(a.width > 0 && a.height > 0, "meanSSIM: empty images")
        let x = luma(a), y = luma(b)
        let width = a.width, height = a.height
        let c1 = (0.01 * 255.0) * (0.01 * 255.0), c2 = (0.03 * 255.0) * (0.03 * 255.0)
        let size = 11
        guard width >= size, height >= size else {
            return ssim(meanX: mean(x), meanY: mean(y), x: x, y: y, c1: c1, c2: c2)
        }
        let kernel = gaussianKernel(size: size, sigma: 1.5)
        // Separable filtering of x, y, x², y², xy in Double (E[x²] − μ² cancels badly in Float).
        // Horizontal sums are kept for the last 11 rows only, in a ring, so memory stays at
        // 5 × 11 rows whatever the image height.
        let outWidth = width - size + 1
        let planes = 5, ringRows = size, plane = ringRows * outWidth
        var ring = [Double](repeating: 0, count: planes * plane)
        var total = 0.0
        for row in 0..<height {
            let base = row * width, slot = (row % ringRows) * outWidth
            for col in 0..<outWidth {
                var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
                for k in 0..<size {
                    let w = kernel[k], vx = x[base + col + k], vy = y[base + col + k]
                    sx += w * vx; sy += w * vy
                    sxx += w * (vx * vx); syy += w * (vy * vy); sxy += w * (vx * vy)
                }
                let o = slot + col
                ring[o] = sx; ring[plane + o] = sy
                ring[2 * plane + o] = sxx; ring[3 * plane + o] = syy; ring[4 * plane + o] = sxy
            }
            guard row >= size - 1 else { continue }
            // Rows row − 10 … row are in the ring: one output row of windows.
            var rowTotal = 0.0
            for col in 0..<outWidth {
                var mux = 0.0, muy = 0.0, exx = 0.0, eyy = 0.0, exy = 0.0
                for k in 0..<size {
                    let w = kernel[k], o = ((row - size + 1 + k) % ringRows) * outWidth + col
                    mux += w * ring[o]; muy += w * ring[plane + o]
                    exx += w * ring[2 * plane + o]; eyy += w * ring[3 * plane + o]; exy += w * ring[4 * plane + o]
                }
                let varX = exx - mux * mux, varY = eyy - muy * muy, cov = exy - mux * muy
                rowTotal += ((2 * mux * muy + c1) * (2 * cov + c2)) / ((mux * mux + muy * muy + c1) * (varX + varY + c2))
            }
            total += rowTotal
        }
        return total / Double(outWidth * (height - size + 1))
    }

    /// Luma of each pixel composited over white, 0…255.
    private static func luma(_ image: RGBAImage) -> [Double] {
        let count = image.width * image.height
        return image.pixels.withUnsafeBufferPointer { p in
            (0..<count).map { i in
                let alpha = Double(p[i * 4 + 3]) / 255
                let y = 0.299 * Double(p[i * 4]) + 0.587 * Double(p[i * 4 + 1]) + 0.114 * Double(p[i * 4 + 2])
                return y * alpha + 255 * (1 - alpha)
            }
        }
    }

    private static func gaussianKernel(size: Int, sigma: Double) -> [Double] {
        let center = Double(size - 1) / 2
        let raw = (0..<size).map { i -> Double in
            let d = Double(i) - center
            return exp(-(d * d) / (2 * sigma * sigma))
        }
        let sum = raw.reduce(0, +)
        return raw.map { $0 / sum }
    }

    private static func mean(_ values: [Double]) -> Double {
        values.reduce(0, +) / Double(values.count)
    }

    private static func ssim(meanX: Double, meanY: Double, x: [Double], y: [Double], c1: Double, c2: Double) -> Double {
        var varX = 0.0, varY = 0.0, cov = 0.0
        for i in 0..<x.count {
            let dx = x[i] - meanX, dy = y[i] - meanY
            varX += dx * dx; varY += dy * dy; cov += dx * dy
        }
        let n = Double(x.count)
        varX /= n; varY /= n; cov /= n
        return ((2 * meanX * meanY + c1) * (2 * cov + c2)) / ((meanX * meanX + meanY * meanY + c1) * (varX + varY + c2))
    }
}
