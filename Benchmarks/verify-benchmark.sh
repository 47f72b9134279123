#!/usr/bin/env bash
# Benchmark of `cartrender verify` (not a test): 120 frames of the default scene at 3x
# (1179×2556 px) verified against
#   1. an identical baseline (written by `cartrender --out`: equal bytes, the fast path),
#   2. a re-encoded baseline (same pixels, other PNG bytes: every frame decoded and compared),
#   3. a baseline with a small change in every frame (an 8×8 px square: every frame fails and
#      gets expected / actual / diff images in the report),
# and ImageMagick's `compare -metric AE` on the same pairs, run with as many processes as
# cartrender has threads. Prints, for each, the wall-clock time and frames per second, and the
# CPU time (user + system, children included) and frames per CPU second: on a machine shared with
# other work the wall-clock numbers vary, the CPU numbers much less.
#
# Usage: Benchmarks/verify-benchmark.sh [WORKDIR]     (JOBS=N to change the thread count)
# Needs: swift, ImageMagick 6 (`convert`, `compare`), the Debian packages of the README.
set -euo pipefail

cd "$(dirname "$0")/.."
FRAMES=120
LAST=$((FRAMES - 1))
JOBS=${JOBS:-$(nproc)}
WORK=${1:-$(mktemp -d /tmp/cartrender-bench.XXXXXX)}
CONVERT=/usr/bin/convert
COMPARE=/usr/bin/compare
for tool in "$CONVERT" "$COMPARE"; do
    [ -x "$tool" ] || { echo "verify-benchmark: $tool not found; install the Debian package imagemagick" >&2; exit 69; }
done

echo "building release…" >&2
swift build -c release --product cartrender >&2
BIN=.build/release/cartrender
export CI=true   # verify never records here

TIMEFORMAT='%R %U %S'
# timed FILE COMMAND…: runs COMMAND, leaving "wall user sys" (s) in FILE; returns its status.
timed() { local file=$1; shift; local status=0; { time "$@" ; } 2> "$file.time" || status=$?; tail -n 1 "$file.time" > "$file"; return $status; }
fps() {  # FILE with "wall user sys"
    awk -v n="$FRAMES" '{ cpu = $2 + $3; printf "%7.2f s %8.1f frames/s %9.2f s %8.1f frames/CPU-s", $1, n / $1, cpu, n / cpu }' "$1"
}
row() { printf '%-56s %s\n' "$1" "$2"; }

rm -rf "$WORK"/{baseline,reencoded,changed,actual,report-*}
mkdir -p "$WORK"

# The frames: rendering alone, for reference.
timed "$WORK/render.t" "$BIN" --out "$WORK/baseline" --frames 0-$LAST --jobs "$JOBS" --quiet
RENDER=$(fps "$WORK/render.t")
cp -r "$WORK/baseline" "$WORK/actual"

# Baselines 2 and 3, made with ImageMagick (not timed).
echo "preparing the re-encoded and changed baselines…" >&2
mkdir -p "$WORK/reencoded" "$WORK/changed"
# shellcheck disable=SC2016 # the single-quoted text is sh -c's script, expanded there
find "$WORK/baseline" -maxdepth 1 -name 'frame_*.png' -printf '%f\n' | sort | xargs -P "$JOBS" -I{} sh -c '
    f={}; i=$(echo "$f" | tr -dc 0-9 | sed "s/^0*//"); i=${i:-0}
    '"$CONVERT"' "'"$WORK"'/baseline/$f" -define png:compression-level=9 "PNG32:'"$WORK"'/reencoded/$f"
    x=$((100 + 7 * i)); y=$((1200 + 3 * i))
    '"$CONVERT"' "'"$WORK"'/baseline/$f" -fill "#ff00ff" -draw "rectangle $x,$y $((x + 7)),$((y + 7))" "PNG32:'"$WORK"'/changed/$f"'

run_verify() { "$BIN" verify --baseline "$WORK/$1" --report "$WORK/$2" --frames 0-$LAST --jobs "$JOBS" --quiet > "$WORK/$2.out"; }
verify() {  # baseline-dir report-dir expected-status
    local status=0
    timed "$WORK/$2.t" run_verify "$1" "$2" || status=$?
    [ "$status" = "$3" ] || { echo "verify against $1 exited $status, expected $3" >&2; cat "$WORK/$2.out" >&2; exit 70; }
    fps "$WORK/$2.t"
}

run_imagemagick() {
    find "$WORK/actual" -maxdepth 1 -name 'frame_*.png' -printf '%f\n' | sort | xargs -P "$JOBS" -I{} sh -c \
        "$COMPARE -metric AE '$WORK/$1/{}' '$WORK/actual/{}' null: 2>/dev/null || true"
}
imagemagick() {  # baseline-dir
    timed "$WORK/im-$1.t" run_imagemagick "$1"
    fps "$WORK/im-$1.t"
}

run_diff() { "$BIN" diff "$WORK/$1" "$WORK/actual" --jobs "$JOBS" > /dev/null; }
diffdirs() {  # baseline-dir expected-status
    local status=0
    timed "$WORK/diff-$1.t" run_diff "$1" || status=$?
    [ "$status" = "$2" ] || { echo "diff against $1 exited $status, expected $2" >&2; exit 70; }
    fps "$WORK/diff-$1.t"
}

echo
echo "cartrender verify benchmark: $FRAMES frames, 1179×2556 px (3x), $JOBS threads/processes, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo
printf '%-56s %s\n' "" "   wall-clock            CPU (user + system)"
row "render only (cartrender --out)" "$RENDER"
row "verify, identical baseline (render + byte compare)" "$(verify baseline report-identical 0)"
row "verify, re-encoded baseline (render + decode + compare)" "$(verify reencoded report-reencoded 0)"
row "verify, 8×8 px change per frame (+ report images)" "$(verify changed report-changed 1)"
row "diff dirs, identical (no render)" "$(diffdirs baseline 0)"
row "diff dirs, re-encoded (no render)" "$(diffdirs reencoded 0)"
row "diff dirs, 8×8 px change per frame (no render)" "$(diffdirs changed 1)"
row "ImageMagick compare -metric AE, identical pairs" "$(imagemagick baseline)"
row "ImageMagick compare -metric AE, re-encoded pairs" "$(imagemagick reencoded)"
row "ImageMagick compare -metric AE, changed pairs" "$(imagemagick changed)"
echo
echo "failing frames reported: $(grep -c '^FAIL' "$WORK/report-changed.out") of $FRAMES (report: $WORK/report-changed/index.html)"
