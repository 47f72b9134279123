import CartRenderRaster
import Foundation
import XCTest

extension XCTestCase {
    /// Name → SHA-256 and modification time of every entry of `dir`, hidden ones included: equal
    /// snapshots mean nothing in the directory was written, replaced or removed.
    func snapshot(_ dir: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
            let path = dir + "/" + name
            var info = stat()
            lstat(path, &info)
            let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
            out[name] = Checksum.sha256(Array(data)) + " \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        return out
    }
}
