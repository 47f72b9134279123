#!/usr/bin/env bash
# Makes every picture of README.md and docs/ from today's code, the one command that does
# (`make docs-images` runs it with the release build; DocsImagesTests runs it with the debug
# build and fails when a committed picture no longer matches what it makes):
#   strip.png          the README's hero: five frames of the demo at 1x, top 592 px, side by side
#   contact-sheet.png  cartrender --contact-sheet of the demo (docs/motion-and-look.md)
#   viewer.png         Scripts/viewer-screenshot.sh (the viewer at frame 42)
#   report.png         Scripts/report-screenshot.sh (a verify report with failures)
#
# Usage: Scripts/docs-images.sh [DIR]       (default: docs; the pictures are written into DIR)
# Needs: the Debian package chromium (apt-get install chromium), and a built cartrender
# (release if present, else debug; set BIN= to choose).
set -euo pipefail

SHOT_NAME=docs-images SHOT_WORK=cartrender-docs-images
source "$(dirname "$0")/lib/screenshot.sh"
DIR=$(realpath -m "${1:-docs}")
mkdir -p "$DIR"

# The strip: the demo at 1x; frames 36 (0.6 s: two flights overlap), 47 (the first lands),
# 57 (the badge bumps to 1), 93 (1.55 s: the third flight leaves the button) and 110 (it arcs
# into the badge); the top 590 px of each, side by side in a 1 px frame, drawn by Chromium at
# device scale 1.
"$BIN" --scale 1 --frames 36-110 --out "$WORK/strip" --quiet
STRIP_FRAMES=(36 47 57 93 110)
{
    echo '<!doctype html><meta charset="utf-8"><style>'
    echo 'html,body{margin:0;background:#d1d1d6}body{display:flex;padding:1px}'
    echo 'div{width:393px;height:590px;overflow:hidden}img{display:block}</style>'
    for f in "${STRIP_FRAMES[@]}"; do printf '<div><img src="frame_%04d.png"></div>\n' "$f"; done
} > "$WORK/strip/strip.html"
screenshot "file://$WORK/strip/strip.html" "$DIR/strip.png" "$(( 5 * 393 + 2 )),592"

"$BIN" --contact-sheet --scale 1 --out "$WORK/sheet" --quiet
cp "$WORK/sheet/contact-sheet.png" "$DIR/contact-sheet.png"
echo "docs-images: wrote $DIR/contact-sheet.png"

BIN="$BIN" Scripts/viewer-screenshot.sh "$DIR/viewer.png"
BIN="$BIN" Scripts/report-screenshot.sh "$DIR/report.png"
