#!/usr/bin/env bash
# Renders the demo with --viewer and saves a headless-Chromium screenshot of its index.html at
# frame 42 (0.7 s: two flights in the air), the picture of the viewer in the README.
#
# Usage: Scripts/viewer-screenshot.sh [OUTPUT.png]       (default: docs/viewer.png)
# Needs: the Debian package chromium (apt-get install chromium), and a built cartrender
# (release if present, else debug; set BIN= to choose).
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=${1:-docs/viewer.png}
if [ -z "${BIN:-}" ]; then
    if [ -x .build/release/cartrender ]; then BIN=.build/release/cartrender
    else swift build --product cartrender >&2; BIN=.build/debug/cartrender; fi
fi
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "viewer-screenshot: chromium not found; apt-get install chromium" >&2; exit 69; }

WORK=$(mktemp -d /tmp/cartrender-viewer-shot.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
BIN=$(realpath "$BIN")
OUT=$(realpath -m "$OUT")
"$BIN" --out "$WORK/frames" --viewer --quiet
mkdir -p "$(dirname "$OUT")"
# --virtual-time-budget lets the page's script run and the frame load before the shot.
"$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --window-size=1200,820 --virtual-time-budget=5000 \
    --screenshot="$OUT" "file://$WORK/frames/index.html#frame=42&arcs" 2> "$WORK/chromium.log" || {
    cat "$WORK/chromium.log" >&2; exit 70; }
[ -s "$OUT" ] || { echo "viewer-screenshot: chromium wrote no screenshot" >&2; cat "$WORK/chromium.log" >&2; exit 70; }
echo "viewer-screenshot: wrote $OUT"
