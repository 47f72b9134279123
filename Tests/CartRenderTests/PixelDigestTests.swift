@testable import CartRender
import CartRenderCore
import CartRenderRaster
import Foundation
import XCTest

/// ``PixelDigest``: a PNG re-encoded losslessly by Pillow (Debian's python3-pil) — as a palette,
/// gray, 16-bit or RGB image, or with other colours under fully transparent pixels — has the
/// digest of the RGBA PNG cartrender wrote; a changed pixel does not. And the ledger keeps the
/// digests in comment lines that `sha256sum -c` skips.
final class PixelDigestTests: XCTestCase {
    /// `/usr/bin/python3` with Pillow (python3-pil, a test package of the Makefile).
    static let python = "/usr/bin/python3"

    private func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "cartrender-pixel-digest-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        return dir
    }

    /// A 7×5 image of four colours, one column fully transparent, one half transparent.
    private func image(gray: Bool = false, opaque: Bool = false) -> RGBAImage {
        var image = RGBAImage(width: 7, height: 5)
        for y in 0..<5 {
            for x in 0..<7 {
                let i = (y * 7 + x) * 4
                let v: [UInt8] = gray ? [UInt8(x * 30), UInt8(x * 30), UInt8(x * 30), 255]
                    : [[255, 149, 0, 255], [48, 176, 199, 255], [20, 20, 20, 128], [0, 0, 0, 0]][(x + y) % 4]
                image.pixels.replaceSubrange(i..<i + 4, with: opaque ? Array(v.prefix(3)) + [255] : v)
            }
        }
        return image
    }

    /// Runs Pillow on `png`: `kind` is `palette`, `gray`, `rgba16`, `rgb`, `optimize` or `dirty`
    /// (fully transparent pixels given a colour).
    private func rewrite(_ png: [UInt8], _ kind: String) throws -> [UInt8] {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(png).write(to: URL(fileURLWithPath: dir + "/in.png"))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.python)
        p.arguments = ["-c", Self.pillowScript, kind, dir + "/in.png", dir + "/out.png"]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let said = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "python3-pil is a test package (make debian): " + String(decoding: said, as: UTF8.self))
        let out = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/out.png")))
        XCTAssertNotEqual(out, png, "\(kind): Pillow wrote other bytes")
        return out
    }

    /// Pillow re-encodings, each lossless (the script checks that Pillow reads the same RGBA back,
    /// transparent pixels aside).
    static let pillowScript = #"""
import sys, zlib, struct
from PIL import Image
kind, src, dst = sys.argv[1:4]
im = Image.open(src); im.load(); im = im.convert('RGBA')
w, h = im.size
if kind == 'palette':
    colours = [c for _, c in im.getcolors(256)]
    index = {c: i for i, c in enumerate(colours)}
    p = Image.frombytes('P', im.size, bytes(index[c] for c in im.getdata()))
    p.putpalette([v for c in colours for v in c[:3]])
    p.save(dst, transparency=bytes(c[3] for c in colours), optimize=True)
elif kind == 'gray':
    im.convert('L').save(dst)
elif kind == 'rgb':
    im.convert('RGB').save(dst, compress_level=9)
elif kind == 'optimize':
    im.save(dst, optimize=True)
elif kind == 'dirty':
    im.putdata([(9, 99, 199, 0) if c[3] == 0 else c for c in im.getdata()])
    im.save(dst, compress_level=1)
elif kind == 'rgba16':
    raw = im.tobytes()
    rows = b''.join(b'\x00' + bytes(b for v in raw[y * w * 4:(y + 1) * w * 4] for b in (v, v)) for y in range(h))
    def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    open(dst, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 16, 6, 0, 0, 0))
        + chunk(b'IDAT', zlib.compress(rows, 9)) + chunk(b'IEND', b''))
elif kind == 'edit':
    px = im.load(); r, g, b, a = px[0, 0]; px[0, 0] = (r ^ 1, g, b, 255); im.save(dst)
else:
    sys.exit('unknown kind ' + kind)
if kind not in ('edit', 'dirty'):
    back = Image.open(dst).convert('RGBA') if kind != 'rgba16' else None
    if back is not None and [c for c in back.getdata() if c[3]] != [c for c in im.getdata() if c[3]]:
        sys.exit(kind + ' was not lossless')
"""#

    /// Every lossless re-encoding has the digest of the PNG cartrender wrote.
    func testLosslessReencodingsKeepTheDigest() throws {
        for (kind, source) in [("palette", image()), ("rgba16", image()), ("optimize", image()), ("dirty", image()),
                               ("gray", image(gray: true)), ("rgb", image(opaque: true))] {
            let png = try PNGEncoder.encode(source)
            let digest = PixelDigest.of(source)
            XCTAssertEqual(PixelDigest.of(png: png), digest, "\(kind): the encoder's own PNG")
            XCTAssertEqual(PixelDigest.of(png: try rewrite(png, kind)), digest, kind)
        }
    }

    /// One changed pixel changes the digest; so does the size; bytes that are not a PNG have none.
    func testAChangedPixelChangesTheDigest() throws {
        let png = try PNGEncoder.encode(image(opaque: true))
        XCTAssertNotEqual(PixelDigest.of(png: try rewrite(png, "edit")), PixelDigest.of(png: png))
        XCTAssertNotEqual(PixelDigest.of(RGBAImage(width: 2, height: 3)), PixelDigest.of(RGBAImage(width: 3, height: 2)))
        XCTAssertNil(PixelDigest.of(png: Array("not a png".utf8)))
    }

    /// The ledger writes a `# pixels` line after the name's SHA-256 line, reads it back, and
    /// `sha256sum -c --strict` still checks the file.
    func testTheLedgerKeepsPixelDigestsInCommentLines() throws {
        let a = String(repeating: "a", count: 64), p = String(repeating: "b", count: 64)
        let ledger = OwnershipLedger(entries: ["frame_0001.png": a, "manifest.json": a], pixels: ["frame_0001.png": p])
        XCTAssertEqual(String(decoding: ledger.serialized(), as: UTF8.self),
                       "\(a)  frame_0001.png\n# pixels \(p)  frame_0001.png\n\(a)  manifest.json\n")
        XCTAssertEqual(OwnershipLedger(parsing: ledger.serialized()), ledger)

        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let png = try PNGEncoder.encode(image())
        try Data(png).write(to: URL(fileURLWithPath: dir + "/frame_0001.png"))
        let real = OwnershipLedger(entries: ["frame_0001.png": Checksum.sha256(png)], pixels: ["frame_0001.png": PixelDigest.of(image())])
        try Data(real.serialized()).write(to: URL(fileURLWithPath: dir + "/" + OwnershipLedger.fileName))
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        check.arguments = ["-c", "--strict", "--quiet", OwnershipLedger.fileName]
        check.currentDirectoryURL = URL(fileURLWithPath: dir)
        try check.run()
        check.waitUntilExit()
        XCTAssertEqual(check.terminationStatus, 0)
    }
}
