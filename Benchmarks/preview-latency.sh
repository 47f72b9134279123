#!/usr/bin/env bash
# Benchmark of `cartrender preview` (not a test): how long after a save of the scene its open
# pages get the new frames. It previews the default scene (Sources/CartRenderCore/Scene/
# DefaultScene.swift, as a file) at the preview's default scale (1x), listens to the server's
# event stream as a page does (GET /events), then SAVES times saves a new tint (a temporary file
# renamed over the scene, as editors save) and measures, from the rename, the time until
#   1. the first `render` event: the frame under the playhead (here 0.7 s) drawn, the rest
#      still the earlier frames ("complete": false) — what the page shows first;
#   2. the complete render ("complete": true): every frame drawn again where it changed.
# Prints the median and the slowest of each, and the preview's CPU time while idle for 10 s.
# The figures include the 0.1 s debounce of the file watcher.
#
# Usage: Benchmarks/preview-latency.sh        (SAVES=N, default 10; BIN= the cartrender binary,
#                                              default the release build, else the debug build)
# Needs: python3, a built cartrender.
set -euo pipefail

cd "$(dirname "$0")/.."
SAVES=${SAVES:-10}
if [ -z "${BIN:-}" ]; then
    if [ -x .build/release/cartrender ]; then BIN=.build/release/cartrender; else BIN=.build/debug/cartrender; fi
fi
[ -x "$BIN" ] || { echo "preview-latency: no cartrender at $BIN: swift build -c release" >&2; exit 69; }
BIN=$(realpath "$BIN")
WORK=$(mktemp -d /tmp/cartrender-preview-latency.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# The default scene as a file: the text between the first `"""` pair of DefaultScene.swift.
sed -n '/static let json = """/,/^    """/p' Sources/CartRenderCore/Scene/DefaultScene.swift | sed '1d;$d' | sed 's/^    //' > "$WORK/scene.json"
grep -q '"tint": "indigo"' "$WORK/scene.json" || { echo "preview-latency: the default scene has no indigo tint to change" >&2; exit 70; }

python3 - "$BIN" "$WORK" "$SAVES" <<'PY'
import json, os, signal, statistics, subprocess, sys, time, urllib.request

binary, work, saves = sys.argv[1], sys.argv[2], int(sys.argv[3])
scene = os.path.join(work, "scene.json")
original = open(scene).read()
started = time.monotonic()
preview = subprocess.Popen([binary, "preview", "scene.json"], cwd=work, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, env=dict(os.environ, TMPDIR=work),
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
try:
    url = preview.stdout.readline().strip()
    first = time.monotonic() - started
    origin, token = url.split("/?token=")
    req = urllib.request.Request(f"{origin}/playhead?t=0.7", method="POST", headers={"X-Cartrender-Token": token})
    urllib.request.urlopen(req, timeout=10).read()
    stream = urllib.request.urlopen(f"{origin}/events?token={token}", timeout=120)

    def events():
        name, data = None, []
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "): name = line[7:]
            elif line.startswith("data: "): data.append(line[6:])
            elif line == "" and name:
                yield name, json.loads("\n".join(data))
                name, data = None, []

    stream_events = events()
    state = next(stream_events)[1]
    frames = state["variants"][0]["data"]["frameCount"]
    playhead, complete = [], []
    for k in range(saves):
        tint = ["#00A000", "#E4572E"][k % 2]
        temporary = scene + ".swp"
        open(temporary, "w").write(original.replace('"tint": "indigo"', f'"tint": "{tint}"'))
        saved = time.monotonic()
        os.replace(temporary, scene)
        partial = None
        for name, state in stream_events:
            if state["errors"]:
                sys.exit(f"preview-latency: the save does not render: {state['errors']}")
            if not state["complete"] and partial is None:
                partial = time.monotonic() - saved
            if state["complete"]:
                complete.append(time.monotonic() - saved)
                playhead.append(partial if partial is not None else complete[-1])
                break
        time.sleep(0.3)

    def cpu():
        fields = open(f"/proc/{preview.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    idle_start, clock = cpu(), time.monotonic()
    time.sleep(10)
    idle = (cpu() - idle_start) / (time.monotonic() - clock)

    ms = lambda s: f"{s * 1000:.0f} ms"
    print(f"preview of the default scene at 1x, {frames} frames ({os.path.basename(os.path.dirname(binary))} build), {saves} saves of a new tint")
    print(f"first render and address:            {ms(first)}")
    print(f"save -> frame under the playhead:     median {ms(statistics.median(playhead))}, slowest {ms(max(playhead))}")
    print(f"save -> every frame:                  median {ms(statistics.median(complete))}, slowest {ms(max(complete))}")
    print(f"idle CPU (10 s, one page connected):  {idle * 100:.2f} % of a core")
finally:
    preview.send_signal(signal.SIGINT)
    preview.wait(timeout=30)
PY
