# shellcheck shell=bash
# The common part of Scripts/viewer-screenshot.sh and Scripts/report-screenshot.sh, sourced by
# both after `set -euo pipefail`, with SHOT_NAME set to the script's name (for its messages) and
# SHOT_WORK to the name of its temporary directory. It
# - goes to the root of the repository;
# - sets BIN to the absolute path of a built cartrender: the caller's BIN= if set, else the
#   release build if present, else the debug build (built if needed);
# - sets CHROMIUM to the Debian package's browser, or exits 69 saying how to install it;
# - sets WORK to a new temporary directory, removed on exit;
# - defines `screenshot URL OUTPUT WIDTH,HEIGHT`: saves a headless-Chromium screenshot of URL to
#   OUTPUT at that window size, and exits 70 with Chromium's log when none is written.

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 70
if [ -z "${BIN:-}" ]; then
    if [ -x .build/release/cartrender ]; then BIN=.build/release/cartrender
    else swift build --product cartrender >&2; BIN=.build/debug/cartrender; fi
fi
BIN=$(realpath "$BIN")
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "$SHOT_NAME: chromium not found; apt-get install chromium" >&2; exit 69; }

WORK=$(mktemp -d "/tmp/$SHOT_WORK.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

screenshot() {
    local url=$1 out=$2 size=$3
    mkdir -p "$(dirname "$out")"
    # --virtual-time-budget lets the page's script run and its images load before the shot.
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --window-size="$size" --virtual-time-budget=5000 \
        --screenshot="$out" "$url" 2> "$WORK/chromium.log" || {
        cat "$WORK/chromium.log" >&2; exit 70; }
    [ -s "$out" ] || { echo "$SHOT_NAME: chromium wrote no screenshot" >&2; cat "$WORK/chromium.log" >&2; exit 70; }
    echo "$SHOT_NAME: wrote $out"
}
