#!/usr/bin/env bash
# Runs short renders of the release build under valgrind's memcheck and reports definite leaks
# and memory errors (issue #7). Not part of CI: valgrind makes a frame take seconds.
#
#   Scripts/valgrind-render.sh
#
# Each run must end with its expected exit status and memcheck must report no error: no
# invalid read or write, no use of uninitialised memory, no definitely lost block. Suppressed
# findings are in Scripts/valgrind.supp (library-owned memory, explained in Scripts/lsan.supp).
# "Still reachable" memory — caches fontconfig, Pango, GLib and the Swift runtime keep until
# exit — is not a leak and is not reported. Exit status: 0 when every run is clean, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 70
repo="$PWD"
echo "building .build/release/cartrender …" >&2
swift build -c release --product cartrender >/dev/null || exit 1
bin="$repo/.build/release/cartrender"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$repo/Tests/CLITests/Corpus/images" "$work/images"
cp "$repo/Examples/images/sneaker.png" "$work/images/"
printf '{"duration": 0.3, "fps": 10, "device": "iphone-se", "shop": {"image": "images/sneaker.png"}, "events": [{"at": 0.1, "tap": "add"}]}\n' > "$work/png.json"
printf '{"duration": 0.2, "fps": 10, "shop": {"image": "images/tiny.jpg"}}\n' > "$work/jpeg.json"
printf '{"duration": 0.2, "fps": 10, "shop": {"image": "images/plain.svg"}}\n' > "$work/svg.json"
printf '{"duration": 0.2, "shop": {"image": "images/truncated.png"}}\n' > "$work/bad-png.json"
printf '{"duration": 0.2, "shop": {"image": "images/billion-laughs.svg"}}\n' > "$work/bad-svg.json"

failures=0
# check NAME EXPECTED-STATUS -- ARGS…: one run under memcheck, in $work.
check() {
    local name="$1" expected="$2"; shift 3
    # shellcheck disable=SC2086 # VALGRIND_EXTRA holds several options, split on purpose
    (cd "$work" && valgrind ${VALGRIND_EXTRA:-} --quiet --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
        --error-exitcode=99 --num-callers=40 --suppressions="$repo/Scripts/valgrind.supp" \
        --gen-suppressions=all "$@" > "$work/$name.log" 2>&1)
    local status=$?
    if [ "$status" -ne "$expected" ]; then
        echo "FAIL $name: exit $status (expected $expected)"; sed -n '1,80p' "$work/$name.log"; failures=$((failures + 1))
    else
        echo "ok   $name (exit $status)"
    fi
}
check default 0 -- "$bin" --out out-default --frames 30-32 --scale 1 --format png,svg --jobs 1 --quiet
check default-2-jobs 0 -- "$bin" --out out-jobs --frames 30-33 --scale 1 --jobs 2 --quiet
check png 0 -- "$bin" png.json --out out-png --format png,svg --jobs 1 --quiet
check jpeg 0 -- "$bin" jpeg.json --out out-jpeg --scale 1 --jobs 1 --quiet
check svg 0 -- "$bin" svg.json --out out-svg --scale 1 --jobs 1 --quiet
check bad-png 65 -- "$bin" bad-png.json --out out-bad --quiet
check bad-svg 65 -- "$bin" bad-svg.json --out out-bad --quiet
# A full disk, simulated by a file size limit; valgrind follows sh into cartrender.
VALGRIND_EXTRA="--trace-children=yes" check write-error 73 -- sh -c "ulimit -f 8; exec \"\$0\" \"\$@\"" "$bin" --out out-full --at 0.6 --scale 1 --quiet

if [ "$failures" -eq 0 ]; then echo "valgrind: clean (no memory error, no definite leak outside Scripts/valgrind.supp)"; exit 0; fi
echo "valgrind: $failures run(s) failed"; exit 1
