#!/usr/bin/env bash
# Benchmark of verify's failure path and its report (not a test): the default scene at 3x
# (Examples/fly-button.json, 1179×2556 px, every frame), its baseline recorded, then
#   1. verify passing (equal bytes: the fast path),
#   2. verify with the tint changed, so that every frame fails: its time against the passing
#      run's (target: at most 3×) and the size of its report (target: at most 35 MB; the
#      baseline's distinct frames are shown for scale),
#   3. review of that failing run, and Accept of one frame (frame 100) through its HTTP
#      endpoint, timed from the request to the answer (target: under 1 s): the frame is
#      verified again and recorded, and the report's files are rewritten.
# Prints one line per figure, with the target and whether it is met. The README and
# docs/snapshot-testing.md quote its output. Needs curl.
#
# Usage: Benchmarks/report-benchmark.sh [WORKDIR]   (CARTRENDER=path to use another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${1:-$(mktemp -d /tmp/cartrender-report-bench.XXXXXX)}
if [ -z "${CARTRENDER:-}" ]; then
    echo "building release…" >&2
    swift build -c release --product cartrender >&2
fi
BIN=$(realpath "${CARTRENDER:-.build/release/cartrender}")
export CI=true
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK"
cp "$OLDPWD/Examples/fly-button.json" scene.json
sed 's/"tint": *"[a-z]*"/"tint": "red"/' scene.json > red.json
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N); echo "$e - $s" | bc; }
mb() { du -sb "$1" | awk '{printf "%.1f", $1 / 1e6}'; }
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t ? "met" : "NOT met") }'; }

"$BIN" verify scene.json --baseline base --record all --report first --scale 3 --quiet >/dev/null
distinct=$(cd base && sha256sum frame_*.png | awk '{print $1}' | sort -u | wc -l)
distinct_mb=$(cd base && sha256sum frame_*.png | sort -k1,1 -u | awk '{print $2}' | xargs du -cb | tail -1 | awk '{printf "%.1f", $1 / 1e6}')
frames=$(find base -maxdepth 1 -name 'frame_*.png' | wc -l)
pass=$(seconds "$BIN" verify scene.json --baseline base --record never --report passing --scale 3 --quiet)
fail=$(seconds "$BIN" verify red.json --baseline base --record never --report failing --scale 3 --quiet)
ratio=$(echo "$fail / $pass" | bc -l)
size=$(mb failing)

# Review on a copy of the baseline, then one Accept: POST /accept with the run's token.
cp -a base accept-base
"$BIN" review red.json --baseline accept-base --record never --report accept-report --scale 3 --quiet > review.out 2> review.err &
review=$!
url=
for _ in $(seq 1200); do
    url=$(grep -m1 '^http://127.0.0.1:' review.out || true)
    [ -n "$url" ] || ! kill -0 "$review" 2>/dev/null && break
    sleep 0.1
done
[ -n "$url" ] || { echo "review printed no address: $(cat review.err)" >&2; kill "$review" 2>/dev/null; exit 1; }
s=$(date +%s.%N)
answer=$(curl -sS -X POST -H "X-Cartrender-Token: ${url##*token=}" "${url%%/\?*}/accept?frame=frame_0100.png")
e=$(date +%s.%N)
accept=$(echo "$e - $s" | bc)
# SIGTERM: a background job of a script has SIGINT ignored.
kill -TERM "$review"; wait "$review" || true

printf '%-62s %s\n' "baseline: frames, distinct frames (their size)" "$frames, $distinct ($distinct_mb MB)"
printf '%-62s %s\n' "verify passing, default scene at 3x" "$(printf '%.2f' "$pass") s"
printf '%-62s %s\n' "verify with every frame failing (tint changed)" "$(printf '%.2f' "$fail") s = $(printf '%.1f' "$ratio")× passing (target ≤ 3×: $(verdict "$ratio" 3))"
printf '%-62s %s\n' "its report directory" "$size MB (target ≤ 35 MB: $(verdict "$size" 35))"
images() { find failing -name "$1" -printf '%s\n' | awk '{ n++; s += $1 } END { printf "%d (%.1f MB, %.0f kB each)", n, s / 1e6, n ? s / n / 1e3 : 0 }'; }
printf '%-62s %s\n' "its images: frames (expected, actual); diff images" "$(images 'img_*.png'); $(images 'diff_*.png')"
case "$answer" in
    "accepted 1 frame;"*) met=$(verdict "$accept" 0.999) ;;
    *) met="NOT met: the answer was '$answer'" ;;
esac
printf '%-62s %s\n' "review of it: Accept of one frame (frame 100)" "$(printf '%.2f' "$accept") s (target < 1 s: $met)"
