import CartRender
import CartRenderCLI
import CartRenderCore
import CartRenderRaster
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest

/// `junit.xml` as CI reporters read it: valid against a JUnit schema (xmllint, Debian's
/// libxml2-utils), with `time` on suites and cases, `timestamp`, `classname` and `file`.
final class JUnitReportTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory()
        let scene = DefaultScene.json.replacingOccurrences(of: "\"fps\": 60", with: "\"fps\": 4")
        try scene.write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    /// The JUnit XML structure that Jenkins' junit-4 schema describes (elements, their order and
    /// required attributes, as the reporters of Jenkins, GitLab and GitHub Actions read them),
    /// with the `file` attribute of test cases that GitLab and the GitHub annotation actions
    /// use. Written for this test; attributes are strings, as in Jenkins' schema, and the test
    /// checks the numbers itself.
    static let schema = """
    <?xml version="1.0" encoding="UTF-8"?>
    <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">
      <xs:element name="testsuites">
        <xs:complexType>
          <xs:sequence><xs:element ref="testsuite" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
          <xs:attribute name="name" type="xs:string"/>
          <xs:attribute name="time" type="xs:string"/>
          <xs:attribute name="tests" type="xs:string"/>
          <xs:attribute name="failures" type="xs:string"/>
          <xs:attribute name="disabled" type="xs:string"/>
          <xs:attribute name="errors" type="xs:string"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="testsuite">
        <xs:complexType>
          <xs:sequence>
            <xs:element ref="properties" minOccurs="0"/>
            <xs:element ref="testcase" minOccurs="0" maxOccurs="unbounded"/>
            <xs:element ref="system-out" minOccurs="0"/>
            <xs:element ref="system-err" minOccurs="0"/>
          </xs:sequence>
          <xs:attribute name="name" type="xs:string" use="required"/>
          <xs:attribute name="tests" type="xs:string" use="required"/>
          <xs:attribute name="failures" type="xs:string"/>
          <xs:attribute name="errors" type="xs:string"/>
          <xs:attribute name="time" type="xs:string"/>
          <xs:attribute name="disabled" type="xs:string"/>
          <xs:attribute name="skipped" type="xs:string"/>
          <xs:attribute name="timestamp" type="xs:string"/>
          <xs:attribute name="hostname" type="xs:string"/>
          <xs:attribute name="id" type="xs:string"/>
          <xs:attribute name="package" type="xs:string"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="properties">
        <xs:complexType>
          <xs:sequence><xs:element ref="property" maxOccurs="unbounded"/></xs:sequence>
        </xs:complexType>
      </xs:element>
      <xs:element name="property">
        <xs:complexType>
          <xs:attribute name="name" type="xs:string" use="required"/>
          <xs:attribute name="value" type="xs:string" use="required"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="testcase">
        <xs:complexType>
          <xs:sequence>
            <xs:element ref="skipped" minOccurs="0"/>
            <xs:element ref="error" minOccurs="0" maxOccurs="unbounded"/>
            <xs:element ref="failure" minOccurs="0" maxOccurs="unbounded"/>
            <xs:element ref="system-out" minOccurs="0" maxOccurs="unbounded"/>
            <xs:element ref="system-err" minOccurs="0" maxOccurs="unbounded"/>
          </xs:sequence>
          <xs:attribute name="name" type="xs:string" use="required"/>
          <xs:attribute name="assertions" type="xs:string"/>
          <xs:attribute name="time" type="xs:string"/>
          <xs:attribute name="classname" type="xs:string"/>
          <xs:attribute name="status" type="xs:string"/>
          <xs:attribute name="file" type="xs:string"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="failure">
        <xs:complexType mixed="true">
          <xs:attribute name="type" type="xs:string"/>
          <xs:attribute name="message" type="xs:string"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="error">
        <xs:complexType mixed="true">
          <xs:attribute name="type" type="xs:string"/>
          <xs:attribute name="message" type="xs:string"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="skipped" type="xs:string"/>
      <xs:element name="system-out" type="xs:string"/>
      <xs:element name="system-err" type="xs:string"/>
    </xs:schema>

    """

    private func validate(_ xml: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let xmllint = "/usr/bin/xmllint"
        guard FileManager.default.isExecutableFile(atPath: xmllint) else {
            return XCTFail("xmllint is missing: install libxml2-utils (make deps does)", file: file, line: line)
        }
        try Self.schema.write(toFile: dir + "/junit.xsd", atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: xmllint)
        p.arguments = ["--noout", "--schema", dir + "/junit.xsd", xml]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, message, file: file, line: line)
    }

    private func verify(_ extra: [String], env: [String: String] = [:]) throws -> Binary.Result {
        try Binary.run(["verify", "scene.json", "--baseline", "snaps/scene", "--scale", "1", "--report", "report"] + extra,
                              in: dir, environment: env)
    }

    func testVerifyReportIsValidAndTimed() throws {
        XCTAssertEqual(try verify(["--frames", "0-3"]).status, 0)
        try validate(dir + "/report/junit.xml")   // recorded frames: <system-out>

        // One frame changed, one removed: a fail and a missing frame.
        let frame = dir + "/snaps/scene/frame_0002.png"
        var image = try PNGDecoder.decode(contentsOf: frame)
        image.pixels[(10 * image.width + 10) * 4] ^= 0xFF
        try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: frame))
        try FileManager.default.removeItem(atPath: dir + "/snaps/scene/frame_0003.png")
        let before = Date()
        let r = try verify(["--frames", "0-3"], env: ["CI": "true"])
        XCTAssertEqual(r.status, 1, r.stderr)
        try validate(dir + "/report/junit.xml")

        let document = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: dir + "/report/junit.xml")))
        let root = try XCTUnwrap(document.rootElement())
        let suite = try XCTUnwrap(root.elements(forName: "testsuite").first)
        for element in [root, suite] {
            let t = try XCTUnwrap(Double(element.attribute(forName: "time")?.stringValue ?? ""), "\(element.name ?? "") has a numeric time")
            XCTAssertGreaterThan(t, 0)
            XCTAssertLessThan(t, 120)
        }
        let stamp = try XCTUnwrap(suite.attribute(forName: "timestamp")?.stringValue)
        XCTAssertNotNil(stamp.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$"#, options: .regularExpression), stamp)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let began = try XCTUnwrap(formatter.date(from: stamp))
        XCTAssertLessThan(abs(began.timeIntervalSince(before)), 60, "the timestamp is when the run began, in UTC")

        let cases = suite.elements(forName: "testcase")
        XCTAssertEqual(cases.map { $0.attribute(forName: "name")?.stringValue }, ["frame_0000.png (t=0 s)", "frame_0001.png (t=0.25 s)",
                                                                                 "frame_0002.png (t=0.5 s)", "frame_0003.png (t=0.75 s)"])
        for c in cases {
            XCTAssertEqual(c.attribute(forName: "classname")?.stringValue, "cartrender.verify.scene")
            XCTAssertEqual(c.attribute(forName: "file")?.stringValue, "scene.json")
            let t = try XCTUnwrap(Double(c.attribute(forName: "time")?.stringValue ?? ""))
            XCTAssertGreaterThanOrEqual(t, 0)
        }
        XCTAssertEqual(cases.compactMap { $0.elements(forName: "failure").first?.attribute(forName: "type")?.stringValue }, ["fail", "missing"])
    }

    func testDirectoryDiffReportIsValid() throws {
        XCTAssertEqual(try verify(["--frames", "0-2"]).status, 0)
        try FileManager.default.copyItem(atPath: dir + "/snaps/scene", toPath: dir + "/other")
        try FileManager.default.removeItem(atPath: dir + "/other/frame_0001.png")
        let r = try Binary.run(["diff", "snaps/scene", "other", "--report", "diff-report"], in: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        try validate(dir + "/diff-report/junit.xml")
        let xml = try String(contentsOfFile: dir + "/diff-report/junit.xml", encoding: .utf8)
        XCTAssertTrue(xml.contains(#"file="other/frame_0001.png""#), xml)
    }
}
