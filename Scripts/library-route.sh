#!/usr/bin/env bash
# Follows the library steps of docs/library.md as written, in a temporary directory: a copy of
# this repository as cartrender/, a new package MyApp/ beside it made of that page's
# `<!-- library-route: FILE -->` blocks, and its `<!-- library-route: run -->` blocks run in
# order. Then checks what a user would see:
#   1. the first `swift test` builds without a warning, records 4 frames in the baseline named
#      after the test file and function (__Snapshots__/FlySnapshotTests/flyButton), says so, and
#      passes; the command plugin (`swift package … cartrender Scenes/fly.json -o docs/fly`)
#      writes every frame and the manifest into docs/fly, and fails on a missing scene;
#   2. the second passes and records nothing;
#   3. after a baseline frame is replaced, it fails with one issue at the assertFrames line
#      naming the frame and the report, and attaches the frame's images, which
#      --attachments-path saves.
# Builds cartrender once more from scratch (a few minutes on 2 cores). Exit status 0 when all
# of it holds.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=$(mktemp -d "${TMPDIR:-/tmp}/cartrender-library-route.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/cartrender" "$work/MyApp"
# The files git knows (committed or not), without .build/.
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work/cartrender"
# and what `make deps` put in the clone: the icons and fonts, in .build/share/cartrender/.
mkdir -p "$work/cartrender/.build" && cp -R .build/share "$work/cartrender/.build/"

python3 - "$repo/docs/library.md" "$work/MyApp" <<'PY'
import os, re, sys
readme, app = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"<!-- library-route: (\S+) -->\n```[a-z]*\n(.*?)```\n", text, re.S)
if not blocks:
    sys.exit("library-route.sh: docs/library.md has no library-route blocks")
with open(os.path.join(app, ".steps.sh"), "w") as steps:
    steps.write("set -euo pipefail\n")
    for name, body in blocks:
        if name == "run":
            steps.write(body)
        else:
            path = os.path.join(app, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w", encoding="utf-8").write(body)
PY

fail() { echo "library-route.sh: $*" >&2; exit 1; }
cd "$work/MyApp"
# A developer's machine: no CI variable, so the first run records.
log=$work/first.log
env -u CI -u CARTRENDER_RECORD bash .steps.sh >"$log" 2>&1 || { cat "$log"; fail "the first swift test failed"; }
if grep -n "warning:" "$log"; then fail "the build printed warnings (above)"; fi
snapshots=Tests/MyAppSnapshotTests/__Snapshots__
baseline=$snapshots/FlySnapshotTests/flyButton
grep -qF "cartrender: recorded 4 baseline frames in $work/MyApp/$baseline (frames 0, 18, 36, 57, record mode missing)" "$log" \
    || { cat "$log"; fail "the first run did not say it recorded 4 frames in $baseline"; }
ls "$baseline/frame_0036.png" >/dev/null
# The plugin's render: every frame the manifest lists, and nothing else.
[ -f docs/fly/manifest.json ] || { cat "$log"; fail "the plugin wrote no docs/fly/manifest.json"; }
listed=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["frames"]))' docs/fly/manifest.json)
written=$(find docs/fly -maxdepth 1 -name 'frame_*.png' | wc -l)
{ [ "$listed" -gt 0 ] && [ "$listed" = "$written" ]; } || fail "the plugin wrote $written frames, its manifest lists $listed"
# and a failed render fails the command, with cartrender's sentence.
if swift package --allow-writing-to-package-directory cartrender Scenes/none.json -o docs/none >"$work/plugin.log" 2>&1; then
    cat "$work/plugin.log"; fail "the plugin succeeded on a missing scene"
fi
grep -q "cartrender: Scenes/none.json: no such file" "$work/plugin.log" || { cat "$work/plugin.log"; fail "the plugin did not pass on cartrender's message"; }

log=$work/second.log
env -u CI -u CARTRENDER_RECORD swift test >"$log" 2>&1 || { cat "$log"; fail "the second swift test failed"; }
if grep -q "recorded" "$log"; then cat "$log"; fail "the second run recorded frames"; fi

cp "$baseline/frame_0000.png" "$baseline/frame_0036.png"
log=$work/third.log
rm -rf .build/attachments && mkdir -p .build/attachments
if CI=true swift test --attachments-path .build/attachments >"$log" 2>&1; then cat "$log"; fail "a changed frame did not fail the test"; fi
grep -q "cartrender verify: FAILED, 1 of 4 frames failed (1 fail)" "$log" || { cat "$log"; fail "no failure message"; }
grep -q "frame_0036.png" "$log" || { cat "$log"; fail "the message does not name frame_0036.png"; }
grep -q "$snapshots/FlySnapshotTests/cartrender-report/flyButton/index.html" "$log" || { cat "$log"; fail "the message does not name the report"; }
# One issue, at the line of assertFrames in the test file of docs/library.md.
call=$(grep -n "try assertFrames" Tests/MyAppSnapshotTests/FlySnapshotTests.swift | cut -d: -f1)
grep -q "Test flyButton() recorded an issue at FlySnapshotTests.swift:$call:" "$log" || { cat "$log"; fail "the issue is not at FlySnapshotTests.swift:$call"; }
grep -q "Test flyButton() failed after .* with 1 issue" "$log" || { cat "$log"; fail "the test did not fail with exactly one issue"; }
for image in expected actual diff; do
    grep -q "Attached 'frame_0036.$image.png'" "$log" || { cat "$log"; fail "frame_0036.$image.png was not attached"; }
    compgen -G ".build/attachments/*frame_0036.$image*" >/dev/null || { ls -R .build/attachments; fail "--attachments-path did not save frame_0036.$image.png"; }
done
echo "library-route.sh: the library steps of docs/library.md work: recorded, rendered with the plugin, passed, and a changed frame failed with one issue, its report and attachments"
