import CGif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes an animated GIF from frames fed in index order. It keeps the last shown source frame
/// and at most two frames whose delays are not final yet; with the default `.global` palette it
/// also holds the changed rectangles (not whole frames) until `finish()` makes the palette, up
/// to `GIFOptions.globalPaletteBufferLimit` bytes, after which it writes as it goes.
///
/// Pipeline, per frame:
/// 1. Timing (`GIFTimeline`): frame `i` is at `t = i / fps` s; boundaries are
///    `round(t × 100)` cs so the total is exact; above `maxFrameRate` frames are dropped evenly.
/// 2. Alpha: the GIF has 1-bit transparency, so alpha < 128 becomes transparent and anything
///    else opaque (frames are normally opaque).
/// 3. A frame identical to the one shown before it extends that frame's delay.
/// 4. Every frame after the first stores only the bounding rectangle of the pixels that changed,
///    with the transparent index for unchanged pixels inside it (disposal "do not dispose").
///    When pixels turn transparent, the previous image is enlarged to cover them and disposed
///    to background.
/// 5. Colors: libimagequant (quality, speed, dithering from `GIFOptions`): one global palette
///    from a histogram of all images with per-image fallback (default), per frame, or shared.
///    A transparent pixel right after a drawn pixel whose color it already shows on screen
///    gets that pixel's index instead, which keeps LZW runs going.
/// 6. giflib writes each image with its graphics control extension; the file loops per
///    `GIFOptions.loopCount` (forever by default).
///
/// The same frames and options give byte-identical files.
///
/// ```swift
/// let encoder = try GIFEncoder(destination: .file(path: "out/animation.gif"),
///                              width: 1179, height: 2556, fps: 60)
/// for frame in frames { try encoder.add(frame) }
/// let summary = try encoder.finish()
/// if let notice = summary.frameRateNotice { print(notice) }
/// ```
///
/// Not thread-safe: call it from one thread (or task) at a time.
public final class GIFEncoder: ReportsFinishProgress {
    /// Where `finish()` reports building the palette and encoding the held images.
    public var finishProgress: EncoderProgress?
    /// Canvas width in px.
    public let width: Int
    /// Canvas height in px.
    public let height: Int
    /// Source frame rate in frames per second.
    public let fps: Int
    /// The options the encoder was created with.
    public let options: GIFOptions
    /// Threads that remap the held images to the global palette (≥ 1; no more are used than
    /// there are processors); the file is the same whatever the number.
    public let jobs: Int
    /// The GIF file, once `finish()` has returned, when the destination is `.memory`; empty otherwise.
    public private(set) var encodedBytes: [UInt8] = []

    private let timeline: GIFTimeline
    private let sink: AnimationByteSink
    private var writer: GIFStreamWriter?
    private var sharedPalette: GIFSharedPalette?
    /// `.global`: the histogram, then the palette (see `GIFGlobalPalette`).
    private var globalPalette: GIFGlobalPalette?
    /// `.global`: frames whose delays are final, held until the palette is made (`finish()`, or
    /// when their crops exceed `GIFOptions.globalPaletteBufferLimit`).
    private var buffered: [PendingFrame] = []
    private var bufferedBytes = 0
    /// `.global`: the palette is made and written; later frames are remapped as they come.
    private var globalPaletteWritten = false
    /// `.global`: the palette missed the minimum quality, so every image gets its own.
    private var globalPaletteRejected = false
    private var localPaletteCount = 0
    /// What a decoder shows after the images written so far and their disposal, packed like
    /// `normalize` (0 = transparent); used to draw unchanged pixels as runs (`continueRuns`).
    private var screen: [UInt32] = []
    /// Encoded frames not written yet, oldest first (at most two: the last one may still be
    /// dropped by `finish()`, which then extends the one before it).
    private var queue: [PendingFrame] = []
    /// The last source frame shown (normalized), i.e. the one behind `queue.last`.
    private var shown: [UInt32]?
    /// A normalized frame's buffer that is no longer needed, for the next frame.
    private var spare: [UInt32]?
    /// The rows (px) where `spare` may differ from `shown`; nil when not known.
    private var spareStale: [Range<Int>]?
    /// The rows (px) where the last source frame added may differ from `shown` (frames dropped
    /// by the timeline are added but not shown); nil when not known.
    private var sinceShown: [Range<Int>]?
    private var sourceFrameCount = 0
    private var droppedFrameCount = 0
    private var mergedFrameCount = 0
    private var writtenFrameCount = 0
    private var durationWritten = 0
    private var isFinished = false

    private struct PendingFrame {
        var sourceIndex: Int
        /// Start of display in cs.
        var start: Int
        /// End of display in cs, known once the next frame starts.
        var end: Int?
        var rect: PixelRect
        /// The pixels to store, `rect.width × rect.height × 4` bytes, alpha 0 (leave the canvas
        /// as it is) or 255; quantized when the frame is written.
        var rgba: [UInt8]
        var disposal: Int32
    }

    /// Creates an encoder; nothing is written until the first frame is complete.
    /// - Parameters:
    ///   - destination: memory (read `encodedBytes` after `finish()`) or a file path.
    ///   - width, height: canvas size in px, 1…65535.
    ///   - fps: source frames per second (frame `i` is at `i / fps` s), 1…65535.
    ///   - options: see `GIFOptions`.
    ///   - jobs: threads for remapping the held images to the global palette; clamped to ≥ 1.
    /// - Throws: `AnimationEncodingError.invalidCanvasSize`, `.invalidFrameRate`,
    ///   `.invalidOption`, or `.writeFailed` when the file cannot be created.
    public init(destination: AnimationDestination = .memory, width: Int, height: Int, fps: Int,
                options: GIFOptions = GIFOptions(), jobs: Int = 1) throws {
        try AnimationCanvas.check(format: "GIF", width: width, height: height, fps: fps, maxSide: 65535)
        try options.validate()
        self.width = width
        self.height = height
        self.fps = fps
        self.options = options
        self.jobs = max(1, jobs)
        timeline = GIFTimeline(fps: Double(fps), maxFrameRate: options.maxFrameRate)
        sink = try AnimationByteSink(destination)
    }

    /// Adds the next source frame (index = number of frames added before it).
    /// - Parameter frame: `width × height` px, straight alpha; alpha < 128 is transparent.
    /// - Throws: `AnimationEncodingError.frameSizeMismatch`, `.alreadyFinished`,
    ///   `.qualityTooLow`, `.quantizationFailed`, `.gifFailed`, `.delayTooLong`, `.writeFailed`.
    public func add(_ frame: RGBAImage) throws { try add(frame, changedRows: nil) }

    /// Adds the next source frame, whose pixels outside `changedRows` are those of the frame
    /// added before it: only those rows are read and compared (the render knows them from the
    /// display lists, ``RenderedFrame/changedRows``). The file is the same as with `add(_:)`.
    /// - Parameters:
    ///   - frame: `width × height` px, straight alpha; alpha < 128 is transparent.
    ///   - changedRows: rows (px, sorted and disjoint), or nil when not known (every row).
    /// - Throws: as `add(_:)`.
    public func add(_ frame: RGBAImage, changedRows: [Range<Int>]?) throws {
        guard !isFinished else { throw AnimationEncodingError.alreadyFinished }
        let index = sourceFrameCount
        guard frame.width == width, frame.height == height else {
            throw AnimationEncodingError.frameSizeMismatch(frameIndex: index, width: frame.width, height: frame.height,
                                                           expectedWidth: width, expectedHeight: height)
        }
        sourceFrameCount += 1
        // The rows where this frame may differ from the one shown.
        let differs = shown == nil ? nil : RowRanges.union(sinceShown, changedRows.map { RowRanges.clamped($0, height: height) })
        guard let start = timeline.displayStart(ofFrame: index) else {
            droppedFrameCount += 1
            sinceShown = differs
            return
        }
        // The buffer of the frame shown before the last one is reused: no fresh mapping a frame.
        // It is brought up to date where it may differ from the frame: its stale rows from
        // `shown`, then the rows that changed from the frame.
        var current = spare ?? []
        let stale = spare == nil ? nil : spareStale
        spare = nil
        if let shown, let differs, let stale, current.count == shown.count {
            GIFEncoder.copyRows(stale, from: shown, into: &current, width: width)
            GIFEncoder.normalize(frame, rows: differs, into: &current)
        } else {
            GIFEncoder.normalize(frame, into: &current)
        }
        let bounds = shown.map { GIFEncoder.differenceBounds(current, $0, width: width, height: height, rows: differs) }
        if let bounds, bounds.changed == nil {
            mergedFrameCount += 1
            spare = current
            spareStale = []
            sinceShown = []
            return
        }
        let encoded = try encode(current, bounds: bounds, sourceIndex: index, start: start)
        if !queue.isEmpty { queue[queue.count - 1].end = start }
        queue.append(encoded)
        spare = shown
        spareStale = differs
        shown = current
        sinceShown = []
        if queue.count > 2 {
            try emit(queue.removeFirst())
        }
    }

    /// Writes the remaining frames and the trailer, and moves a file into place.
    /// - Returns: counts and the exact duration (`round(frames × 100 / fps)` cs).
    /// - Throws: `AnimationEncodingError.noFrames`, `.alreadyFinished`, `.gifFailed`,
    ///   `.delayTooLong`, `.writeFailed`.
    @discardableResult
    public func finish() throws -> GIFSummary {
        guard !isFinished else { throw AnimationEncodingError.alreadyFinished }
        isFinished = true
        guard sourceFrameCount > 0 else { throw AnimationEncodingError.noFrames }
        let end = timeline.end(frameCount: sourceFrameCount)
        // Above the frame-rate cap the last kept frame can start less than 2 cs before the end;
        // browsers would stretch such a delay, so the frame before it is extended instead.
        if queue.count == 2, end - queue[1].start < 2 {
            queue.removeLast()
            droppedFrameCount += 1
            queue[0].disposal = Int32(DISPOSE_DO_NOT)
        }
        queue[queue.count - 1].end = end
        for frame in queue { try emit(frame) }
        queue.removeAll()
        if options.palette == .global, !globalPaletteWritten { try writeBuffered() }
        try writer?.close()
        writer = nil
        try sink.commit()
        encodedBytes = sink.bytes
        var notice: String?
        if droppedFrameCount > 0 {
            notice = "GIF plays at most \(GIFEncoder.format(options.maxFrameRate)) fps: \(droppedFrameCount) of \(sourceFrameCount) frames at \(GIFEncoder.format(Double(fps))) fps were dropped evenly."
        }
        return GIFSummary(sourceFrameCount: sourceFrameCount, writtenFrameCount: writtenFrameCount,
                          droppedFrameCount: droppedFrameCount, mergedFrameCount: mergedFrameCount,
                          durationCentiseconds: durationWritten, byteCount: sink.byteCount, frameRateNotice: notice,
                          localPaletteCount: localPaletteCount)
    }

    // MARK: - Frame differencing

    /// Chooses the rectangle and the pixels to store for a new frame, quantizes them, and
    /// updates the disposal of the previous frame when pixels turn transparent.
    /// - Parameter bounds: `differenceBounds` against `shown` (nil for the first frame).
    private func encode(_ current: [UInt32], bounds: (changed: PixelRect?, turnsTransparent: PixelRect?)?,
                        sourceIndex: Int, start: Int) throws -> PendingFrame {
        let full = PixelRect(x: 0, y: 0, width: width, height: height)
        guard let previous = shown, let bounds else {
            return try pendingFrame(sourceIndex, start, full, current, written: { _, _ in true })
        }
        var cleared: PixelRect?
        if let turnsTransparent = bounds.turnsTransparent {
            // Only disposal can make a pixel transparent again: dispose the previous image to
            // background, enlarged first (every pixel explicit) so that it covers those pixels.
            var last = queue[queue.count - 1]
            let area = options.storesChangedRectanglesOnly ? last.rect.union(turnsTransparent) : full
            if area != last.rect {
                last = try pendingFrame(last.sourceIndex, last.start, area, previous, written: { _, _ in true })
                last.end = queue[queue.count - 1].end
            }
            last.disposal = Int32(DISPOSE_BACKGROUND)
            queue[queue.count - 1] = last
            cleared = area
        }
        guard options.storesChangedRectanglesOnly else {
            return try pendingFrame(sourceIndex, start, full, current, written: { _, _ in true })
        }
        // Inside the cleared area every opaque pixel must be drawn; elsewhere only changes.
        let mustDraw: (Int, Int) -> Bool = { x, y in
            let p = y * self.width + x
            if let cleared, cleared.contains(x: x, y: y) { return current[p] != 0 }
            return current[p] != previous[p]
        }
        var rect = bounds.changed ?? full
        if let cleared {
            rect = GIFEncoder.bounds(in: rect.union(cleared), where: mustDraw)
                ?? PixelRect(x: cleared.x, y: cleared.y, width: 1, height: 1)
        }
        return try pendingFrame(sourceIndex, start, rect, current, written: mustDraw)
    }

    /// Quantizes `rect` of `source`, drawing the pixels where `written(x, y)` and leaving the
    /// others transparent.
    private func pendingFrame(_ sourceIndex: Int, _ start: Int, _ rect: PixelRect, _ source: [UInt32],
                              written: (Int, Int) -> Bool) throws -> PendingFrame {
        var rgba = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        var o = 0
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                if written(x, y) {
                    let value = source[y * width + x]
                    rgba[o] = UInt8(truncatingIfNeeded: value)
                    rgba[o + 1] = UInt8(truncatingIfNeeded: value >> 8)
                    rgba[o + 2] = UInt8(truncatingIfNeeded: value >> 16)
                    rgba[o + 3] = UInt8(truncatingIfNeeded: value >> 24)
                }
                o += 4
            }
        }
        return PendingFrame(sourceIndex: sourceIndex, start: start, end: nil, rect: rect, rgba: rgba,
                            disposal: Int32(DISPOSE_DO_NOT))
    }

    /// Passes on a frame whose delay is final: written at once, or with `.global` held (and its
    /// colors counted) until the palette is made.
    private func emit(_ frame: PendingFrame) throws {
        guard options.palette == .global, !globalPaletteWritten else { return try write(frame) }
        if globalPalette == nil {
            globalPalette = try GIFGlobalPalette(options: options, threads: min(jobs, WorkerPool.processorCount))
        }
        globalPalette!.add(rgba: frame.rgba, width: frame.rect.width, height: frame.rect.height, frameIndex: frame.sourceIndex)
        buffered.append(frame)
        bufferedBytes += frame.rgba.count
        if bufferedBytes > options.globalPaletteBufferLimit { try writeBuffered() }
    }

    /// Makes the global palette from the frames counted so far and writes the held frames.
    ///
    /// Remapping an image to the palette (or giving it its own) does not depend on the other
    /// images, so the held images are quantized on `jobs` threads, each taking the next image
    /// as it is free, with its own libimagequant result; they are then written in order. Only
    /// what `write` does to the screen (`continueRuns`) needs the images before.
    private func writeBuffered() throws {
        globalPaletteWritten = true
        finishProgress?(.palette, 0, 1)
        if let globalPalette, try !globalPalette.quantize() {
            globalPaletteRejected = true
        }
        finishProgress?(.palette, 1, 1)
        // Without the palette, images get palettes of their own, which any thread can make.
        let threads = globalPaletteRejected ? globalPalette?.threads ?? 1 : globalPalette?.remappingThreads ?? 1
        // A delay that is too long fails before the images after it are quantized.
        let tooLong = buffered.firstIndex { frame in (frame.end ?? frame.start) - frame.start > 65535 }
        let frames = buffered[..<(tooLong ?? buffered.count)]
        let firstWritten = writtenFrameCount
        // Remapping and writing each image are the encoding steps: 2 per image.
        let steps = 2 * frames.count
        finishProgress?.start(.encoding, total: steps)
        let quantized = try WorkerPool.map(count: frames.count, jobs: threads) { [self] thread, i in
            defer { finishProgress?.step(.encoding, of: steps) }
            return try quantizeGlobal(frames[i], isFirstImage: firstWritten + i == 0, thread: thread)
        }
        for (frame, (pixels, local)) in zip(frames, quantized) {
            if local { localPaletteCount += 1 }
            try write(frame, pixels)
            finishProgress?.step(.encoding, of: steps)
        }
        if let tooLong { try write(buffered[tooLong]) }
        buffered.removeAll()
        bufferedBytes = 0
    }

    /// `.global`: the indexed pixels of a frame, and whether it got a palette of its own. The
    /// first image keeps its own palette: it is the only full-size one, holds most of the
    /// colors, and what it draws stays on screen wherever nothing changes later.
    /// - Parameter thread: the calling thread's number (see `GIFGlobalPalette.remap`).
    private func quantizeGlobal(_ frame: PendingFrame, isFirstImage: Bool, thread: Int) throws -> (IndexedPixels, local: Bool) {
        let (rgba, rect, index) = (frame.rgba, frame.rect, frame.sourceIndex)
        if let globalPalette, !globalPaletteRejected, !isFirstImage {
            let (pixels, error) = try globalPalette.remap(rgba: rgba, width: rect.width, height: rect.height, frameIndex: index, thread: thread)
            if error <= GIFEncoder.globalPaletteErrorLimit {
                return (pixels, false)
            }
        }
        return (try GIFQuantizer.quantizeLocal(rgba: rgba, width: rect.width, height: rect.height, options: options, frameIndex: index), true)
    }

    /// The indexed pixels of a frame, per `GIFOptions.palette`.
    private func quantize(_ frame: PendingFrame) throws -> IndexedPixels {
        let (rgba, rect, index) = (frame.rgba, frame.rect, frame.sourceIndex)
        switch options.palette {
        case .perFrame:
            localPaletteCount += 1
            return try GIFQuantizer.quantizeLocal(rgba: rgba, width: rect.width, height: rect.height, options: options, frameIndex: index)
        case .shared:
            if sharedPalette == nil {
                // The first frame is always full-size and opaque where the source is.
                sharedPalette = try GIFSharedPalette(firstFrame: rgba, width: rect.width, height: rect.height, options: options)
            }
            return try sharedPalette!.remap(rgba: rgba, width: rect.width, height: rect.height, frameIndex: index)
        case .global:
            let (pixels, local) = try quantizeGlobal(frame, isFirstImage: writtenFrameCount == 0, thread: 0)
            if local { localPaletteCount += 1 }
            return pixels
        }
    }

    /// The highest mean squared error per opaque pixel and channel (see `GIFGlobalPalette.remap`)
    /// at which an image keeps the global palette; above it, the image gets its own palette.
    static let globalPaletteErrorLimit = 4.0

    /// Writes a frame, quantized here unless `quantized` is given.
    private func write(_ frame: PendingFrame, _ quantized: IndexedPixels? = nil) throws {
        guard let end = frame.end else { preconditionFailure("GIFEncoder: frame written before its end is known") }
        let delay = end - frame.start
        guard delay <= 65535 else { throw AnimationEncodingError.delayTooLong(centiseconds: delay) }
        var pixels = try quantized ?? quantize(frame)
        if writer == nil {
            let globalColors = options.palette == .global && !globalPaletteRejected ? globalPalette?.colors : sharedPalette?.colors
            writer = try GIFStreamWriter(sink: sink, width: width, height: height,
                                         globalColors: globalColors, loopCount: options.loopCount)
            screen = [UInt32](repeating: 0, count: width * height)
        }
        let colors = pixels.localColors ?? writer!.globalColors ?? []
        continueRuns(&pixels, at: frame.rect, colors: colors)
        try writer!.writeImage(pixels, at: frame.rect, delay: delay, disposal: frame.disposal)
        updateScreen(pixels, at: frame.rect, colors: colors, disposal: frame.disposal)
        writtenFrameCount += 1
        durationWritten += delay
    }

    /// Size lever for LZW: a transparent pixel whose on-screen color is exactly the color of the
    /// index drawn just before it in the row gets that index instead, which extends the run and
    /// shows the same color. (Unchanged pixels inside the rectangle are transparent; next to
    /// changed pixels of the same color they would otherwise break runs.)
    private func continueRuns(_ pixels: inout IndexedPixels, at rect: PixelRect, colors: [UInt8]) {
        guard let transparent = pixels.transparentIndex else { return }
        let transparentIndex = UInt8(transparent)
        var packed = [UInt32](repeating: 0, count: colors.count / 3)
        for i in packed.indices where i != transparent {
            packed[i] = UInt32(colors[i * 3]) | UInt32(colors[i * 3 + 1]) << 8 | UInt32(colors[i * 3 + 2]) << 16 | 0xFF00_0000
        }
        let canvasWidth = width
        screen.withUnsafeBufferPointer { screen in
            packed.withUnsafeBufferPointer { packed in
                pixels.indices.withUnsafeMutableBufferPointer { indices in
                    for y in 0..<rect.height {
                        let row = y * rect.width, canvasRow = (rect.y + y) * canvasWidth + rect.x
                        var last = transparentIndex
                        for x in 0..<rect.width {
                            let index = indices[row + x]
                            if index == transparentIndex, last != transparentIndex,
                               Int(last) < packed.count, packed[Int(last)] == screen[canvasRow + x] {
                                indices[row + x] = last
                            } else {
                                last = index
                            }
                        }
                    }
                }
            }
        }
    }

    /// Applies a written image and its disposal to `screen`.
    private func updateScreen(_ pixels: IndexedPixels, at rect: PixelRect, colors: [UInt8], disposal: Int32) {
        var packed = [UInt32](repeating: 0xFF00_0000, count: 256)
        for i in 0..<min(256, colors.count / 3) {
            packed[i] = UInt32(colors[i * 3]) | UInt32(colors[i * 3 + 1]) << 8 | UInt32(colors[i * 3 + 2]) << 16 | 0xFF00_0000
        }
        let transparent = pixels.transparentIndex ?? -1, background = disposal == Int32(DISPOSE_BACKGROUND)
        let canvasWidth = width
        packed.withUnsafeBufferPointer { packed in
            pixels.indices.withUnsafeBufferPointer { indices in
                screen.withUnsafeMutableBufferPointer { screen in
                    for y in 0..<rect.height {
                        let row = y * rect.width, canvasRow = (rect.y + y) * canvasWidth + rect.x
                        for x in 0..<rect.width {
                            let index = Int(indices[row + x])
                            if background {
                                screen[canvasRow + x] = 0
                            } else if index != transparent {
                                screen[canvasRow + x] = packed[index]
                            }
                        }
                    }
                }
            }
        }
    }

    // MARK: - Pixels

    /// Packs each pixel as `r | g << 8 | b << 16 | a << 24` with GIF's 1-bit alpha applied:
    /// alpha < 128 becomes 0 (all channels), anything else 255.
    /// Writes into `packed`, which is resized to `width × height` when it is not that size.
    static func normalize(_ image: RGBAImage, into packed: inout [UInt32]) {
        let count = image.width * image.height
        if packed.count != count { packed = [UInt32](repeating: 0, count: count) }
        normalize(image, rows: [0..<image.height], into: &packed)
    }

    /// `normalize` of the rows `rows` (px, within the image) only, into `packed`, which is
    /// `width × height` already.
    static func normalize(_ image: RGBAImage, rows: [Range<Int>], into packed: inout [UInt32]) {
        image.pixels.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: UInt32.self) { words in
                packed.withUnsafeMutableBufferPointer { buffer in
                    for band in rows {
                        // One word a pixel, in a loop the compiler vectorizes: R, G, B, A bytes
                        // read as a little-endian word are already r | g << 8 | …
                        for p in band.lowerBound * image.width..<band.upperBound * image.width {
                            let value = UInt32(littleEndian: words[p])
                            buffer[p] = value < 0x8000_0000 ? 0 : value | 0xFF00_0000
                        }
                    }
                }
            }
        }
    }

    /// Copies the rows `rows` of `source` into `target` (both `width` px wide, equal sizes).
    static func copyRows(_ rows: [Range<Int>], from source: [UInt32], into target: inout [UInt32], width: Int) {
        source.withUnsafeBufferPointer { from in
            target.withUnsafeMutableBufferPointer { to in
                for band in rows where !band.isEmpty {
                    (to.baseAddress! + band.lowerBound * width).update(from: from.baseAddress! + band.lowerBound * width, count: band.count * width)
                }
            }
        }
    }

    /// Bounding rectangles of the pixels that differ, and of those that turn from opaque to
    /// transparent, looking only at `rows` (px, sorted and disjoint; nil: every row).
    static func differenceBounds(_ current: [UInt32], _ previous: [UInt32], width: Int, height: Int, rows: [Range<Int>]? = nil)
        -> (changed: PixelRect?, turnsTransparent: PixelRect?) {
        var changed = BoundsAccumulator(), cleared = BoundsAccumulator()
        current.withUnsafeBufferPointer { cur in
            previous.withUnsafeBufferPointer { prev in
                for y in (rows ?? [0..<height]).joined() {
                    let row = y * width
                    if memcmp(cur.baseAddress! + row, prev.baseAddress! + row, width * 4) == 0 { continue }
                    // The first and last pixels that differ bound the row's changes; only those
                    // between them can turn transparent.
                    var first = row, last = row + width - 1
                    while cur[first] == prev[first] { first += 1 }
                    while cur[last] == prev[last] { last -= 1 }
                    changed.add(first - row, y)
                    changed.add(last - row, y)
                    for p in first...last where cur[p] == 0 && prev[p] != 0 {
                        cleared.add(p - row, y)
                    }
                }
            }
        }
        return (changed.rect, cleared.rect)
    }

    /// The bounding rectangle of the pixels of `area` where `predicate(x, y)` holds.
    static func bounds(in area: PixelRect, where predicate: (Int, Int) -> Bool) -> PixelRect? {
        var accumulator = BoundsAccumulator()
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX where predicate(x, y) {
                accumulator.add(x, y)
            }
        }
        return accumulator.rect
    }

    private struct BoundsAccumulator {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        mutating func add(_ x: Int, _ y: Int) {
            minX = min(minX, x); maxX = max(maxX, x)
            minY = min(minY, y); maxY = max(maxY, y)
        }
        var rect: PixelRect? {
            maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension GIFEncoder: AnimationEncoder {}
extension GIFSummary: AnimationSummary {
    /// The sentence about frames dropped to fit GIF's frame rates, if any.
    public var notice: String? { frameRateNotice }
}
