#!/usr/bin/env bash
# Peak resident memory of renders of growing length (issue #7: no growth per frame).
#
#   Scripts/rss-render.sh
#
# Renders a 10 s scene with a tap every 0.9 s (so the badge and flights animate throughout)
# at scale 1, as 61, 601 and 2401 frames, with /usr/bin/time, and prints the peak RSS of each
# and the cost per extra frame. What grows with the frame count, by design: the manifest's
# per-frame entries, held until the manifest is written last, and Pango's and Cairo's font
# caches, which are bounded. Fails when 2401 frames cost more than 8 KiB per frame over 601.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product cartrender >/dev/null
bin="$PWD/.build/release/cartrender"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
events=$(awk 'BEGIN { for (i = 0; i <= 10; i++) printf "{\"at\": %.1f, \"tap\": \"add\"},", 0.3 + i * 0.9 }')
printf '{"duration": 10, "events": [%s]}\n' "${events%,}" > "$work/scene.json"

declare -A peak
for format in png svg; do
    for fps in 6 60 240; do
        rm -rf "$work/out"
        kib=$( { /usr/bin/time -f "%M" "$bin" "$work/scene.json" --out "$work/out" --fps "$fps" --scale 1 --format "$format" --quiet; } 2>&1 )
        frames=$(( fps * 10 + 1 ))
        peak[$format$frames]=$kib
        printf '%-4s %5d frames: peak RSS %6d KiB\n' "$format" "$frames" "$kib"
    done
    per=$(( (peak[${format}2401] - peak[${format}601]) * 1024 / 1800 ))
    printf '%-4s 601 → 2401 frames: %d bytes per extra frame\n' "$format" "$per"
    if [ "$per" -gt 8192 ]; then echo "FAIL: $format grows by more than 8 KiB per frame"; exit 1; fi
done
