#!/usr/bin/env bash
# Runs `cartrender preview` on a copy of Examples/png-image.json with a light/dark "variants"
# matrix, saves the scene once with a mistyped key, and saves a headless-Chromium screenshot of
# the served page: both variants side by side at 1.0 s, under the error the broken save shows
# (file, line, column) over the last good frames. The picture of the preview in the README and
# docs/command-line.md. Then stops the preview with SIGTERM (a background job of a script has
# SIGINT ignored, and cartrender leaves an ignored signal ignored) and checks it exits 143.
#
# Chromium's own --screenshot takes its picture when the page has loaded, before the page's
# event stream brings the frames (and its virtual time never advances while that stream is
# open), so Playwright drives the same Debian chromium here and waits for the frames.
#
# Usage: Scripts/preview-screenshot.sh [OUTPUT.png]       (default: docs/preview.png)
# Needs: the Debian package chromium (apt-get install chromium), Playwright for Python in
# .build/browser (make browser), and a built cartrender (release if present, else debug; set BIN=
# to choose).
set -euo pipefail

# shellcheck disable=SC2034 # read by the sourced lib/screenshot.sh
SHOT_NAME=preview-screenshot SHOT_WORK=cartrender-preview-shot
# shellcheck source=Scripts/lib/screenshot.sh
source "$(dirname "$0")/lib/screenshot.sh"
OUT=$(realpath -m "${1:-docs/preview.png}")
PYTHON=$PWD/.build/browser/bin/python3
[ -x "$PYTHON" ] || { echo "preview-screenshot: no Playwright in .build/browser; run make browser" >&2; exit 69; }

mkdir -p "$WORK/scene"
cp -r Examples/images "$WORK/scene/"
python3 - Examples/png-image.json "$WORK/scene/shop.json" <<'PY'
import json, sys
scene = json.load(open(sys.argv[1]))
scene["variants"] = {"colorScheme": ["light", "dark"]}
scene["fps"] = 30
json.dump(scene, open(sys.argv[2], "w"), indent=2)
PY

cd "$WORK/scene"
TMPDIR="$WORK" "$BIN" preview shop.json > "$WORK/address" 2> "$WORK/preview.log" &
PREVIEW=$!
stop() { kill -TERM "$PREVIEW" 2>/dev/null || true; wait "$PREVIEW" 2>/dev/null || true; }
trap 'stop; rm -rf "$WORK"' EXIT
for _ in $(seq 600); do [ -s "$WORK/address" ] && break; sleep 0.1; done
URL=$(head -n 1 "$WORK/address")
[ -n "$URL" ] || { echo "preview-screenshot: preview printed no address" >&2; cat "$WORK/preview.log" >&2; exit 70; }

# A save with a mistyped key, as an editor writes it (a temporary file renamed over the scene).
sed 's/"tint":/"tnit":/' shop.json > .shop.json.swp && mv .shop.json.swp shop.json
for _ in $(seq 600); do grep -q "tnit" "$WORK/preview.log" && break; sleep 0.1; done

mkdir -p "$(dirname "$OUT")"
"$PYTHON" - "$URL#t=1.0" "$OUT" "$CHROMIUM" <<'PY'
import sys
from playwright.sync_api import sync_playwright
url, out, chromium = sys.argv[1:]
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=chromium, headless=True)
    page = browser.new_page(viewport={"width": 1400, "height": 860})
    page.goto(url)
    page.wait_for_function("document.body.getAttribute('data-generation') !== null && !document.getElementById('errors').hidden", timeout=60_000)
    for frame in page.locator("iframe").all():
        viewer = frame.element_handle().content_frame()
        viewer.wait_for_function("window.cartrenderViewer && document.getElementById('frame-time').textContent === '1.000' && document.getElementById('frame').complete", timeout=60_000)
    page.screenshot(path=out)
    browser.close()
PY
echo "preview-screenshot: wrote $OUT"
kill -TERM "$PREVIEW"
status=0; wait "$PREVIEW" || status=$?
trap 'rm -rf "$WORK"' EXIT
[ "$status" = 143 ] || { echo "preview-screenshot: preview exited $status after SIGTERM, expected 143" >&2; cat "$WORK/preview.log" >&2; exit 70; }
