/// Help and version texts (printed to stdout).
public enum Help {
    public static let version = "cartrender \(Manifest.version)"

    public static var main: String {
        var s = """
        cartrender — draws every frame of two iOS commerce animations (the Add to Cart fly button
        and the cart page with swipe-to-delete) through Cairo, from a JSON scene file.

        USAGE
          cartrender [SCENE.json] [options]      render frames (the built-in demo when no SCENE)
          cartrender verify SCENE.json --baseline DIR [options]
          cartrender diff A.png B.png [--out DIFF.png] [--threshold T]
          cartrender merge DIR... [--out DIR]    join the outputs of --shard runs
          cartrender schema                      print the JSON Schema of scene files
          cartrender --help | --version

        RENDER OPTIONS

        """
        for spec in RenderCommand.specs {
            let left = "  " + spec.name + (spec.value.map { " " + $0 } ?? "")
            s += left.padding(toLength: max(left.count + 2, 30), withPad: " ", startingAt: 0) + spec.help + "\n"
        }
        s += """

        EXIT STATUS
          0 success · 1 differences found (verify, diff) · 64 bad command line · 65 invalid scene
          or input data · 66 input file missing or unreadable · 69 a required Debian package is
          missing · 70 internal error · 73 output cannot be written · 130/143 interrupted

        EXAMPLES
          cartrender --out frames/
          cartrender Examples/rapid-taps.json --format svg --out out/
          cartrender --at 0.6 --scale 1 --out /tmp/mid-flight
        """
        return s
    }
}
