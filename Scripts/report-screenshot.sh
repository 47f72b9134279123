#!/usr/bin/env bash
# Opens a real `cartrender verify` report in headless Chromium (Debian's `chromium`) and saves a
# screenshot, so that the report is seen in a browser and not only tested as text.
#
# It records a baseline of the default scene (at 30 fps), then verifies a variant whose third tap
# comes 0.1 s later, so that a stretch of frames fails and the state diverges (the baseline keeps
# its manifest.json), and screenshots the report's index.html.
#
# Usage: Scripts/report-screenshot.sh [OUTPUT.png]       (default: docs/report.png)
# Needs: the Debian package chromium (apt-get install chromium), and a built cartrender
# (release if present, else debug; set BIN= to choose).
set -euo pipefail

# shellcheck disable=SC2034 # read by the sourced lib/screenshot.sh
SHOT_NAME=report-screenshot SHOT_WORK=cartrender-report-shot
# shellcheck source=Scripts/lib/screenshot.sh
source "$(dirname "$0")/lib/screenshot.sh"
OUT=$(realpath -m "${1:-docs/report.png}")

"$BIN" schema > /dev/null   # fails early with a clear message when the build is broken
cat > "$WORK/fly.json" <<'JSON'
{
  "version": 1, "screen": "shop", "device": "iphone-16", "colorScheme": "light", "reduceMotion": false,
  "locale": "en_US", "tint": "indigo", "fps": 30,
  "shop": {
    "title": "Shop", "productName": "Trail backpack",
    "productDescription": "Twenty liters, water resistant and light enough for every day.",
    "image": "symbol:backpack.fill", "imageLabel": "Trail backpack", "buttonTitle": "Add to Cart",
    "count": 0, "cartFrame": "measured"
  },
  "events": [ { "at": 0.30, "tap": "add" }, { "at": 0.50, "tap": "add" }, { "at": 1.40, "tap": "add" } ]
}
JSON
sed 's/"at": 1.40/"at": 1.50/' "$WORK/fly.json" > "$WORK/fly-later.json"

# Relative paths, as a user would type them, so that the report shows them.
cd "$WORK"
"$BIN" verify fly.json --baseline snapshots/fly --record all --quiet > /dev/null
status=0
"$BIN" verify fly-later.json --baseline snapshots/fly --record never --quiet > verify.out || status=$?
tail -n 1 verify.out
[ "$status" = 1 ] || { echo "report-screenshot: verify exited $status, expected 1 (differences)" >&2; exit 70; }

REPORT="$WORK/snapshots/cartrender-report/index.html"
[ -f "$REPORT" ] || { echo "report-screenshot: no report at $REPORT" >&2; exit 70; }
screenshot "file://$REPORT" "$OUT" 1440,1100
