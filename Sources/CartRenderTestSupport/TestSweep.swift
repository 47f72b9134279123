import Foundation

/// Sweeps in tests (every frame of an animation compared with its source by SSIM, every frame
/// redrawn in full, every case of the bad-input corpus, every memory limit, every random kill of
/// a commit) run in full under `CARTRENDER_FULL_SWEEPS=1`, which `.ci/run` sets; `make test` on a
/// developer's machine checks a fixed sample: the first and last items and every fourth in
/// between, or a quarter of the rounds. The sample is the same on every run, so a failure
/// repeats. docs/code-layout.md ("Tests") lists what `make test` samples.
public enum TestSweep {
    /// Whether every item is checked (`CARTRENDER_FULL_SWEEPS=1`).
    public static let isFull = ProcessInfo.processInfo.environment["CARTRENDER_FULL_SWEEPS"] == "1"

    /// One item in this many is checked when sampling (the first and the last always).
    public static let sampleEvery = 4

    /// Whether item `index` of `count` is checked.
    public static func includes(_ index: Int, of count: Int) -> Bool {
        isFull || index == 0 || index == count - 1 || index % sampleEvery == 0
    }

    /// How many of `full` rounds run (random kills drawn from a fixed seed): all of them, or a
    /// quarter (at least one) when sampling. The sampled rounds are the full run's first ones.
    public static func rounds(_ full: Int) -> Int {
        isFull ? full : max(1, full / sampleEvery)
    }

    /// The items checked, in order.
    public static func sample<C: Collection>(_ items: C) -> [C.Element] {
        let all = Array(items)
        return all.enumerated().filter { includes($0.offset, of: all.count) }.map(\.element)
    }
}
