import CImageQuant
import Foundation

/// Palette-indexed pixels of one GIF image.
struct IndexedPixels: Equatable {
    var width: Int
    var height: Int
    /// `width × height` palette indices, rows top to bottom.
    var indices: [UInt8]
    /// The palette as R, G, B bytes (3 per entry, 1…256 entries); `nil` when the image uses the
    /// animation's shared (global) palette.
    var localColors: [UInt8]?
    /// The palette index that leaves the canvas untouched, if the image has transparent pixels.
    var transparentIndex: Int?
}

// MARK: - libimagequant objects, each freed by its owner's deinit

/// `liq_attr`: quality, speed and color limits.
final class LIQAttributes {
    let pointer: OpaquePointer

    /// - Throws: `AnimationEncodingError.quantizationFailed` when libimagequant refuses a setting.
    init(options: GIFOptions, maxColors: Int = 256, frameIndex: Int) throws {
        guard let attr = liq_attr_create() else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: frameIndex, operation: "liq_attr_create", code: Int(LIQ_OUT_OF_MEMORY.rawValue))
        }
        pointer = attr
        try LIQAttributes.check(liq_set_max_colors(attr, Int32(maxColors)), "liq_set_max_colors", frameIndex)
        try LIQAttributes.check(liq_set_quality(attr, Int32(options.quality.lowerBound), Int32(options.quality.upperBound)), "liq_set_quality", frameIndex)
        try LIQAttributes.check(liq_set_speed(attr, Int32(options.speed)), "liq_set_speed", frameIndex)
    }

    deinit { liq_attr_destroy(pointer) }

    static func check(_ status: liq_error, _ operation: String, _ frameIndex: Int) throws {
        guard status == LIQ_OK else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: frameIndex, operation: operation, code: Int(status.rawValue))
        }
    }
}

/// `liq_image` over a copy of RGBA pixels that lives exactly as long as the image.
final class LIQImage {
    let pointer: OpaquePointer
    let width: Int
    let height: Int
    private let pixels: UnsafeMutableRawBufferPointer

    /// - Parameter rgba: `width × height × 4` straight-alpha bytes.
    /// - Throws: `AnimationEncodingError.quantizationFailed` when libimagequant rejects the bitmap.
    init(attributes: LIQAttributes, rgba: [UInt8], width: Int, height: Int, frameIndex: Int) throws {
        precondition(rgba.count == width * height * 4)
        // libimagequant's SSE code reads the pixels 16 bytes at a time.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(rgba.count, 1), alignment: 16)
        rgba.withUnsafeBytes { buffer.copyMemory(from: $0) }
        // gamma 0 = libimagequant's default for sRGB input (0.45455).
        guard let image = liq_image_create_rgba(attributes.pointer, buffer.baseAddress!, Int32(width), Int32(height), 0) else {
            buffer.deallocate()
            throw AnimationEncodingError.quantizationFailed(frameIndex: frameIndex, operation: "liq_image_create_rgba", code: Int(LIQ_INVALID_POINTER.rawValue))
        }
        pointer = image
        pixels = buffer
        self.width = width
        self.height = height
    }

    deinit {
        liq_image_destroy(pointer)
        pixels.deallocate()
    }
}

/// `liq_result`: a palette, and the remapping of images to it.
final class LIQResult {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { liq_result_destroy(pointer) }

    /// Remaps `image` to the palette with the result's dithering level.
    /// - Returns: one libimagequant palette index per pixel, and the palette those indices refer to
    ///   (read after remapping, because remapping may refine non-fixed colors).
    func remap(_ image: LIQImage, frameIndex: Int) throws -> (indices: [UInt8], palette: [liq_color]) {
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        let status = indices.withUnsafeMutableBytes {
            liq_write_remapped_image(pointer, image.pointer, $0.baseAddress!, $0.count)
        }
        try LIQAttributes.check(status, "liq_write_remapped_image", frameIndex)
        guard let palette = liq_get_palette(pointer) else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: frameIndex, operation: "liq_get_palette", code: Int(LIQ_INVALID_POINTER.rawValue))
        }
        let count = Int(palette.pointee.count)
        let colors = withUnsafeBytes(of: palette.pointee.entries) { raw in
            Array(raw.bindMemory(to: liq_color.self).prefix(count))
        }
        return (indices, colors)
    }
}

// MARK: - Quantization of one frame region

/// Turns RGBA regions whose alpha is only 0 or 255 into palette-indexed GIF pixels.
///
/// Alpha 0 means "leave the canvas as it is" and maps to the transparent index. libimagequant
/// is told about it as a fixed transparent color, so a palette always has a slot for it.
enum GIFQuantizer {
    /// Quantizes a region with its own palette (`GIFPaletteStrategy.perFrame`).
    /// - Parameter rgba: `width × height × 4` bytes, alpha 0 or 255.
    /// - Throws: `AnimationEncodingError.qualityTooLow` when the minimum quality cannot be met,
    ///   `.quantizationFailed` for other libimagequant errors.
    static func quantizeLocal(rgba: [UInt8], width: Int, height: Int, options: GIFOptions, frameIndex: Int) throws -> IndexedPixels {
        let hasTransparent = stride(from: 3, to: rgba.count, by: 4).contains { rgba[$0] == 0 }
        let hasOpaque = stride(from: 3, to: rgba.count, by: 4).contains { rgba[$0] != 0 }
        guard hasOpaque else {
            // Nothing to draw: a 2-entry table whose index 0 is transparent.
            return IndexedPixels(width: width, height: height, indices: [UInt8](repeating: 0, count: width * height),
                                 localColors: [0, 0, 0, 0, 0, 0], transparentIndex: 0)
        }
        let attributes = try LIQAttributes(options: options, frameIndex: frameIndex)
        let image = try LIQImage(attributes: attributes, rgba: rgba, width: width, height: height, frameIndex: frameIndex)
        if hasTransparent {
            try LIQAttributes.check(liq_image_add_fixed_color(image.pointer, liq_color(r: 0, g: 0, b: 0, a: 0)), "liq_image_add_fixed_color", frameIndex)
        }
        var resultPointer: OpaquePointer?
        let status = liq_image_quantize(image.pointer, attributes.pointer, &resultPointer)
        if status == LIQ_QUALITY_TOO_LOW {
            throw AnimationEncodingError.qualityTooLow(frameIndex: frameIndex, minimumQuality: options.quality.lowerBound)
        }
        try LIQAttributes.check(status, "liq_image_quantize", frameIndex)
        guard let resultPointer else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: frameIndex, operation: "liq_image_quantize", code: Int(LIQ_INVALID_POINTER.rawValue))
        }
        let result = LIQResult(resultPointer)
        try LIQAttributes.check(liq_set_dithering_level(result.pointer, options.dithering), "liq_set_dithering_level", frameIndex)
        let (liqIndices, palette) = try result.remap(image, frameIndex: frameIndex)
        return compact(liqIndices: liqIndices, palette: palette, rgba: rgba, width: width, height: height)
    }

    /// Builds the GIF palette from libimagequant's: one transparent entry at most, only the
    /// entries that are used, in libimagequant's order (sorted by popularity, which helps LZW).
    /// Pixels that are transparent in `rgba` always get the transparent index; opaque pixels never do.
    static func compact(liqIndices: [UInt8], palette: [liq_color], rgba: [UInt8], width: Int, height: Int) -> IndexedPixels {
        let opaqueEntries = palette.indices.filter { palette[$0].a >= 128 }
        // Where each pixel really goes, in libimagequant indices; transparent is marked as 256.
        let transparentMark = 256
        var used = [Bool](repeating: false, count: 257)
        var target = [Int](repeating: 0, count: liqIndices.count)
        var nearestOpaque = [Int: Int]()
        for p in 0..<liqIndices.count {
            let sourceOpaque = rgba[p * 4 + 3] != 0
            var entry = Int(liqIndices[p])
            if !sourceOpaque {
                entry = transparentMark
            } else if entry >= palette.count || palette[entry].a < 128 {
                // Dithering landed an opaque pixel on a transparent entry: use the nearest opaque color.
                let key = Int(rgba[p * 4]) << 16 | Int(rgba[p * 4 + 1]) << 8 | Int(rgba[p * 4 + 2])
                if let known = nearestOpaque[key] {
                    entry = known
                } else {
                    entry = nearestEntry(r: rgba[p * 4], g: rgba[p * 4 + 1], b: rgba[p * 4 + 2], in: palette, among: opaqueEntries)
                    nearestOpaque[key] = entry
                }
            }
            target[p] = entry
            used[entry] = true
        }
        var gifIndex = [Int](repeating: -1, count: 257)
        var colors: [UInt8] = []
        var transparentIndex: Int?
        var next = 0
        for entry in palette.indices where used[entry] || (palette[entry].a < 128 && used[transparentMark]) {
            if palette[entry].a < 128 {
                guard transparentIndex == nil, used[transparentMark] else { continue }
                transparentIndex = next
                gifIndex[transparentMark] = next
                colors += [0, 0, 0]
            } else {
                gifIndex[entry] = next
                colors += [palette[entry].r, palette[entry].g, palette[entry].b]
            }
            next += 1
        }
        if used[transparentMark] && transparentIndex == nil {
            transparentIndex = next
            gifIndex[transparentMark] = next
            colors += [0, 0, 0]
            next += 1
        }
        var indices = [UInt8](repeating: 0, count: liqIndices.count)
        for p in 0..<target.count {
            indices[p] = UInt8(gifIndex[target[p]])
        }
        return IndexedPixels(width: width, height: height, indices: indices, localColors: colors, transparentIndex: transparentIndex)
    }

    static func nearestEntry(r: UInt8, g: UInt8, b: UInt8, in palette: [liq_color], among candidates: [Int]) -> Int {
        var best = candidates.first ?? 0
        var bestDistance = Int.max
        for entry in candidates {
            let dr = Int(palette[entry].r) - Int(r), dg = Int(palette[entry].g) - Int(g), db = Int(palette[entry].b) - Int(b)
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance {
                bestDistance = distance
                best = entry
            }
        }
        return best
    }
}

// MARK: - Shared palette

/// One palette for a whole animation (`GIFPaletteStrategy.shared`): quantized from the first
/// frame with a fixed transparent entry, every color marked fixed so that remapping later frames
/// never moves it.
final class GIFSharedPalette {
    /// The global color table, R, G, B bytes per entry.
    let colors: [UInt8]
    /// The entry that leaves the canvas untouched.
    let transparentIndex: Int
    private let attributes: LIQAttributes
    private let result: LIQResult
    /// Opaque colors of libimagequant's palette (packed RGB) → their index in `colors`.
    private var indexOfColor: [UInt32: Int] = [:]

    /// - Parameter rgba: the first frame, `width × height × 4` bytes with alpha 0 or 255.
    /// - Throws: `AnimationEncodingError.qualityTooLow` or `.quantizationFailed`.
    init(firstFrame rgba: [UInt8], width: Int, height: Int, options: GIFOptions) throws {
        let attributes = try LIQAttributes(options: options, frameIndex: 0)
        self.attributes = attributes
        guard let histogram = liq_histogram_create(attributes.pointer) else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: 0, operation: "liq_histogram_create", code: Int(LIQ_OUT_OF_MEMORY.rawValue))
        }
        defer { liq_histogram_destroy(histogram) }
        let image = try LIQImage(attributes: attributes, rgba: rgba, width: width, height: height, frameIndex: 0)
        try LIQAttributes.check(liq_histogram_add_image(histogram, attributes.pointer, image.pointer), "liq_histogram_add_image", 0)
        try LIQAttributes.check(liq_histogram_add_fixed_color(histogram, liq_color(r: 0, g: 0, b: 0, a: 0), 0), "liq_histogram_add_fixed_color", 0)
        var resultPointer: OpaquePointer?
        let status = liq_histogram_quantize(histogram, attributes.pointer, &resultPointer)
        if status == LIQ_QUALITY_TOO_LOW {
            throw AnimationEncodingError.qualityTooLow(frameIndex: 0, minimumQuality: options.quality.lowerBound)
        }
        try LIQAttributes.check(status, "liq_histogram_quantize", 0)
        guard let resultPointer else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: 0, operation: "liq_histogram_quantize", code: Int(LIQ_INVALID_POINTER.rawValue))
        }
        result = LIQResult(resultPointer)
        try LIQAttributes.check(liq_set_dithering_level(result.pointer, options.dithering), "liq_set_dithering_level", 0)
        guard let palette = liq_get_palette(result.pointer) else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: 0, operation: "liq_get_palette", code: Int(LIQ_INVALID_POINTER.rawValue))
        }
        let (entries, colors, transparent) = GIFColorTable.make(palette)
        self.colors = colors
        self.transparentIndex = transparent
        for (i, entry) in entries.enumerated() where entry.a >= 128 {
            indexOfColor[GIFSharedPalette.key(entry)] = indexOfColor[GIFSharedPalette.key(entry)] ?? i
        }
    }

    /// Remaps a region to the shared palette.
    /// - Parameter rgba: `width × height × 4` bytes, alpha 0 or 255.
    /// - Returns: indices into `colors`; `localColors` is `nil`.
    func remap(rgba: [UInt8], width: Int, height: Int, frameIndex: Int) throws -> IndexedPixels {
        let hasTransparent = stride(from: 3, to: rgba.count, by: 4).contains { rgba[$0] == 0 }
        let image = try LIQImage(attributes: attributes, rgba: rgba, width: width, height: height, frameIndex: frameIndex)
        let (liqIndices, palette) = try result.remap(image, frameIndex: frameIndex)
        // Every color is fixed, so the palette should come back unchanged; translate by value anyway.
        let opaque = (0..<colors.count / 3).filter { $0 != transparentIndex }
        let table: [liq_color] = (0..<colors.count / 3).map { liq_color(r: colors[$0 * 3], g: colors[$0 * 3 + 1], b: colors[$0 * 3 + 2], a: 255) }
        let translation: [Int] = palette.map { entry in
            if entry.a < 128 { return transparentIndex }
            if let known = indexOfColor[GIFSharedPalette.key(entry)] { return known }
            return GIFQuantizer.nearestEntry(r: entry.r, g: entry.g, b: entry.b, in: table, among: opaque)
        }
        var indices = [UInt8](repeating: 0, count: width * height)
        for p in 0..<indices.count {
            if rgba[p * 4 + 3] == 0 {
                indices[p] = UInt8(transparentIndex)
                continue
            }
            var entry = Int(liqIndices[p]) < translation.count ? translation[Int(liqIndices[p])] : transparentIndex
            if entry == transparentIndex {
                entry = GIFQuantizer.nearestEntry(r: rgba[p * 4], g: rgba[p * 4 + 1], b: rgba[p * 4 + 2], in: table, among: opaque)
            }
            indices[p] = UInt8(entry)
        }
        return IndexedPixels(width: width, height: height, indices: indices, localColors: nil,
                             transparentIndex: hasTransparent ? transparentIndex : nil)
    }

    private static func key(_ c: liq_color) -> UInt32 {
        UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
    }
}

/// A libimagequant palette as a GIF color table.
enum GIFColorTable {
    /// The palette's entries, their RGB triplets for the GIF color table (transparent entries as
    /// black), and the index of the transparent entry — the first translucent one, or a black
    /// entry added at the end when the palette has none.
    static func make(_ palette: UnsafePointer<liq_palette>) -> (entries: [liq_color], colors: [UInt8], transparentIndex: Int) {
        let count = Int(palette.pointee.count)
        let entries = withUnsafeBytes(of: palette.pointee.entries) { Array($0.bindMemory(to: liq_color.self).prefix(count)) }
        var colors: [UInt8] = []
        var transparent: Int?
        for (i, entry) in entries.enumerated() {
            if entry.a < 128 {
                transparent = transparent ?? i
                colors += [0, 0, 0]
            } else {
                colors += [entry.r, entry.g, entry.b]
            }
        }
        if transparent == nil {
            transparent = entries.count
            colors += [0, 0, 0]
        }
        return (entries, colors, transparent!)
    }
}
