#!/usr/bin/env bash
# Benchmark of cartrender's GIF output (not a test: prints figures, asserts nothing about them).
#
# The default scene (198 frames at 60 fps), at 3x (1179×2556 px) and at --scale 1 (393×852 px):
#   cartrender --format gif                 the whole render, scene → GIF
#   cartrender GIF encoding only            (--format png,gif) − (--format png): what the GIF adds
#   cartrender --gif-quality 70-98          the smaller, less exact setting (see GIFOptions.quality)
# against the usual route, ffmpeg's two passes over the same PNG frames (palettegen, then
# paletteuse), in three recipes:
#   ffmpeg 60 fps          -framerate 60 … palettegen=stats_mode=diff; paletteuse=dither=sierra2_4a:diff_mode=rectangle
#   ffmpeg fps=50          the same with fps=50 first (the best-known recipe: 60 fps GIFs get
#                          1-cs delays, which browsers play as 10 cs, so the 60 fps file runs ~2.8× too slow)
#   ffmpeg fps=50, defaults  fps=50,palettegen then paletteuse with ffmpeg's defaults
# ffmpeg's time is both passes, PNG decoding included (it starts from the PNGs on disk).
#
# For each: wall-clock time (fastest of REPEAT runs) and its CPU time (user + system), file size
# (kB = 1000 bytes), how long it plays in a browser (delays under 2 cs count as 10 cs, which is
# what ffprobe's GIF demuxer does by default), and two mean SSIMs, both from ffmpeg's ssim filter
# on the same decoding for every GIF (see ssim_pair below for the time alignment).
#
# Usage: Benchmarks/gif-benchmark.sh [WORKDIR]   (SCALES="3 1", REPEAT=3, JOBS=N, KEEP=1 keeps WORKDIR)
# Needs: swift, the Debian packages of the README, and ffmpeg (apt-get install ffmpeg: for this
# benchmark only, not a dependency of cartrender).
# shellcheck disable=SC2317 # prepare() and render() are redefined per step and called by measure()
set -euo pipefail

cd "$(dirname "$0")/.."
SCALES=${SCALES:-"3 1"}
REPEAT=${REPEAT:-3}
JOBS=${JOBS:-$(nproc)}
if [ $# -ge 1 ]; then WORK=$1; mkdir -p "$WORK"; else WORK=$(mktemp -d /tmp/cartrender-gifbench.XXXXXX); fi
[ "${KEEP:-0}" = 1 ] || [ $# -ge 1 ] || trap 'rm -rf "$WORK"' EXIT
for tool in ffmpeg ffprobe; do
    command -v "$tool" > /dev/null || { echo "gif-benchmark: $tool not found; apt-get install ffmpeg" >&2; exit 69; }
done

echo "building release (if needed)…" >&2
swift build -c release --product cartrender >&2
BIN=$PWD/.build/release/cartrender

TIMEFORMAT='%R %U %S'
# measure NAME COMMAND…: runs COMMAND REPEAT times (NAME's prepare step first, untimed) and sets
# WALL and CPU (s) to the fastest run's wall-clock time and its user + system time.
prepare() { :; }
measure() {
    local name=$1; shift
    WALL=; CPU=
    local r w u s
    for ((r = 0; r < REPEAT; r++)); do
        prepare
        { time "$@" > "$WORK/$name.out" 2> "$WORK/$name.err"; } 2> "$WORK/$name.time" \
            || { echo "gif-benchmark: $name failed:" >&2; cat "$WORK/$name.err" >&2; exit 70; }
        read -r w u s < <(tail -n 1 "$WORK/$name.time")
        if [ -z "$WALL" ] || awk -v a="$w" -v b="$WALL" 'BEGIN { exit !(a < b) }'; then
            WALL=$(awk -v w="$w" 'BEGIN { printf "%.2f", w }'); CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
        fi
    done
}

# ssim_pair GIF PNGDIR SHIFT STATS: ffmpeg's ssim of the GIF against the PNG frames, "All" mean.
#
# Time alignment. PNG n shows t = n/60 s. A GIF stores delays in centiseconds, so image starts are
# those times rounded to whole cs (frame 1 of a 60 fps source starts at 2 cs, not 1.67), and at
# 50 fps (both cartrender and the fps=50 recipes) it shows one image per 2-cs tick, 33 of the 198
# frames dropped. The GIF is decoded with its own delays (-min_delay 1 keeps 1-cs delays instead of
# the 10 cs a browser substitutes, so the 60 fps recipe is compared at its intended timing) and
# resampled to the PNG times with fps=60:round=near: each GIF image's start is rounded to the
# nearest 1/60-s slot and slot n gets the latest image placed at or before it. So PNG n is compared
# with the image on screen at t = n/60, except that an image starting less than half a frame
# (0.83 cs) after t already counts: that absorbs the centisecond rounding of start times, which
# would otherwise count a correct frame 0.33 cs late as the wrong frame. Same decoding, same
# resampling, same filter for every GIF.
# gbrp on both sides: SSIM on R, G, B planes with no YUV conversion; "All" is their mean.
#
# SHIFT -1/0/+1 compares slot n with PNG n−1/n/n+1 (for the "colour" SSIM below).
ssim_pair() {
    local gif=$1 dir=$2 shift=$3 stats=$4 start=0 trim=""
    [ "$shift" = 1 ] && start=1
    [ "$shift" = -1 ] && trim=",trim=start_frame=1"
    ffmpeg -nostdin -nostats -hide_banner -min_delay 1 -i "$gif" -start_number "$start" -framerate 60 -i "$dir/frame_%04d.png" \
        -lavfi "[0:v]fps=60:round=near$trim,format=gbrp,setpts=N/(60*TB)[gif];[1:v]format=gbrp,setpts=N/(60*TB)[png];[gif][png]ssim=stats_file=$stats:shortest=1" \
        -f null - 2>&1 | sed -n 's/.*All:\([0-9.]*\).*/\1/p'
}
# ssim GIF PNGDIR: prints "TIMED COLOUR".
#   TIMED  the mean SSIM at the PNG times (above): colour errors and timing together, so it also
#          counts which source frame each 50-fps tick shows (cartrender shows the latest frame whose
#          time has come, ffmpeg's fps filter the nearest one, so sometimes up to half a frame early).
#   COLOUR for each slot, the best of PNG n−1, n, n+1 (three ssim runs, per-frame maximum): the
#          PNG the image was made from, so timing and dropped frames drop out and what is left is
#          palette and dithering error.
ssim() {
    local gif=$1 dir=$2 t
    t=$(ssim_pair "$gif" "$dir" 0 "$WORK/ssim0.log")
    ssim_pair "$gif" "$dir" 1 "$WORK/ssim+1.log" > /dev/null
    ssim_pair "$gif" "$dir" -1 "$WORK/ssim-1.log" > /dev/null
    # ssim0 line k: slot k−1 vs PNG k−1; ssim+1 line k: slot k−1 vs PNG k; ssim-1 line k: slot k vs PNG k−1.
    awk -v timed="$t" 'function all(line) { sub(/.*All:/, "", line); sub(/ .*/, "", line); return line + 0 }
        function keep(i, v) { if (!(i in best) || v > best[i]) best[i] = v }
        FILENAME ~ /ssim0/ { keep(FNR - 1, all($0)); n = FNR }
        FILENAME ~ /ssim\+1/ { keep(FNR - 1, all($0)) }
        FILENAME ~ /ssim-1/ { keep(FNR, all($0)) }
        END { for (i = 0; i < n; i++) sum += best[i]; printf "%.6f %.6f", timed, sum / n }' \
        "$WORK/ssim0.log" "$WORK/ssim+1.log" "$WORK/ssim-1.log"
}
plays() { printf "%.2f" "$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$1")"; }
kb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1000 }'; }
row() {  # NAME WALL CPU GIF (GIF "-" for a time-only row)
    if [ "$4" = - ]; then
        printf '%-40s %8s %8s %10s %9s %10s %10s\n' "$1" "$2" "$3" "" "" "" ""
    else
        local s; read -r -a s <<< "$(ssim "$4" "$PNG")"   # its two figures, one column each
        printf '%-40s %8s %8s %10s %9s %10s %10s\n' "$1" "$2" "$3" "$(kb "$4")" "$(plays "$4")" "${s[0]}" "${s[1]}"
    fi
}

echo "cartrender GIF benchmark: default scene, $(nproc) cores, --jobs $JOBS, fastest of $REPEAT runs, load $(cut -d' ' -f1 /proc/loadavg)"
echo "$(ffmpeg -version | head -n 1 | cut -d' ' -f1-3); $("$BIN" --version)"
for scale in $SCALES; do
    S=$WORK/scale$scale
    rm -rf "$S"; mkdir -p "$S"
    PNG=$S/png
    render() { "$BIN" --scale "$scale" --jobs "$JOBS" --quiet "$@"; }

    prepare() { rm -rf "$PNG"; }
    measure png render --format png --out "$PNG"
    png_wall=$WALL png_cpu=$CPU
    prepare() { rm -rf "$S/pnggif"; }
    measure pnggif render --format png,gif --out "$S/pnggif"
    pnggif_wall=$WALL pnggif_cpu=$CPU
    prepare() { rm -rf "$S/gif"; }
    measure gif render --format gif --out "$S/gif"
    gif_wall=$WALL gif_cpu=$CPU
    prepare() { rm -rf "$S/gif98"; }
    measure gif98 render --format gif --gif-quality 70-98 --out "$S/gif98"
    gif98_wall=$WALL gif98_cpu=$CPU
    cmp -s "$S/gif/animation.gif" "$S/pnggif/animation.gif" || { echo "gif-benchmark: --format gif and --format png,gif wrote different GIFs" >&2; exit 70; }

    ff() {  # OUT PALETTE-FILTER USE-FILTER (USE-FILTER takes [x] and the palette [p])
        ffmpeg -nostdin -v error -y -framerate 60 -i "$PNG/frame_%04d.png" -vf "$2" "$S/palette.png"
        ffmpeg -nostdin -v error -y -framerate 60 -i "$PNG/frame_%04d.png" -i "$S/palette.png" -lavfi "$3" "$1"
    }
    prepare() { :; }
    measure ff60 ff "$S/ff60.gif" "palettegen=stats_mode=diff" "[0:v][1:v]paletteuse=dither=sierra2_4a:diff_mode=rectangle"
    ff60_wall=$WALL ff60_cpu=$CPU
    measure ff50 ff "$S/ff50.gif" "fps=50,palettegen=stats_mode=diff" "[0:v]fps=50[x];[x][1:v]paletteuse=dither=sierra2_4a:diff_mode=rectangle"
    ff50_wall=$WALL ff50_cpu=$CPU
    measure ff50d ff "$S/ff50d.gif" "fps=50,palettegen" "[0:v]fps=50[x];[x][1:v]paletteuse"
    ff50d_wall=$WALL ff50d_cpu=$CPU

    size=$(sed -n 's/.*"width": *\([0-9]*\).*/\1/p' "$PNG/manifest.json" | head -n 1)×$(sed -n 's/.*"height": *\([0-9]*\).*/\1/p' "$PNG/manifest.json" | head -n 1)
    echo
    echo "--scale $scale: $size px, $(find "$PNG" -maxdepth 1 -name 'frame_*.png' | wc -l) PNG frames at 60 fps ($(stat -c %s "$PNG"/frame_*.png | awk '{ s += $1 } END { printf "%.1f", s / 1e6 }') MB of PNG; rendering them: ${png_wall} s wall, ${png_cpu} s CPU)"
    printf '%-40s %8s %8s %10s %9s %10s %10s\n' "" "wall s" "CPU s" "size kB" "plays s" "SSIM" "SSIM"
    printf '%-40s %8s %8s %10s %9s %10s %10s\n' "" "" "" "" "" "timed" "colour"
    row "cartrender --format gif (render + GIF)" "$gif_wall" "$gif_cpu" "$S/gif/animation.gif"
    row "cartrender GIF encoding only" \
        "$(awk -v a="$pnggif_wall" -v b="$png_wall" 'BEGIN { printf "%.2f", a - b }')" \
        "$(awk -v a="$pnggif_cpu" -v b="$png_cpu" 'BEGIN { printf "%.2f", a - b }')" -
    row "cartrender --gif-quality 70-98" "$gif98_wall" "$gif98_cpu" "$S/gif98/animation.gif"
    row "ffmpeg 60 fps, diff + sierra2_4a + rect" "$ff60_wall" "$ff60_cpu" "$S/ff60.gif"
    row "ffmpeg fps=50, diff + sierra2_4a + rect" "$ff50_wall" "$ff50_cpu" "$S/ff50.gif"
    row "ffmpeg fps=50, default options" "$ff50d_wall" "$ff50d_cpu" "$S/ff50d.gif"
done
echo
echo "GIF encoding only = (--format png,gif) − (--format png), both whole runs; the GIF rows' wall and CPU times are whole runs."
[ "${KEEP:-0}" = 1 ] && echo "files kept in $WORK"
exit 0
