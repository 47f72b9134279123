import Foundation
import XCTest

/// The release route, run here since GitHub is not reachable: the release workflow's scripts
/// (`Scripts/check-tag.sh`, `Scripts/changelog-entry.sh`, `Scripts/release-sums.sh`) and the
/// action's install step (`Scripts/action-install.sh`) against a release directory served by a
/// local HTTP server (Python's `http.server` on 127.0.0.1) through its `release-url`. The
/// packages are small stand-ins built with `dpkg-deb` whose `cartrender --version` prints the
/// version, and `APT_GET` is a stand-in that unpacks them into the test's directory instead of
/// installing system-wide (.ci/run installs the real package with the real apt-get:
/// Scripts/action-install-route.sh).
final class ReleaseRouteTests: XCTestCase {
    static let root = GitHubActionTests.root
    static let version = (try? String(contentsOfFile: root + "/VERSION", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    private var dir = ""
    private var server: Process?

    override func setUpWithError() throws { dir = try makeTemporaryDirectory() }
    override func tearDownWithError() throws {
        if let server, server.isRunning { server.terminate(); server.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func script(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Binary.Result {
        try Binary.run(arguments, in: dir, environment: environment, timeout: 120, executable: Self.root + "/Scripts/" + name)
    }

    // MARK: The release workflow's scripts

    /// A tag that is not vVERSION stops the release workflow with one sentence.
    func testCheckTagAcceptsVVersionOnly() throws {
        let ok = try script("check-tag.sh", ["v" + Self.version])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        for tag in [Self.version, "v" + Self.version + ".1", "v9.9.9"] {
            let bad = try script("check-tag.sh", [tag])
            XCTAssertEqual(bad.status, 1, tag)
            XCTAssertEqual(bad.stderr, "check-tag.sh: the tag \(tag) does not match VERSION (\(Self.version)): tag v\(Self.version), or change VERSION (and run make version) first\n")
        }
        XCTAssertEqual(try script("check-tag.sh", []).status, 64)
    }

    /// The release notes are the CHANGELOG entry of the version, heading excluded, in either
    /// heading style; a version without an entry stops the workflow. CHANGELOG.md has one for
    /// VERSION.
    func testChangelogEntryExtractsOneVersion() throws {
        let changelog = """
        # Changelog

        ## [0.3.0] - 2027-02-01

        - Three.

        ## 0.2.0 (2027-01-01)

        - Two, line one.
          continued.

        ### Fixed

        - A fix.

        ## 0.2
        ## 0.1.0

        """
        try changelog.write(toFile: dir + "/CHANGELOG.md", atomically: true, encoding: .utf8)
        let three = try script("changelog-entry.sh", ["0.3.0", dir + "/CHANGELOG.md"])
        XCTAssertEqual(three.stdout, "- Three.\n", three.stderr)
        let two = try script("changelog-entry.sh", ["0.2.0", dir + "/CHANGELOG.md"])
        XCTAssertEqual(two.stdout, "- Two, line one.\n  continued.\n\n### Fixed\n\n- A fix.\n", two.stderr)
        let missing = try script("changelog-entry.sh", ["0.2.1", dir + "/CHANGELOG.md"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "changelog-entry.sh: \(dir)/CHANGELOG.md has no \"## 0.2.1\" entry\n")
        let empty = try script("changelog-entry.sh", ["0.2", dir + "/CHANGELOG.md"])
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.stderr.hasSuffix("entry of \(dir)/CHANGELOG.md is empty\n"), empty.stderr)
        let own = try script("changelog-entry.sh", [Self.version])
        XCTAssertEqual(own.status, 0, own.stderr)
        XCTAssertFalse(own.stdout.isEmpty)
    }

    /// The workflows run these scripts, the arm64 build on GitHub's arm64 runner, every job in
    /// the toolchain image that .ci/run and the baselines use.
    func testTheWorkflowsRunTheScripts() throws {
        let release = try String(contentsOfFile: Self.root + "/.github/workflows/release.yml", encoding: .utf8)
        for step in ["tags: ['v*']", "runner: ubuntu-24.04-arm", "container: swift:6.3-bookworm", "Scripts/check-tag.sh \"$GITHUB_REF_NAME\"",
                     "run: make deb", "run: Scripts/deb-route.sh", "Scripts/release-sums.sh \"$(cat VERSION)\" dist",
                     "Scripts/changelog-entry.sh \"$(cat VERSION)\" > notes.md", "--notes-file notes.md", "Scripts/image-check.sh"] {
            XCTAssertTrue(release.contains(step), step)
        }
        let ci = try String(contentsOfFile: Self.root + "/.github/workflows/ci.yml", encoding: .utf8)
        for step in ["push:", "pull_request:", "container: swift:6.3-bookworm", "bash .ci/run", "if: failure()",
                     "hashFiles('Makefile', 'Scripts/assets-requirements.txt')"] {
            XCTAssertTrue(ci.contains(step), step)
        }
    }

    // MARK: A release directory and the install step

    /// Builds a stand-in cartrender_VERSION_ARCH.deb into `directory`: /usr/bin/cartrender
    /// printing `cartrender VERSION` for --version.
    private func standInPackage(version: String, arch: String, into directory: String) throws {
        let root = dir + "/pkg-\(arch)"
        try FileManager.default.createDirectory(atPath: root + "/DEBIAN", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/usr/bin", withIntermediateDirectories: true)
        try """
        Package: cartrender
        Version: \(version)
        Architecture: \(arch)
        Maintainer: cartrender tests <tests@cartrender.invalid>
        Description: stand-in for the release route's tests

        """.write(toFile: root + "/DEBIAN/control", atomically: true, encoding: .utf8)
        try "#!/bin/sh\necho \"cartrender \(version)\"\n".write(toFile: root + "/usr/bin/cartrender", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root + "/usr/bin/cartrender")
        let built = try Binary.run(["--root-owner-group", "--build", root, directory + "/cartrender_\(version)_\(arch).deb"],
                                   timeout: 60, executable: "/usr/bin/dpkg-deb")
        XCTAssertEqual(built.status, 0, built.stderr)
    }

    /// Serves `directory` on 127.0.0.1 (a free port) and returns its URL.
    private func serve(_ directory: String) throws -> String {
        let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [python, "-c", """
            import functools, http.server, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            with open(sys.argv[2] + ".new", "w") as f: f.write(str(server.server_address[1]))
            __import__("os").rename(sys.argv[2] + ".new", sys.argv[2])
            server.serve_forever()
            """, directory, dir + "/port"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        server = p
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: dir + "/port") && p.isRunning && Date() < deadline { usleep(20_000) }
        let port = try String(contentsOfFile: dir + "/port", encoding: .utf8)
        return "http://127.0.0.1:\(port)"
    }

    /// A release directory (vVERSION/ with amd64 and arm64 stand-ins and the SHA256SUMS that
    /// Scripts/release-sums.sh writes), served; returns the `release-url`.
    private func release() throws -> String {
        let tagDir = dir + "/releases/v" + Self.version
        try FileManager.default.createDirectory(atPath: tagDir, withIntermediateDirectories: true)
        for arch in ["amd64", "arm64"] { try standInPackage(version: Self.version, arch: arch, into: tagDir) }
        let sums = try script("release-sums.sh", [Self.version, tagDir])
        XCTAssertEqual(sums.status, 0, sums.stderr)
        return try serve(dir + "/releases")
    }

    /// Runs the install step as action.yml does, with a stand-in apt-get that logs its
    /// arguments and unpacks the packages it is given under `dir`/installed.
    private func install(_ inputs: [String: String]) throws -> Binary.Result {
        let apt = dir + "/apt-get"
        try """
        #!/bin/sh
        echo "$*" >> "\(dir)/apt.log"
        for a in "$@"; do case "$a" in *.deb) dpkg-deb -x "$a" "\(dir)/installed" || exit 100 ;; esac; done

        """.write(toFile: apt, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: apt)
        let path = dir + "/installed/usr/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let env = ["GITHUB_OUTPUT": dir + "/output.txt", "APT_GET": apt, "PATH": path, "ARCH": "amd64",
                   "INPUT_VERSION": "", "ACTION_REF": "", "GITHUB_ACTION_REF": "", "SWIFT": "/bin/true"].merging(inputs) { $1 }
        try? FileManager.default.removeItem(atPath: dir + "/output.txt")
        return try Binary.run([], in: dir, environment: env, timeout: 120, executable: Self.root + "/Scripts/action-install.sh")
    }

    private func text(_ name: String) -> String { (try? String(contentsOfFile: dir + "/" + name, encoding: .utf8)) ?? "" }

    /// At its release tag, or with a `version` input, the action downloads the package for the
    /// runner's architecture, checks it, installs it and runs it; the run step gets its path.
    func testTheReleaseRouteInstallsTheCheckedPackage() throws {
        let url = try release()
        for inputs in [["ACTION_REF": "v" + Self.version], ["ACTION_REF": "main", "INPUT_VERSION": "v" + Self.version]] {
            try? FileManager.default.removeItem(atPath: dir + "/installed")
            let r = try install(inputs.merging(["INPUT_RELEASE_URL": url + "/"]) { $1 })
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("action-install.sh: route: release: installed cartrender \(Self.version) (amd64) from \(url)/v\(Self.version), checked against SHA256SUMS, in "), r.stdout)
            XCTAssertEqual(text("output.txt"), "route=release\ncartrender=\(dir)/installed/usr/bin/cartrender\n")
            XCTAssertTrue(text("apt.log").contains("install -y -qq "), text("apt.log"))
            XCTAssertTrue(text("apt.log").hasSuffix("/cartrender_\(Self.version)_amd64.deb\n"), text("apt.log"))
        }
    }

    /// A package that does not match SHA256SUMS, an architecture the release has no package
    /// for, a version that was not released and a system that is not Debian 12 each stop with
    /// one sentence, and nothing is installed.
    func testAMismatchOrAMissingPackageStopsWithOneSentenceAndNoInstall() throws {
        let url = try release()
        let sums = dir + "/releases/v\(Self.version)/SHA256SUMS"
        let good = text("releases/v\(Self.version)/SHA256SUMS")
        let first = try XCTUnwrap(good.first)
        try good.replacingCharacters(in: good.startIndex...good.startIndex, with: first == "0" ? "1" : "0")
            .write(toFile: sums, atomically: true, encoding: .utf8)
        let release = ["ACTION_REF": "v" + Self.version, "INPUT_RELEASE_URL": url]
        let tampered = try install(release)
        XCTAssertEqual(tampered.status, 65)
        XCTAssertTrue(tampered.stderr.hasPrefix("action-install.sh: cartrender_\(Self.version)_amd64.deb from \(url)/v\(Self.version) does not match its SHA256SUMS (SHA-256 "), tampered.stderr)
        XCTAssertTrue(tampered.stderr.hasSuffix("), so it was not installed\n"), tampered.stderr)
        try good.write(toFile: sums, atomically: true, encoding: .utf8)

        let arch = try install(release.merging(["ARCH": "riscv64"]) { $1 })
        XCTAssertEqual(arch.status, 69)
        XCTAssertEqual(arch.stderr, "action-install.sh: the release v\(Self.version) at \(url)/v\(Self.version) has no package for riscv64 (cartrender_\(Self.version)_riscv64.deb is not in its SHA256SUMS): run the job on an amd64 or arm64 runner\n")

        let unreleased = try install(release.merging(["INPUT_VERSION": "9.9.9"]) { $1 })
        XCTAssertEqual(unreleased.status, 69)
        XCTAssertTrue(unreleased.stderr.hasPrefix("action-install.sh: could not download \(url)/v9.9.9/SHA256SUMS (HTTP 404): is v9.9.9 released there?"), unreleased.stderr)

        try "PRETTY_NAME=\"Ubuntu 24.04.3 LTS\"\nID=ubuntu\nVERSION_ID=\"24.04\"\n".write(toFile: dir + "/os-release", atomically: true, encoding: .utf8)
        let ubuntu = try install(release.merging(["OS_RELEASE": dir + "/os-release"]) { $1 })
        XCTAssertEqual(ubuntu.status, 69)
        XCTAssertEqual(ubuntu.stderr, "action-install.sh: the cartrender \(Self.version) package is built for Debian 12 but this job runs Ubuntu 24.04.3 LTS, where its pixels would differ from Debian-recorded baselines and video needs libavformat.so.59: run the job in container: debian:bookworm-slim\n")

        for r in [tampered, arch, unreleased, ubuntu] {
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, r.stderr)
            XCTAssertEqual(r.stdout, "")
        }
        XCTAssertFalse(text("apt.log").contains("install"), text("apt.log"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/installed"))
        XCTAssertEqual(text("output.txt"), "")
    }

    /// A branch or commit reference takes the source route, downloading nothing; without a
    /// Swift toolchain that route stops at once, saying what to do.
    func testANonReleaseReferenceTakesTheSourceRoute() throws {
        for ref in ["main", "0123456789abcdef0123456789abcdef01234567", "v" + Self.version + "-rc1", ""] {
            let r = try install(["ACTION_REF": ref, "INPUT_RELEASE_URL": "http://127.0.0.1:9/unreachable"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(text("output.txt"), "route=source\n")
            XCTAssertTrue(r.stdout.hasPrefix("action-install.sh: route: source (the reference \(ref.isEmpty ? "(none)" : ref) is not a release tag v\(Self.version))"), r.stdout)
        }
        let noSwift = try install(["ACTION_REF": "main", "SWIFT": dir + "/no-swift"])
        XCTAssertEqual(noSwift.status, 69)
        XCTAssertTrue(noSwift.stderr.contains("needs the Swift toolchain: run the job in container: swift:6.3-bookworm"), noSwift.stderr)
        XCTAssertEqual(text("output.txt"), "")
        XCTAssertEqual(text("apt.log"), "")
    }

    /// release-sums.sh refuses a release without both architectures or with another version.
    func testReleaseSumsNeedsBothPackagesOfTheVersion() throws {
        let d = dir + "/dist"
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        try standInPackage(version: Self.version, arch: "amd64", into: d)
        let one = try script("release-sums.sh", [Self.version, d])
        XCTAssertEqual(one.status, 1)
        XCTAssertEqual(one.stderr, "release-sums.sh: \(d) has no cartrender_\(Self.version)_arm64.deb\n")
        try standInPackage(version: "0.0.9", arch: "arm64", into: d)
        try FileManager.default.moveItem(atPath: d + "/cartrender_0.0.9_arm64.deb", toPath: d + "/cartrender_\(Self.version)_arm64.deb")
        let other = try script("release-sums.sh", [Self.version, d])
        XCTAssertEqual(other.status, 1)
        XCTAssertEqual(other.stderr, "release-sums.sh: cartrender_\(Self.version)_arm64.deb says Version: 0.0.9, not \(Self.version)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: d + "/SHA256SUMS"))
    }
}
