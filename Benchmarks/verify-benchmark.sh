#!/usr/bin/env bash
# Benchmark of `cartrender verify` (not a test): 120 frames of the default scene at 3x
# (1179×2556 px) verified against
#   1. an identical baseline (written by `cartrender --out`: equal bytes, the fast path),
#   2. a re-encoded baseline (same pixels, other PNG bytes: every frame decoded and compared),
#   3. a baseline with a small change in every frame (an 8×8 px square: every frame fails and
#      gets expected / actual / diff images in the report),
# and ImageMagick's `compare -metric AE` on the same pairs, run with as many processes as
# cartrender has threads. Prints frames per second for each.
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

now() { date +%s.%N; }
fps() { awk -v n="$1" -v s="$2" -v e="$3" 'BEGIN { printf "%7.2f s  %7.1f frames/s", e - s, n / (e - s) }'; }
row() { printf '%-58s %s\n' "$1" "$2"; }

rm -rf "$WORK"/{baseline,reencoded,changed,actual,report-*}
mkdir -p "$WORK"

# The frames: rendering alone, for reference.
t0=$(now)
"$BIN" --out "$WORK/baseline" --frames 0-$LAST --jobs "$JOBS" --quiet
t1=$(now)
RENDER=$(fps $FRAMES "$t0" "$t1")
cp -r "$WORK/baseline" "$WORK/actual"

# Baselines 2 and 3, made with ImageMagick (not timed).
echo "preparing the re-encoded and changed baselines…" >&2
mkdir -p "$WORK/reencoded" "$WORK/changed"
ls "$WORK/baseline" | grep '^frame_.*\.png$' | xargs -P "$JOBS" -I{} sh -c '
    f={}; i=$(echo "$f" | tr -dc 0-9 | sed "s/^0*//"); i=${i:-0}
    '"$CONVERT"' "'"$WORK"'/baseline/$f" -define png:compression-level=9 "PNG32:'"$WORK"'/reencoded/$f"
    x=$((100 + 7 * i)); y=$((1200 + 3 * i))
    '"$CONVERT"' "'"$WORK"'/baseline/$f" -fill "#ff00ff" -draw "rectangle $x,$y $((x + 7)),$((y + 7))" "PNG32:'"$WORK"'/changed/$f"'

verify() {  # baseline-dir report-dir expected-status
    local start end status=0
    start=$(now)
    "$BIN" verify --baseline "$WORK/$1" --report "$WORK/$2" --frames 0-$LAST --jobs "$JOBS" --quiet > "$WORK/$2.out" || status=$?
    end=$(now)
    [ "$status" = "$3" ] || { echo "verify against $1 exited $status, expected $3" >&2; cat "$WORK/$2.out" >&2; exit 70; }
    fps $FRAMES "$start" "$end"
}

imagemagick() {  # baseline-dir
    local start end
    start=$(now)
    ls "$WORK/actual" | grep '^frame_.*\.png$' | xargs -P "$JOBS" -I{} sh -c \
        "$COMPARE -metric AE '$WORK/$1/{}' '$WORK/actual/{}' null: 2>/dev/null || true"
    end=$(now)
    fps $FRAMES "$start" "$end"
}

diffdirs() {  # baseline-dir expected-status
    local start end status=0
    start=$(now)
    "$BIN" diff "$WORK/$1" "$WORK/actual" --jobs "$JOBS" > /dev/null || status=$?
    end=$(now)
    [ "$status" = "$2" ] || { echo "diff against $1 exited $status, expected $2" >&2; exit 70; }
    fps $FRAMES "$start" "$end"
}

echo
echo "cartrender verify benchmark: $FRAMES frames, 1179×2556 px (3x), $JOBS threads/processes, $(nproc) cores"
echo
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
