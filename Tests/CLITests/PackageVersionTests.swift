import Foundation
import XCTest

/// The package's version (`Scripts/package-version.sh`) and its Debian changelog
/// (`Scripts/debian-changelog.sh`), in a Git repository made here with fixed commit dates: a
/// commit that is not the release's tag is `VERSION~git<commit date>.<commit>`, which dpkg sorts
/// after the commit before it and before the release; the tag's commit is plain VERSION; the
/// changelog made from CHANGELOG.md is one dpkg-parsechangelog reads, newest entry first.
final class PackageVersionTests: XCTestCase {
    static let root = GitHubActionTests.root
    private var dir = ""

    override func setUpWithError() throws { dir = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    @discardableResult
    private func run(_ executable: String, _ arguments: [String], date: String = "2026-12-07T23:30:00+02:00") throws -> String {
        let r = try Binary.run(arguments, in: dir, environment: [
            "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": dir,
        ], timeout: 60, executable: executable)
        XCTAssertEqual(r.status, 0, "\(arguments): \(r.stderr)")
        return r.stdout.trimmingCharacters(in: .newlines)
    }

    private func git(_ arguments: [String], date: String = "2026-12-07T23:30:00+02:00") throws -> String {
        try run("/usr/bin/git", ["-c", "init.defaultBranch=main", "-c", "tag.gpgSign=false", "-c", "commit.gpgSign=false"] + arguments, date: date)
    }

    private func packageVersion() throws -> String {
        try run(Self.root + "/Scripts/package-version.sh", [dir])
    }

    private func dpkgSorts(_ a: String, before b: String) throws -> Bool {
        try Binary.run(["--compare-versions", a, "lt", b], timeout: 30, executable: "/usr/bin/dpkg").status == 0
    }

    func testVersionCarriesTheCommitUnlessTagged() throws {
        try "1.2.3\n".write(toFile: dir + "/VERSION", atomically: true, encoding: .utf8)
        try git(["init", "-q"])
        try git(["add", "VERSION"])
        try git(["commit", "-q", "-m", "one"])
        let first = try packageVersion()
        let hash = String(try git(["rev-parse", "HEAD"]).prefix(7))
        // 23:30 at +02:00 is 21:30 UTC: the date is UTC's, whatever the committer's zone.
        XCTAssertEqual(first, "1.2.3~git20261207.\(hash)")
        XCTAssertEqual(try packageVersion(), first, "reproducible")
        try git(["commit", "-q", "--allow-empty", "-m", "two"], date: "2026-12-08T10:00:00Z")
        let second = try packageVersion()
        XCTAssertTrue(second.hasPrefix("1.2.3~git20261208."), second)
        XCTAssertTrue(try dpkgSorts(first, before: second), "a later commit's package upgrades")
        XCTAssertTrue(try dpkgSorts(second, before: "1.2.3"), "the release sorts after its builds")
        try git(["tag", "v1.2.3"])
        XCTAssertEqual(try packageVersion(), "1.2.3", "the tag's build")
        try git(["tag", "other"])
        XCTAssertEqual(try packageVersion(), "1.2.3")
        try git(["commit", "-q", "--allow-empty", "-m", "three"], date: "2026-12-09T10:00:00Z")
        XCTAssertTrue(try packageVersion().hasPrefix("1.2.3~git20261209."))
    }

    /// The versions of dir/changelog's entries as dpkg-parsechangelog reads them, in order.
    private func versions() throws -> [String] {
        try run("/usr/bin/dpkg-parsechangelog", ["-l", dir + "/changelog", "--all", "--format", "rfc822"])
            .split(separator: "\n").filter { $0.hasPrefix("Version: ") }.map { String($0.dropFirst(9)) }
    }

    func testDebianChangelogFromCHANGELOG() throws {
        try "1.1.0\n".write(toFile: dir + "/VERSION", atomically: true, encoding: .utf8)
        try """
        # Changelog

        ## 1.1.0

        - Faster, with a long line that goes on and on past the eighty columns that Debian's changelog allows.

        ## 1.0.0

        The first release.

        """.write(toFile: dir + "/CHANGELOG.md", atomically: true, encoding: .utf8)
        try git(["init", "-q"])
        try git(["add", "."])
        try git(["commit", "-q", "-m", "one"])
        let script = Self.root + "/Scripts/debian-changelog.sh"
        let maintainer = "cartrender maintainers <cartrender@users.noreply.github.com>"
        let dev = try packageVersion()
        let text = try run(script, [dev, maintainer, dir + "/CHANGELOG.md"])
        try (text + "\n").write(toFile: dir + "/changelog", atomically: true, encoding: .utf8)
        XCTAssertEqual(try versions(), [dev, "1.0.0"], "the build's entry on top; 1.1.0 is not released yet")
        XCTAssertTrue(text.contains("  * Faster, with a long line"), text)
        XCTAssertTrue(text.split(separator: "\n").filter { $0.hasPrefix("  ") }.allSatisfy { $0.count <= 80 }, "change lines fit 80 columns: \(text)")
        XCTAssertTrue(text.contains(" -- \(maintainer)  Mon, 07 Dec 2026 21:30:00 +0000"), text)
        try git(["tag", "v1.1.0"])
        let release = try run(script, ["1.1.0", maintainer, dir + "/CHANGELOG.md"])
        try (release + "\n").write(toFile: dir + "/changelog", atomically: true, encoding: .utf8)
        XCTAssertEqual(try versions(), ["1.1.0", "1.0.0"])
    }
}
