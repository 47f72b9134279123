import CartRenderRaster
import CartRenderTestSupport
import Foundation
import XCTest

/// Baselines rewritten losslessly by a PNG optimiser (Imgbot, oxipng, zopflipng; here optipng
/// and Pillow, Debian's `optipng` and `python3-pil`) stay cartrender's: the ledger records each
/// recorded frame's decoded pixels, so `verify --record failed` (and review's Accept, which is
/// that) records over them; a frame whose pixels changed stays the user's; a ledger written
/// before pixel digests says how to adopt such a baseline, and one `--record all` does.
final class OptimisedBaselineTests: XCTestCase {
    static let options = ["--fps", "4", "--scale", "1", "--quiet"]

    override func setUp() { signal(SIGINT, SIG_DFL) }

    /// Writes `orange.json` and `teal.json` into `dir`: Examples/dark.json with that tint.
    static func writeScenes(in dir: String) throws {
        let dark = try String(contentsOfFile: Binary.examples + "/dark.json", encoding: .utf8)
        XCTAssertTrue(dark.contains(#""tint": "indigo""#))
        for tint in ["orange", "teal"] {
            try dark.replacingOccurrences(of: #""tint": "indigo""#, with: #""tint": "\#(tint)""#)
                .write(toFile: dir + "/\(tint).json", atomically: true, encoding: .utf8)
        }
    }

    /// Rewrites every `frame_*.png` of `directory` losslessly, in turns: Pillow with
    /// `optimize`, optipng (`-force`: a new file even when not smaller), Pillow as a palette
    /// image when the frame has at most 256 colours (else as RGB when opaque), and the second
    /// frame as 16-bit RGBA; every frame's bytes change, none of its pixels.
    static func optimise(_ directory: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let frames = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("frame_") && $0.hasSuffix(".png") }.sorted()
        XCTAssertFalse(frames.isEmpty, file: file, line: line)
        let before = try frames.map { try Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0)) }
        let r = try Binary.run(["-c", pillowScript] + frames, in: directory, executable: "/usr/bin/python3")
        XCTAssertEqual(r.status, 0, "python3-pil and optipng are test packages (make debian): \(r.stderr)", file: file, line: line)
        for (name, old) in zip(frames, before) {
            XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)), old, "\(name): rewritten", file: file, line: line)
        }
    }

    private static let pillowScript = #"""
import sys, subprocess, zlib, struct
from PIL import Image
for i, p in enumerate(sys.argv[1:]):
    im = Image.open(p); im.load(); im = im.convert('RGBA')
    w, h = im.size
    if i == 1:
        raw = im.tobytes()
        rows = b''.join(b'\x00' + bytes(b for v in raw[y * w * 4:(y + 1) * w * 4] for b in (v, v)) for y in range(h))
        def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
        open(p, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 16, 6, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(rows, 6)) + chunk(b'IEND', b''))
    elif i % 3 == 0:
        im.save(p, optimize=True)
    elif i % 3 == 1:
        subprocess.run(['optipng', '-quiet', '-force', '-o2', '-strip', 'all', p], check=True)
    else:
        colours = im.getcolors(256)
        if colours is not None:
            colours = [c for _, c in colours]
            index = {c: k for k, c in enumerate(colours)}
            q = Image.frombytes('P', im.size, bytes(index[c] for c in im.getdata()))
            q.putpalette([v for c in colours for v in c[:3]])
            q.save(p, transparency=bytes(c[3] for c in colours))
        elif im.getextrema()[3] == (255, 255):
            im.convert('RGB').save(p, compress_level=9)
        else:
            im.save(p, compress_level=1)
"""#

    private func files(_ directory: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where !name.hasPrefix(".") {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return out
    }

    /// The issue's case: a baseline recorded, optimised, then the scene changes: `verify
    /// --record failed` records the changed frames over the optimised ones (it exited 73 when
    /// the ledger compared bytes only), and the baseline then passes.
    func testRecordFailedRecordsOverAnOptimisedBaseline() throws {
        let dir = Binary.tempDir(self)
        try Self.writeScenes(in: dir)
        let record = try Binary.run(["verify", "orange.json", "--baseline", "base", "--record", "all"] + Self.options, in: dir)
        XCTAssertEqual(record.status, 0, record.stderr)
        let ledger = try String(contentsOfFile: dir + "/base/" + OwnershipFixture.ledgerName, encoding: .utf8)
        XCTAssertTrue(ledger.contains("# pixels ") && ledger.contains("  frame_0001.png\n# pixels "), ledger)
        try Self.optimise(dir + "/base")
        let pass = try Binary.run(["verify", "orange.json", "--baseline", "base"] + Self.options, in: dir)
        XCTAssertEqual(pass.status, 0, pass.stdout + pass.stderr)

        let update = try Binary.run(["verify", "teal.json", "--baseline", "base", "--record", "failed"] + Self.options, in: dir)
        XCTAssertEqual(update.status, 0, update.stdout + update.stderr)
        XCTAssertEqual(update.stderr, "")
        let after = try Binary.run(["verify", "teal.json", "--baseline", "base"] + Self.options, in: dir)
        XCTAssertEqual(after.status, 0, after.stdout + after.stderr)
        // The ledger's SHA-256 of a frame kept as the optimiser left it is now that file's.
        let check = try Binary.run(["-c", "--strict", "--quiet", OwnershipFixture.ledgerName], in: dir + "/base", executable: "/usr/bin/sha256sum")
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }

    /// A frame whose pixels changed (a user's edit) is not cartrender's, however it is encoded:
    /// `--record failed` stops with 73 and the edit stays.
    func testAFrameWhosePixelsChangedStaysTheUsers() throws {
        let dir = Binary.tempDir(self)
        try Self.writeScenes(in: dir)
        XCTAssertEqual(try Binary.run(["verify", "orange.json", "--baseline", "base", "--record", "all"] + Self.options, in: dir).status, 0)
        try Self.optimise(dir + "/base")
        let edit = try Binary.run(["-c", "from PIL import Image\nim = Image.open('frame_0003.png').convert('RGBA')\n"
                                   + "r, g, b, a = im.getpixel((5, 5)); im.putpixel((5, 5), (r ^ 1, g, b, 255)); im.save('frame_0003.png')"],
                                  in: dir + "/base", executable: "/usr/bin/python3")
        XCTAssertEqual(edit.status, 0, edit.stderr)
        let before = try files(dir + "/base")
        let r = try Binary.run(["verify", "teal.json", "--baseline", "base", "--record", "failed"] + Self.options, in: dir)
        XCTAssertEqual(r.status, 73, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("cartrender: base/frame_0003.png: has changed since cartrender wrote it (neither its bytes nor its decoded pixels are those cartrender wrote); it is left alone: remove it, or write somewhere else\n"), r.stderr)
        XCTAssertEqual(try files(dir + "/base"), before)
    }

    /// A ledger written before pixel digests: the refusal says that one `--record all` adopts
    /// the baseline, and it does (with the scene it was recorded from: the optimised frames'
    /// pixels are exactly what it renders); after that an optimiser's rewrite records again.
    func testALedgerWithoutPixelDigestsIsAdoptedByOneRecordAll() throws {
        let dir = Binary.tempDir(self)
        try Self.writeScenes(in: dir)
        XCTAssertEqual(try Binary.run(["verify", "orange.json", "--baseline", "base", "--record", "all"] + Self.options, in: dir).status, 0)
        try OwnershipFixture.forgetPixels(in: dir + "/base")
        try Self.optimise(dir + "/base")
        let before = try files(dir + "/base")
        let refused = try Binary.run(["verify", "teal.json", "--baseline", "base", "--record", "failed"] + Self.options, in: dir)
        XCTAssertEqual(refused.status, 73, refused.stdout + refused.stderr)
        XCTAssertTrue(refused.stderr.contains("one `cartrender verify --record all` with the scene it was recorded from adopts such a baseline"), refused.stderr)
        XCTAssertEqual(try files(dir + "/base"), before)

        let adopt = try Binary.run(["verify", "orange.json", "--baseline", "base", "--record", "all"] + Self.options, in: dir)
        XCTAssertEqual(adopt.status, 0, adopt.stdout + adopt.stderr)
        XCTAssertTrue(try String(contentsOfFile: dir + "/base/" + OwnershipFixture.ledgerName, encoding: .utf8).contains("# pixels "))
        try Self.optimise(dir + "/base")
        let update = try Binary.run(["verify", "teal.json", "--baseline", "base", "--record", "failed"] + Self.options, in: dir)
        XCTAssertEqual(update.status, 0, update.stdout + update.stderr)
    }
}
