import CImageQuant

/// One palette for the whole animation built from every image (`GIFPaletteStrategy.global`).
///
/// As images arrive, their pixels (the changed rectangles, unchanged pixels transparent) go into
/// one libimagequant histogram (`liq_histogram_add_image`), which keeps only color counts; the
/// counting runs on a thread of its own, beside the encoder's comparison of frames.
/// `quantize()` turns it into one palette with a fixed transparent entry; it is written once as
/// the global color table.
///
/// Images are remapped on several threads, and a `liq_result` keeps the last remapping in
/// itself, so each thread needs a result of its own. Those remappers are all made alike from the
/// palette alone: a histogram holding just the palette's colors, each one fixed, quantized to
/// exactly that many colors, gives a result whose palette is the global one, entry for entry.
/// An image therefore gets the same indices whichever thread remaps it, and every image is
/// counted once whatever the number of threads. Remapping dithers (the options' level) against
/// the very colors the file shows: every entry is fixed, so libimagequant does not refine them
/// for the image. It also reports the remapping error, so that the encoder can give an image its
/// own palette instead when the global one does not represent it well.
final class GIFGlobalPalette {
    /// The global color table, R, G, B bytes per entry (only valid after `quantize()`).
    private(set) var colors: [UInt8] = []
    /// The entry that leaves the canvas untouched.
    private(set) var transparentIndex = 0
    /// Quality of the palette for the whole histogram, 0…100 (`liq_get_quantization_quality`).
    private(set) var quantizationQuality = 0
    /// Threads that remap images (≥ 1).
    let threads: Int
    private let attributes: LIQAttributes
    private let options: GIFOptions
    /// The histogram of every image added; nil once quantized.
    private var histogram: OpaquePointer?
    /// The thread that adds images to `histogram`.
    private let counting = SerialThread()
    /// One result per remapping thread, all made from the palette alike (after `quantize()`).
    private var remappers: [LIQResult] = []
    /// libimagequant's palette (`colors` plus alpha).
    private var table: [liq_color] = []
    private var opaqueEntries: [Int] = []

    /// - Parameter threads: threads that will remap images (≥ 1).
    /// - Throws: `AnimationEncodingError.quantizationFailed`.
    init(options: GIFOptions, threads: Int = 1) throws {
        self.options = options
        self.threads = max(1, threads)
        attributes = try LIQAttributes(options: options, frameIndex: 0)
        guard let histogram = liq_histogram_create(attributes.pointer) else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: 0, operation: "liq_histogram_create", code: Int(LIQ_OUT_OF_MEMORY.rawValue))
        }
        self.histogram = histogram
        try LIQAttributes.check(liq_histogram_add_fixed_color(histogram, liq_color(r: 0, g: 0, b: 0, a: 0), 0), "liq_histogram_add_fixed_color", 0)
    }

    deinit {
        // Counting still under way (an encoder that failed) finishes before its histogram goes.
        try? counting.wait()
        if let histogram { liq_histogram_destroy(histogram) }
    }

    /// Counts the colors of one image (`width × height × 4` bytes, alpha 0 or 255), on a thread
    /// of the palette's own, in the order the images are added, while the caller goes on;
    /// `quantize()` reports a failure.
    func add(rgba: [UInt8], width: Int, height: Int, frameIndex: Int) {
        guard let histogram else { preconditionFailure("GIFGlobalPalette: add after quantize") }
        let attributes = attributes
        counting.async {
            let image = try LIQImage(attributes: attributes, rgba: rgba, width: width, height: height, frameIndex: frameIndex)
            try LIQAttributes.check(liq_histogram_add_image(histogram, attributes.pointer, image.pointer), "liq_histogram_add_image", frameIndex)
        }
    }

    /// Quantizes the histogram into the global palette, makes the remappers and frees the histogram.
    /// - Returns: false when the palette cannot reach the minimum quality (the caller then uses
    ///   per-frame palettes, which fail or not frame by frame).
    /// - Throws: `AnimationEncodingError.quantizationFailed` for other libimagequant errors,
    ///   counting an image's colors included.
    func quantize() throws -> Bool {
        guard let histogram else { preconditionFailure("GIFGlobalPalette: quantized twice") }
        defer { liq_histogram_destroy(histogram); self.histogram = nil }
        try counting.wait()
        guard let result = try quantize(histogram, attributes) else { return false }
        quantizationQuality = Int(liq_get_quantization_quality(result.pointer))
        guard let palette = liq_get_palette(result.pointer) else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: 0, operation: "liq_get_palette", code: Int(LIQ_INVALID_POINTER.rawValue))
        }
        (table, colors, transparentIndex) = GIFColorTable.make(palette)
        opaqueEntries = table.indices.filter { table[$0].a >= 128 }
        for _ in 0..<threads {
            guard let remapper = try remapper(for: table) else { break }
            remappers.append(remapper)
        }
        // A palette libimagequant does not rebuild entry for entry (not seen so far): its own
        // result then remaps every image, on one thread.
        if remappers.count < threads { remappers = [result] }
        return true
    }

    /// Threads that may call `remap` at once after `quantize()`, each with its own `thread` number.
    var remappingThreads: Int { max(1, remappers.count) }

    /// A result whose palette is `table` entry for entry, every entry fixed, or nil when
    /// libimagequant gives back another palette.
    private func remapper(for table: [liq_color]) throws -> LIQResult? {
        let attributes = try LIQAttributes(options: options, maxColors: max(2, table.count), frameIndex: 0)
        guard let histogram = liq_histogram_create(attributes.pointer) else {
            throw AnimationEncodingError.quantizationFailed(frameIndex: 0, operation: "liq_histogram_create", code: Int(LIQ_OUT_OF_MEMORY.rawValue))
        }
        defer { liq_histogram_destroy(histogram) }
        // The colors as histogram entries (a histogram cannot be empty), each also fixed: entries
        // equal to a fixed color drop out, and the fixed colors make the palette, in order.
        let entries = table.map { liq_histogram_entry(color: $0, count: 1) }
        try LIQAttributes.check(liq_histogram_add_colors(histogram, attributes.pointer, entries, Int32(entries.count), 0), "liq_histogram_add_colors", 0)
        for color in table {
            try LIQAttributes.check(liq_histogram_add_fixed_color(histogram, color, 0), "liq_histogram_add_fixed_color", 0)
        }
        guard let result = try quantize(histogram, attributes), let palette = liq_get_palette(result.pointer) else { return nil }
        let (rebuilt, _, _) = GIFColorTable.make(palette)
        guard rebuilt.count == table.count,
              zip(rebuilt, table).allSatisfy({ $0.r == $1.r && $0.g == $1.g && $0.b == $1.b && $0.a == $1.a }) else { return nil }
        return result
    }

    /// A histogram quantized with the options' dithering level, or nil below the minimum quality.
    private func quantize(_ histogram: OpaquePointer, _ attributes: LIQAttributes) throws -> LIQResult? {
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

    /// Remaps one image to the global palette: index `i` always means global entry `i`.
    /// - Returns: indices into `colors` (`localColors` is `nil`) and the remapping `error`: the
    ///   mean squared difference per opaque pixel and channel, 0…65025, between the image and what
    ///   is drawn (dithering included). libimagequant's own remapping error is not computed per
    ///   image when dithering, so it cannot tell.
    /// - Parameter thread: the calling thread's number, `0..<remappingThreads`: no two threads
    ///   may use the same number at once.
    func remap(rgba: [UInt8], width: Int, height: Int, frameIndex: Int, thread: Int = 0) throws -> (pixels: IndexedPixels, error: Double) {
        guard thread < remappers.count else { preconditionFailure("GIFGlobalPalette: remap before quantize, or thread \(thread) of \(remappers.count)") }
        let result = remappers[thread]
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
