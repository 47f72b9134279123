import CartRenderCore
import Foundation

/// `variants.json`: what a render of a scene's `"variants"` matrix wrote at the top of `--out`
/// (docs/scene-file.md, “Variant matrix”): one entry per variant rendered, in matrix order (or `--variant` order), each
/// with its subdirectory, its values by matrix key, its frame count and its manifest.
package enum VariantsFile {
    package static let name = "variants.json"

    /// The file as read back: what the top page of the matrix lists.
    package struct Listing: Decodable {
        package struct Entry: Decodable {
            package var name: String
            /// The variant's subdirectory: one plain name (no `/`, not `.` or `..`).
            package var directory: String
            /// `{"KEY": "TEXT"}` in matrix key order.
            var values: JSONValue
            var frames: Int
        }
        package var variants: [Entry]

        /// The listing of `json` (as ``VariantsFile/json(_:)`` makes it, or as read back).
        /// - Throws: `DecodingError`; ``Problem`` for a directory that is not one plain name.
        package init(_ json: JSONValue) throws {
            self = try JSONValueDecoder().decode(Listing.self, from: json)
            for (i, v) in variants.enumerated() where v.directory.isEmpty || v.directory.contains("/") || v.directory == "." || v.directory == ".." {
                throw Problem(description: "variants[\(i)].directory: must be the name of a subdirectory, got \(echoedQuoted(v.directory))")
            }
        }

        struct Problem: Error, CustomStringConvertible { let description: String }
    }

    /// `DIR/variants.json` when `DIR` is the top of a variant matrix render: it has that file
    /// and no `manifest.json`; nil otherwise.
    /// - Throws: ``InputError`` (65) naming the file when it is not such a listing (line and
    ///   column, or JSON path), 66 when it cannot be read.
    package static func read(in directory: String) throws -> Listing? {
        let path = (directory as NSString).appendingPathComponent(name)
        var info = stat()
        guard FileSystemPath.stat((directory as NSString).appendingPathComponent("manifest.json"), &info) != 0,
              FileSystemPath.stat(path, &info) == 0 else { return nil }
        do {
            return try Listing(JSONValue(JSONParser.parse(try RegularFile.read(path, limit: Manifest.maxFileBytes))))
        } catch let e as FileReadError {
            throw InputError(e.exitCode == .noInput ? .unreadable : .invalid, path: path, reason: e.reason(notA: "a variants listing"))
        } catch let e as JSONSyntaxError {
            throw InputError(.invalid, path: path, reason: "line \(e.location.line), column \(e.location.column): \(e.message)")
        } catch let e as DecodingError {
            throw InputError(.invalid, path: path, reason: (e.jsonPath.isEmpty ? "" : e.jsonPath + ": ") + e.reason)
        } catch let e as Listing.Problem {
            throw InputError(.invalid, path: path, reason: e.description)
        }
    }

    package static func json(_ rendered: [(variant: SceneVariant, frames: Int)]) -> JSONValue {
        .object([("version", 1), ("variants", .array(rendered.map { r in
            .object([
                ("name", .string(r.variant.name)),
                ("directory", .string(r.variant.name)),
                ("values", .object(r.variant.values.map { ($0.key, .string($0.text)) })),
                ("frames", .int(r.frames)),
                ("manifest", .string(r.variant.name + "/manifest.json")),
            ])
        }))])
    }
}

/// `index.html` at the top of a variant matrix render (`render --viewer`, `cartrender view TOP`):
/// a page that links each variant's viewer (`NAME/index.html`) with its values and frame count,
/// made from `variants.json` alone, so both write the same bytes. Self-contained, no script.
package enum VariantsIndexPage {
    package static func html(for listing: VariantsFile.Listing) -> String {
        let n = listing.variants.count
        let title = "cartrender viewer: \(n) variant\(n == 1 ? "" : "s")"
        var items = ""
        for v in listing.variants {
            let href = (v.directory.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? v.directory) + "/" + ViewerSink.fileName
            var values: [String] = []
            if case .object(let members) = v.values {
                for (key, value) in members {
                    if case .string(let text) = value { values.append("\(key) \(text)") } else { values.append("\(key) \(value.serialized())") }
                }
            }
            items += "<li><a href=\"\(Escaping.html(href))\">\(Escaping.html(v.name))</a> <span>\(Escaping.html(values.joined(separator: " · "))) · \(v.frames) frame\(v.frames == 1 ? "" : "s")</span></li>\n"
        }
        return HTMLReport.page(title: title, style: "body{font:15px system-ui,sans-serif;margin:1.5em;color:#222}li{margin:.4em 0}span{color:#666}",
                               body: "<h1>\(Escaping.html(title))</h1>\n<ul>\n\(items)</ul>\n")
    }
}

/// `index.html` at the top of a variant matrix's report directory: every variant with its
/// verdict, counts and a link to its own report (`NAME/index.html`). Self-contained, no script.
package enum VariantsReportIndex {
    package static func html(for results: [(name: String, result: SnapshotResult)], scene: String) -> String {
        let failed = results.filter { !$0.result.passedWithAudit }.count
        let title = "cartrender verify \(failed == 0 ? "passed" : "FAILED"): \(scene), \(results.count) variant\(results.count == 1 ? "" : "s")"
        var rows = ""
        for (name, r) in results {
            let href = (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name) + "/" + ReportWriter.htmlName
            let ok = r.passedWithAudit
            rows += "<tr class=\"\(ok ? "pass" : "fail")\"><td><a href=\"\(Escaping.html(href))\">\(Escaping.html(name))</a></td>"
            rows += "<td><span class=\"status\">\(ok ? "passed" : "FAILED")</span></td><td>\(r.frames.count)</td><td>\(r.failures.count)</td><td>\(r.recordedCount)</td></tr>\n"
        }
        let style = """
        :root{color-scheme:light dark;--pass:#34c759;--fail:#ff3b30;--bg:#f2f2f7;--card:#fff;--ink:#1c1c1e;--mute:#6e6e73}
        @media (prefers-color-scheme:dark){:root{--bg:#000;--card:#1c1c1e;--ink:#f2f2f7;--mute:#98989f}}
        body{font:15px/1.45 system-ui,sans-serif;margin:0;padding:16px;background:var(--bg);color:var(--ink)}h1{font-size:20px}
        table{border-collapse:collapse;background:var(--card);border-radius:10px;width:100%;max-width:720px}td,th{padding:6px 10px;text-align:left}
        th{color:var(--mute);font-weight:500}a{color:inherit}.status{color:#fff;border-radius:6px;padding:1px 6px}
        .pass .status{background:var(--pass)}.fail .status{background:var(--fail)}
        """
        let body = "<h1>\(Escaping.html(title))</h1>\n<table>\n<tr><th>variant</th><th>result</th><th>frames</th><th>failed</th><th>recorded</th></tr>\n\(rows)</table>\n"
        return HTMLReport.page(title: title, style: style, body: body)
    }
}
