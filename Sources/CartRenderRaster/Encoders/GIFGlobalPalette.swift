import CImageQuant

/// One palette for the whole animation built from every image (`GIFPaletteStrategy.global`).
///
/// As images arrive, their pixels (the changed rectangles, unchanged pixels transparent) go into
/// a libimagequant histogram (`liq_histogram_add_image`), which is cheap and keeps only color
/// counts. `quantize()` turns the histogram into one palette with a fixed transparent entry; it
/// is written once as the global color table. Images are remapped on several threads, each with
/// a result of its own (a `liq_result` keeps the last remapping in itself, so two threads cannot
/// share one): every image also goes into one more histogram per further thread, and those
/// histograms, quantized alike, give the same palette (`remappers`). `remap` maps each image to it with the result's
/// dithering level and reports libimagequant's remapping quality, so that the encoder can give
/// an image its own palette instead when the global one does not represent it well.
final class GIFGlobalPalette {
    /// The global color table, R, G, B bytes per entry (only valid after `quantize()`).
    private(set) var colors: [UInt8] = []
    /// The entry that leaves the canvas untouched.
    private(set) var transparentIndex = 0
    /// Quality of the palette for the whole histogram, 0…100 (`liq_get_quantization_quality`).
    private(set) var quantizationQuality = 0
    private let attributes: LIQAttributes
    private let options: GIFOptions
    /// One histogram per thread that remaps; nil once quantized.
    private var histograms: [OpaquePointer]?
    private var result: LIQResult?
    /// Results with the same palette as the first, for remapping on further threads (see
    /// `remap(…with:)`), after `quantize()`.
    private(set) var remappers: [LIQResult] = []
    /// libimagequant's palette as returned before any remapping (`colors` plus alpha).
    private var table: [liq_color] = []
    private var opaqueEntries: [Int] = []

    /// - Parameter threads: threads that will remap images (≥ 1): one histogram each.
    /// - Throws: `AnimationEncodingError.quantizationFailed`.
    init(options: GIFOptions, threads: Int = 1) throws {
        self.options = options
        attributes = try LIQAttributes(options: options, frameIndex: 0)
        var histograms: [OpaquePointer] = []
        defer { self.histograms = histograms }
        for _ in 0..<max(1, threads) {
            guard let histogram = liq_histogram_create(attributes.pointer) else {
                throw AnimationEncodingError.quantizationFailed(frameIndex: 0, operation: "liq_histogram_create", code: Int(LIQ_OUT_OF_MEMORY.rawValue))
            }
            histograms.append(histogram)
            try LIQAttributes.check(liq_histogram_add_fixed_color(histogram, liq_color(r: 0, g: 0, b: 0, a: 0), 0), "liq_histogram_add_fixed_color", 0)
        }
    }

    deinit {
        histograms?.forEach { liq_histogram_destroy($0) }
    }

    /// Counts the colors of one image (`width × height × 4` bytes, alpha 0 or 255).
    func add(rgba: [UInt8], width: Int, height: Int, frameIndex: Int) throws {
        guard let histograms else { preconditionFailure("GIFGlobalPalette: add after quantize") }
        // One thread and one liq_image per histogram (adding computes maps inside the image).
        let attributes = attributes
        _ = try ParallelWork.map(count: histograms.count, jobs: histograms.count) { _, i in
            let image = try LIQImage(attributes: attributes, rgba: rgba, width: width, height: height, frameIndex: frameIndex)
            try LIQAttributes.check(liq_histogram_add_image(histograms[i], attributes.pointer, image.pointer), "liq_histogram_add_image", frameIndex)
        }
    }

    /// Quantizes the histograms into the global palette (and `remappers`) and frees them.
    /// - Returns: false when the palette cannot reach the minimum quality (the caller then uses
    ///   per-frame palettes, which fail or not frame by frame).
    /// - Throws: `AnimationEncodingError.quantizationFailed` for other libimagequant errors.
    func quantize() throws -> Bool {
        guard let histograms else { preconditionFailure("GIFGlobalPalette: quantized twice") }
        defer { histograms.forEach { liq_histogram_destroy($0) }; self.histograms = nil }
        guard let result = try quantize(histograms[0]) else { return false }
        self.result = result
        quantizationQuality = Int(liq_get_quantization_quality(result.pointer))
        guard let palette = liq_get_palette(result.pointer) else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: 0, operation: "liq_get_palette", code: Int(LIQ_INVALID_POINTER.rawValue))
        }
        (table, colors, transparentIndex) = GIFColorTable.make(palette)
        opaqueEntries = table.indices.filter { table[$0].a >= 128 }
        // A copy whose palette came out different would remap differently: fewer threads then.
        for histogram in histograms.dropFirst() {
            guard let copy = try quantize(histogram), let palette = liq_get_palette(copy.pointer) else { break }
            let (entries, _, _) = GIFColorTable.make(palette)
            guard entries.count == table.count,
                  zip(entries, table).allSatisfy({ $0.r == $1.r && $0.g == $1.g && $0.b == $1.b && $0.a == $1.a }) else { break }
            remappers.append(copy)
        }
        return true
    }

    /// A histogram quantized with the options' dithering level, or nil below the minimum quality.
    private func quantize(_ histogram: OpaquePointer) throws -> LIQResult? {
        var resultPointer: OpaquePointer?
        let status = liq_histogram_quantize(histogram, attributes.pointer, &resultPointer)
        if status == LIQ_QUALITY_TOO_LOW { return nil }
        try LIQAttributes.check(status, "liq_histogram_quantize", 0)
        guard let resultPointer else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: 0, operation: "liq_histogram_quantize", code: Int(LIQ_INVALID_POINTER.rawValue))
        }
        let result = LIQResult(resultPointer)
        try LIQAttributes.check(liq_set_dithering_level(result.pointer, options.dithering), "liq_set_dithering_level", 0)
        return result
    }

    /// Remaps one image to the global palette.
    ///
    /// Each remapping starts from the palette `quantize()` made (libimagequant may refine
    /// non-fixed colors for the image being remapped, but never reorders them), so index `i`
    /// always means global entry `i` and the written colors are `colors`.
    /// - Returns: indices into `colors` (`localColors` is `nil`) and libimagequant's remapping
    ///   `error`: the mean squared difference per opaque pixel and channel, 0…65025, between the
    ///   image and what is drawn (dithering included). libimagequant's own remapping error is not
    ///   computed per image when dithering, so it cannot tell.
    /// - Parameter remapper: the libimagequant result to remap with: nil for the palette's own
    ///   (one thread at a time), or one of `remappers` per further thread.
    func remap(rgba: [UInt8], width: Int, height: Int, frameIndex: Int, with remapper: LIQResult? = nil) throws -> (pixels: IndexedPixels, error: Double) {
        guard let result = remapper ?? result else { preconditionFailure("GIFGlobalPalette: remap before quantize") }
        let image = try LIQImage(attributes: attributes, rgba: rgba, width: width, height: height, frameIndex: frameIndex)
        let (liqIndices, _) = try result.remap(image, frameIndex: frameIndex)
        var hasTransparent = false
        var nearest = [UInt32: UInt8]()
        var squaredError = 0, opaqueCount = 0
        var indices = [UInt8](repeating: 0, count: width * height)
        for p in 0..<indices.count {
            if rgba[p * 4 + 3] == 0 {
                indices[p] = UInt8(transparentIndex)
                hasTransparent = true
                continue
            }
            let entry = Int(liqIndices[p])
            opaqueCount += 1
            if entry < table.count, table[entry].a >= 128 {
                indices[p] = UInt8(entry)
                let dr = Int(table[entry].r) - Int(rgba[p * 4]), dg = Int(table[entry].g) - Int(rgba[p * 4 + 1])
                let db = Int(table[entry].b) - Int(rgba[p * 4 + 2])
                squaredError += dr * dr + dg * dg + db * db
            } else {
                // Dithering landed an opaque pixel on the transparent entry: nearest opaque color.
                let key = UInt32(rgba[p * 4]) << 16 | UInt32(rgba[p * 4 + 1]) << 8 | UInt32(rgba[p * 4 + 2])
                if let known = nearest[key] {
                    indices[p] = known
                } else {
                    let found = UInt8(GIFQuantizer.nearestEntry(r: rgba[p * 4], g: rgba[p * 4 + 1], b: rgba[p * 4 + 2],
                                                                in: table, among: opaqueEntries))
                    nearest[key] = found
                    indices[p] = found
                }
            }
        }
        return (IndexedPixels(width: width, height: height, indices: indices, localColors: nil,
                              transparentIndex: hasTransparent ? transparentIndex : nil),
                opaqueCount == 0 ? 0 : Double(squaredError) / Double(opaqueCount * 3))
    }
}
