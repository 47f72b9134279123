// libFuzzer entry point of the fuzz harness, built by Scripts/fuzz-scene.sh together with the
// CartRenderCore sources and the review server's HTTP messages in one module. One binary holds
// every target; CARTRENDER_FUZZ_TARGET chooses the one an input goes to:
//   scene     (the default) the scene decoder and validator: SceneFuzzer.swift
//   manifest  the manifest reader and merge's checks of a shard manifest: ManifestFuzzer.swift
//   http      the review server's request parser and percent-decoding: HTTPRequestFuzzer.swift
import Foundation

/// The target inputs go to, read once.
let fuzzTarget: ([UInt8]) -> Void = {
    switch ProcessInfo.processInfo.environment["CARTRENDER_FUZZ_TARGET"] ?? "scene" {
    case "scene": return fuzzScene
    case "manifest": return fuzzManifest
    case "http": return fuzzHTTPRequest
    case let other: fatalError("CARTRENDER_FUZZ_TARGET: expected scene, manifest or http, got \(other)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    fuzzTarget(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
