/// The marker structure of a JPEG file, walked without decoding: image size and whether the data
/// reaches its end-of-image marker.
///
/// gdk-pixbuf (through libjpeg) decodes a truncated JPEG without an error, filling the missing
/// part with gray; walking the markers first turns a cut-off download into an error instead of
/// a frame with a gray block. Corruption inside the compressed data is not detected.
struct JPEGStructure: Equatable {
    /// Size from the first start-of-frame marker (px).
    var width: Int
    var height: Int

    /// Why the bytes are not a complete JPEG, as words that follow "the JPEG data …".
    enum Problem: Error, Equatable {
        case notJPEG
        /// The data ends before the end-of-image marker.
        case truncated
        /// A marker is malformed, or the scan comes before any frame header.
        case malformed(String)
    }

    /// Walks the markers of `bytes`.
    /// - Throws: `Problem`.
    /// - Complexity: O(n), one pass.
    static func parse(_ bytes: [UInt8]) throws -> JPEGStructure {
        guard bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF else { throw Problem.notJPEG }
        var size: (Int, Int)?
        var i = 2
        while true {
            guard i < bytes.count else { throw Problem.truncated }
            guard bytes[i] == 0xFF else { throw Problem.malformed("a marker is missing at byte \(i)") }
            while i < bytes.count && bytes[i] == 0xFF { i += 1 }  // fill bytes
            guard i < bytes.count else { throw Problem.truncated }
            let marker = bytes[i]
            i += 1
            switch marker {
            case 0xD9:
                guard let (w, h) = size else { throw Problem.malformed("there is no frame header") }
                return JPEGStructure(width: w, height: h)
            case 0x01, 0xD0...0xD7:
                continue  // standalone markers
            case 0x00:
                throw Problem.malformed("a marker is missing at byte \(i - 1)")
            default:
                guard i + 2 <= bytes.count else { throw Problem.truncated }
                let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
                guard length >= 2 else { throw Problem.malformed("a segment has length \(length)") }
                guard i + length <= bytes.count else { throw Problem.truncated }
                let isFrameHeader = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
                if isFrameHeader && size == nil {
                    guard length >= 7 else { throw Problem.malformed("the frame header is too short") }
                    size = (Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]), Int(bytes[i + 3]) << 8 | Int(bytes[i + 4]))
                }
                i += length
                if marker == 0xDA {
                    guard size != nil else { throw Problem.malformed("the scan comes before the frame header") }
                    // Entropy-coded data: runs to the next marker other than a stuffed 0xFF00
                    // or a restart marker.
                    while true {
                        guard i + 1 < bytes.count else { throw Problem.truncated }
                        if bytes[i] == 0xFF {
                            let next = bytes[i + 1]
                            if next != 0x00 && !(0xD0...0xD7).contains(next) && next != 0xFF { break }
                        }
                        i += 1
                    }
                }
            }
        }
    }
}
