import Foundation
import XCTest

extension XCTestCase {
    /// A fresh directory path under the temporary directory (not created), removed when the
    /// test ends.
    func tempDir() -> String {
        let d = NSTemporaryDirectory() + "cartrender-test-" + UUID().uuidString
        addTeardownBlock { try? FileManager.default.removeItem(atPath: d) }
        return d
    }

    /// Every file in `dir` (hidden ones included) by name, with its bytes.
    func files(_ dir: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for f in try FileManager.default.contentsOfDirectory(atPath: dir) { out[f] = FileManager.default.contents(atPath: dir + "/" + f) }
        return out
    }
}
