#!/usr/bin/env bash
# Benchmark of cartrender beside its peers on this machine (not a test: prints figures, asserts
# nothing about them). The default scene, 198 frames at 60 fps, 3x (1179×2556 px):
#   cartrender --format png | gif | webp | png,gif,webp     the whole render
#   ffmpeg palettegen + paletteuse (fps=50)                  GIF from cartrender's PNG frames
#   img2webp -lossless (Debian webp)                         WebP from the same PNG frames
#   cartrender diff / ImageMagick compare -metric AE /       verify-style comparison of 60 pairs
#   pixelmatch CLI (PyPI pixelmatch-fast, a Python port)     (re-encoded frames: same pixels);
#                                                            pixelmatch at threshold 0.1
#   headless Chromium (Playwright, Debian's chromium)        screenshots of Benchmarks/peers/shop.html,
#                                                            a web rendition, on a virtual clock
#   Manim CE (PyPI manim, its Cairo renderer)                Benchmarks/peers/manim-frames.py as PNGs
# For each: wall-clock time and CPU time (user + system, children included; steadier on a shared
# machine), frames per second of each, and the output size; `uptime` before and after (other
# builds on the host show in the load average). A peer that is not installed is skipped with the
# reason. `make peers` installs the peers (for this benchmark only) and runs it.
#
# Usage: Benchmarks/peers.sh [WORKDIR]   (JOBS=N for cartrender's --jobs; PEERS_VENV=.build/peers;
#        BUILD=0 uses .build/release/cartrender as it is)
set -euo pipefail

cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
VENV=${PEERS_VENV:-.build/peers}
if [ $# -ge 1 ]; then WORK=$1; mkdir -p "$WORK"; else WORK=$(mktemp -d /tmp/cartrender-peers.XXXXXX); trap 'rm -rf "$WORK"' EXIT; fi
if [ "${BUILD:-1}" != 0 ]; then
    echo "building release (if needed)…" >&2
    swift build -c release --product cartrender >&2
fi
BIN=$PWD/.build/release/cartrender

TIMEFORMAT='%R %U %S'
echo "before: $(uptime)"
printf '%-52s %8s %8s %9s %9s %10s\n' "run" "wall s" "CPU s" "frames/s" "fr/CPU s" "output"
# row NAME FRAMES OUTPUT COMMAND…: runs COMMAND once and prints its row (OUTPUT: file or directory).
row() {
    local name=$1 frames=$2 output=$3; shift 3
    local w u s
    { time "$@" > "$WORK/last.out" 2> "$WORK/last.err"; } 2> "$WORK/last.time" \
        || { echo "peers: $name failed:" >&2; tail -n 5 "$WORK/last.err" >&2; return 0; }
    read -r w u s < <(tail -n 1 "$WORK/last.time")
    local size
    size=$(du -sb "$output" 2> /dev/null | awk '{ printf "%.0f kB", $1 / 1000 }')
    awk -v n="$name" -v f="$frames" -v w="$w" -v c="$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')" -v z="$size" \
        'BEGIN { printf "%-52s %8.2f %8.2f %9.1f %9.1f %10s\n", n, w, c, f / w, f / c, z }'
}
skip() { printf '%-52s skipped: %s\n' "$1" "$2"; }

for format in png gif webp png,gif,webp; do
    rm -rf "$WORK/cr"
    row "cartrender --format $format --jobs $JOBS" 198 "$WORK/cr" "$BIN" --out "$WORK/cr" --format "$format" --jobs "$JOBS" --quiet
done
rm -rf "$WORK/frames" && "$BIN" --out "$WORK/frames" --quiet

if command -v ffmpeg > /dev/null; then
    row "ffmpeg palettegen + paletteuse, fps=50 (GIF)" 198 "$WORK/ffmpeg.gif" sh -c \
        "ffmpeg -v error -y -framerate 60 -i '$WORK/frames/frame_%04d.png' -vf 'fps=50,palettegen=stats_mode=diff' '$WORK/palette.png' &&
         ffmpeg -v error -y -framerate 60 -i '$WORK/frames/frame_%04d.png' -i '$WORK/palette.png' -lavfi 'fps=50[x];[x][1:v]paletteuse=dither=sierra2_4a:diff_mode=rectangle' '$WORK/ffmpeg.gif'"
else skip "ffmpeg (GIF)" "ffmpeg not found (apt-get install ffmpeg)"; fi

if command -v img2webp > /dev/null; then
    row "img2webp -lossless (WebP)" 198 "$WORK/img2webp.webp" sh -c \
        "img2webp -loop 0 -lossless -d 17 '$WORK'/frames/frame_*.png -o '$WORK/img2webp.webp'"
else skip "img2webp (WebP)" "img2webp not found (Debian package webp)"; fi

# Verify-style: 60 pairs with the same pixels and other bytes (zlib level 9 instead of the default).
rm -rf "$WORK/a" "$WORK/b"
"$BIN" --out "$WORK/a" --frames 0-59 --quiet
"$BIN" --out "$WORK/b" --frames 0-59 --png-compression small --quiet
row "cartrender diff (60 re-encoded pairs), --jobs $JOBS" 60 "$WORK/a" "$BIN" diff "$WORK/a" "$WORK/b" --jobs "$JOBS"
if [ -x /usr/bin/compare ]; then
    row "ImageMagick compare -metric AE (60 pairs, $JOBS processes)" 60 "$WORK/a" sh -c \
        "cd '$WORK/a' && ls frame_*.png | xargs -P $JOBS -I{} sh -c '/usr/bin/compare -metric AE {} ../b/{} null: 2> /dev/null || true'"
else skip "ImageMagick compare" "/usr/bin/compare not found (Debian package imagemagick)"; fi
if [ -x "$VENV/bin/pixelmatch" ]; then
    # One untimed call first: numba compiles pixelmatch-fast's kernels once into its cache.
    "$VENV/bin/pixelmatch" "$WORK/a/frame_0000.png" "$WORK/b/frame_0000.png" > /dev/null || true
    row "pixelmatch CLI -t 0.1 (60 pairs, $JOBS processes)" 60 "$WORK/a" sh -c \
        "ls '$WORK/a' | grep '^frame_' | xargs -P $JOBS -I{} '$VENV/bin/pixelmatch' --threshold 0.1 '$WORK/a/{}' '$WORK/b/{}'"
    awk '/^Mismatched pixels:/ { n++; px += $3 } END { printf "  pixelmatch: %d pairs compared, %d mismatched pixels in all\n", n, px }' "$WORK/last.out"
else skip "pixelmatch CLI" "pixelmatch (PyPI pixelmatch-fast) is not installed in $VENV: make peers installs it"; fi

if [ -x "$VENV/bin/python3" ] && "$VENV/bin/python3" -c "import playwright" 2> /dev/null && [ -x /usr/bin/chromium ]; then
    rm -rf "$WORK/chromium"
    row "headless Chromium screenshots, virtual clock" 198 "$WORK/chromium" "$VENV/bin/python3" Benchmarks/peers/chromium-frames.py "$WORK/chromium" 198 60
else skip "headless Chromium" "Playwright (in $VENV) or /usr/bin/chromium missing: make peers installs them"; fi

if [ -x "$VENV/bin/manim" ]; then
    rm -rf "$WORK/manim"
    row "Manim CE (Cairo renderer), PNG frames" 198 "$WORK/manim/images" "$VENV/bin/manim" render -q h -r 1179,2556 --fps 60 \
        --format png-sequence --media_dir "$WORK/manim" --disable_caching Benchmarks/peers/manim-frames.py Shop
    frames=$(find "$WORK/manim/images" -name '*.png' 2> /dev/null | wc -l)
    [ "$frames" = 198 ] || echo "peers: Manim CE wrote $frames PNG frames, not 198: its row is not the same job" >&2
else skip "Manim CE" "manim is not installed in $VENV: make peers installs it (it builds pycairo and ManimPango)"; fi
echo "after: $(uptime)"
