/// The image pairs of the pixelmatch 7.1 cross-check (see `PixelmatchTests.testCountsAgreeWithPixelmatch71`).
enum CrossCheckPairs {
    struct Pair {
        var name: String
        var first: TestPixels
        var second: TestPixels
    }

    static var all: [Pair] {
        let noise = TestImages.noise(width: 64, height: 48, seed: 3)
        let translucent = TestImages.noise(width: 64, height: 48, seed: 5, translucent: true)
        let ties = TestImages.grayNoisePair(seed: 1)
        let navy: (UInt8, UInt8, UInt8) = (20, 40, 120)
        let white: (UInt8, UInt8, UInt8) = (255, 255, 255)
        return [
            Pair(name: "noise-vs-noise",
                 first: TestImages.noise(width: 64, height: 48, seed: 1),
                 second: TestImages.noise(width: 64, height: 48, seed: 2)),
            Pair(name: "noise-perturbed",
                 first: noise,
                 second: TestImages.perturbed(noise, seed: 4, every: 5, amount: 24)),
            Pair(name: "translucent-perturbed",
                 first: translucent,
                 second: TestImages.perturbed(translucent, seed: 6, every: 3, amount: 40)),
            Pair(name: "circle-subpixel-shift",
                 first: TestImages.circle(width: 64, height: 64, centerX: 32, centerY: 32, radius: 20, color: navy, background: white),
                 second: TestImages.circle(width: 64, height: 64, centerX: 32.5, centerY: 32.25, radius: 20, color: navy, background: white)),
            Pair(name: "circle-1px-shift",
                 first: TestImages.circle(width: 64, height: 64, centerX: 32, centerY: 32, radius: 20, color: navy, background: white),
                 second: TestImages.circle(width: 64, height: 64, centerX: 33, centerY: 32, radius: 20, color: navy, background: white)),
            Pair(name: "edge-1px-shift",
                 first: TestImages.verticalEdge(width: 40, height: 20, edgeX: 20.5, color: navy, background: white),
                 second: TestImages.verticalEdge(width: 40, height: 20, edgeX: 21.5, color: navy, background: white)),
            Pair(name: "rectangles-1px-shift",
                 first: TestImages.rectangles(width: 80, height: 60, count: 12, seed: 7),
                 second: TestImages.rectangles(width: 80, height: 60, count: 12, seed: 7, shift: 1)),
            Pair(name: "gray-noise-ties", first: ties.0, second: ties.1),
            Pair(name: "alpha-ramps",
                 first: TestImages.alphaRamp(width: 64, height: 8, color: (255, 0, 0)),
                 second: TestImages.alphaRamp(width: 64, height: 8, color: (200, 40, 40))),
        ]
    }
}
