/// The embedded default scene (docs/scene-file.md): the seed 000 demo screen — shop, "Trail backpack",
/// `backpack.fill`, indigo, iPhone 16, light — with taps at 0.30 s, 0.50 s and 1.40 s so that two
/// flights overlap. `Examples/fly-button.json` holds the same text.
public enum DefaultScene {
    /// The name error messages give the embedded scene in place of a file name.
    public static let fileName = "<default scene>"
    /// The embedded scene's JSON text, the same bytes as `Examples/fly-button.json`
    /// (docs/scene-file.md).
    public static let json = """
    {
      "version": 1,
      "screen": "shop",
      "device": "iphone-16",
      "colorScheme": "light",
      "reduceMotion": false,
      "locale": "en_US",
      "tint": "indigo",
      "fps": 60,
      "shop": {
        "title": "Shop",
        "productName": "Trail backpack",
        "productDescription": "Twenty liters, water resistant and light enough for every day.",
        "image": "symbol:backpack.fill",
        "imageLabel": "Trail backpack",
        "buttonTitle": "Add to Cart",
        "count": 0,
        "cartFrame": "measured"
      },
      "events": [
        { "at": 0.30, "tap": "add" },
        { "at": 0.50, "tap": "add" },
        { "at": 1.40, "tap": "add" }
      ]
    }

    """

    /// The default scene, decoded with the given command-line overrides. It names no image or
    /// font file, so no file is read.
    public static func scene(overrides: SceneOverrides = SceneOverrides(), baseDirectory: String) throws -> Scene {
        try SceneDecoder.decode(Array(json.utf8), file: fileName, baseDirectory: baseDirectory, overrides: overrides, files: NoSceneFiles())
    }
}
