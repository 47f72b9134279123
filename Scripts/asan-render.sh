#!/usr/bin/env bash
# Renders under AddressSanitizer (and LeakSanitizer) and reports any memory error or leak
# (issue #7). Not part of CI: it builds a second copy of the package.
#
#   Scripts/asan-render.sh
#
# Builds cartrender with `swift build --sanitize=address` (Swift and C targets) into
# .build/asan, then runs renders that go through every C library cartrender uses — Cairo
# (image and SVG surfaces), Pango, librsvg, gdk-pixbuf, libpng — and the error paths that
# release them early: corrupt, truncated and hostile images, a write failure, an interruption.
# Each run must end with its expected exit status and no sanitizer report. Suppressed
# allocations are explained in Scripts/lsan.supp (fontconfig's offset-encoded pointers, and
# three library bugs, one of which — cairo's SVG surface — grows by 0.5 KB per translucent group
# in an SVG frame).
# Exit status: 0 when every run is clean, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 70
repo="$PWD"
echo "building .build/asan/debug/cartrender with -sanitize=address …" >&2
swift build --sanitize=address --build-path .build/asan --product cartrender >/dev/null || exit 1
bin="$repo/.build/asan/debug/cartrender"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
corpus="$repo/Tests/CLITests/Corpus"
cp -r "$corpus/images" "$work/images"
cp "$repo/Examples/images/sneaker.png" "$work/images/"
scene() { printf '%s\n' "$2" > "$work/$1.json"; }
scene symbol  '{"duration": 1.0, "fps": 10, "events": [{"at": 0.1, "tap": "add"}, {"at": 0.2, "tap": "add"}]}'
scene png     '{"duration": 0.4, "fps": 10, "device": "iphone-se", "shop": {"image": "images/sneaker.png"}, "events": [{"at": 0.1, "tap": "add"}]}'
scene jpeg    '{"duration": 0.4, "fps": 10, "shop": {"image": "images/tiny.jpg"}, "events": [{"at": 0.1, "tap": "add"}]}'
scene svg     '{"duration": 0.4, "fps": 10, "colorScheme": "dark", "shop": {"image": "images/plain.svg"}, "events": [{"at": 0.1, "tap": "add"}]}'
scene extsvg  '{"duration": 0.2, "fps": 10, "shop": {"image": "images/external-refs.svg"}}'
scene cart    '{"screen": "cart", "duration": 0.2, "fps": 10, "cart": {"items": [{"id": "a", "name": "Mug", "price": "12.50", "image": "images/tiny.png"}]}}'
for bad in not-an-image.png truncated.png bad-crc.png huge-dimensions.png truncated.jpg not-xml.svg truncated.svg billion-laughs.svg xxe.svg; do
    scene "bad-$bad" "{\"duration\": 0.2, \"shop\": {\"image\": \"images/$bad\"}}"
done

export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:exitcode=99:fast_unwind_on_malloc=0:malloc_context_size=30:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$repo/Scripts/lsan.supp:print_suppressions=0"
export SWIFT_BACKTRACE=enable=no
failures=0
# check NAME EXPECTED-STATUS -- ARGS…: one run, in $work.
check() {
    local name="$1" expected="$2"; shift 3
    (cd "$work" && "$@" > "$work/$name.log" 2>&1)
    local status=$?
    if [ "$status" -ne "$expected" ] || grep -q "Sanitizer" "$work/$name.log"; then
        echo "FAIL $name: exit $status (expected $expected)"; sed -n '1,60p' "$work/$name.log"; failures=$((failures + 1))
    else
        echo "ok   $name (exit $status)"
    fi
}
check default-png-svg 0 -- "$bin" --out o --frames 30-33 --format png,svg --quiet
check default-3x 0 -- "$bin" --out out-3x --at 0.6 --quiet
for s in symbol png jpeg svg extsvg cart; do
    check "$s" 0 -- "$bin" "$s.json" --out "out-$s" --scale 1 --format png,svg --jobs 2 --quiet
done
for f in "$work"/bad-*.json; do
    n="$(basename "$f" .json)"; check "$n" 65 -- "$bin" "$n.json" --out "out-$n" --quiet
done
cp "$corpus/image-missing.json" "$work/"
check missing-image 66 -- "$bin" image-missing.json --out out-missing --quiet
check write-error 73 -- sh -c "ulimit -f 8; exec '$bin' symbol.json --out out-full --scale 1 --quiet --jobs 1"
check bad-scene 65 -- "$bin" "$corpus/trailing-comma-object.json" --out out-bad --quiet
# Interrupted mid-run (SIGTERM: a background job of a script starts with SIGINT ignored, and
# cartrender keeps it so): workers stop between frames, the staging directory is removed.
(cd "$work" && exec "$bin" --out out-int --fps 240 --quiet > "$work/interrupt.log" 2>&1) & pid=$!
for _ in $(seq 600); do ls "$work"/out-int/.cartrender-staging-*/frame_0000.png >/dev/null 2>&1 && break; sleep 0.1; done
kill -TERM "$pid"; wait "$pid"; echo "exit $?" >> "$work/interrupt.log"
if grep -q "Sanitizer" "$work/interrupt.log" || ! grep -q "exit 143" "$work/interrupt.log" || [ -e "$work/out-int" ]; then
    echo "FAIL interrupt"; cat "$work/interrupt.log"; failures=$((failures + 1))
else
    echo "ok   interrupt (exit 143, nothing left)"
fi

if [ "$failures" -eq 0 ]; then echo "AddressSanitizer: clean (no memory error, no leak outside Scripts/lsan.supp)"; exit 0; fi
echo "AddressSanitizer: $failures run(s) failed"; exit 1
