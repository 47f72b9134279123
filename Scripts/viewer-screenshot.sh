#!/usr/bin/env bash
# Renders the demo with --viewer and saves a headless-Chromium screenshot of its index.html at
# frame 42 (0.7 s: two flights in the air), the picture of the viewer in the README.
#
# Usage: Scripts/viewer-screenshot.sh [OUTPUT.png]       (default: docs/viewer.png)
# Needs: the Debian package chromium (apt-get install chromium), and a built cartrender
# (release if present, else debug; set BIN= to choose).
set -euo pipefail

# shellcheck disable=SC2034 # read by the sourced lib/screenshot.sh
SHOT_NAME=viewer-screenshot SHOT_WORK=cartrender-viewer-shot
# shellcheck source=Scripts/lib/screenshot.sh
source "$(dirname "$0")/lib/screenshot.sh"
OUT=$(realpath -m "${1:-docs/viewer.png}")
"$BIN" --out "$WORK/frames" --viewer --quiet
screenshot "file://$WORK/frames/index.html#frame=42&arcs" "$OUT" 1200,820
