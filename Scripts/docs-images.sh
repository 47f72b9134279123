#!/usr/bin/env bash
# Makes every picture of README.md and docs/ from today's code, the one command that does
# (`make docs-images` runs it with the release build; DocsImagesTests runs it with the debug
# build and fails when a committed picture no longer matches what it makes):
#   strip.png          the README's hero: five frames of the demo at 1x, top 592 px, side by side
#   contact-sheet.png  cartrender --contact-sheet of the demo (docs/motion-and-look.md)
#   matrix.png         the cart page at 1 s (a row swiped open) in light, dark, right to left
#                      (ar_SA), accessibility5 and on a 320 pt screen, side by side at 1x
#   viewer.png         Scripts/viewer-screenshot.sh (the viewer at frame 42)
#   report.png         Scripts/report-screenshot.sh (a verify report with failures)
#
# Usage: Scripts/docs-images.sh [DIR]       (default: docs; the pictures are written into DIR)
# Needs: the Debian package chromium (apt-get install chromium), and a built cartrender
# (release if present, else debug; set BIN= to choose).
set -euo pipefail

# shellcheck disable=SC2034 # read by the sourced lib/screenshot.sh
SHOT_NAME=docs-images SHOT_WORK=cartrender-docs-images
# shellcheck source=Scripts/lib/screenshot.sh
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

# The matrix: Examples/cart-swipe.json at 1 s (its third row swiped open) as each variant draws
# it; the variants are the example with one top-level value changed (or Examples/cart-rtl-ar.json),
# each panel at 1x, top-aligned, with its name under it.
mkdir -p "$WORK/matrix"
light() { cat cart-swipe.json; }
dark() { sed 's/"colorScheme": "light"/"colorScheme": "dark"/' cart-swipe.json; }
rtl() { cat cart-rtl-ar.json; }
ax5() { sed '1a\  "dynamicTypeSize": "accessibility5",' cart-swipe.json; }
small() { sed 's/"device": "iphone-16"/"device": {"width": 320, "height": 568, "scale": 2, "safeArea": {"top": 20, "bottom": 0}}/' cart-swipe.json; }
MATRIX=("light|light" "dark|dark" "right to left (ar_SA)|rtl" "accessibility5|ax5" "320 pt screen|small")
{
    echo '<!doctype html><meta charset="utf-8"><style>'
    echo 'html,body{margin:0;background:#d1d1d6}body{display:flex;align-items:flex-start;gap:1px;padding:1px}'
    echo 'figure{margin:0;background:#fff}img{display:block}'
    echo 'figcaption{font:600 15px/28px sans-serif;text-align:center;color:#1c1c1e;background:#f2f2f7}</style>'
    for i in "${!MATRIX[@]}"; do
        name=${MATRIX[$i]%%|*} variant=${MATRIX[$i]#*|}
        # The variant's scene on standard input, in Examples/ so that its image paths resolve.
        (cd Examples && "$variant" | "$BIN" - --at 1 --scale 1 --out "$WORK/matrix/$i" --quiet)
        printf '<figure><img src="%s"><figcaption>%s</figcaption></figure>\n' "$(ls "$WORK/matrix/$i"/frame_*.png)" "$name"
    done
} > "$WORK/matrix/matrix.html"
screenshot "file://$WORK/matrix/matrix.html" "$DIR/matrix.png" "$(( 4 * 393 + 320 + 6 )),882"

BIN="$BIN" Scripts/viewer-screenshot.sh "$DIR/viewer.png"
BIN="$BIN" Scripts/report-screenshot.sh "$DIR/report.png"
