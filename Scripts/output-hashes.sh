#!/usr/bin/env bash
# Prints the SHA-256 of every output of every example (Examples/*.json and the built-in demo)
# in every format, manifests included, one "SHA256  EXAMPLE/FILE" line each, sorted: the
# record that a change of structure changed no output. Compare two runs with diff:
#
#   Scripts/output-hashes.sh > before.txt    # on the old commit
#   Scripts/output-hashes.sh > after.txt     # on the new one
#   diff before.txt after.txt                # nothing: every byte is the same
#
#   BIN=path/to/cartrender (default .build/debug/cartrender); SCALE (default 1); FPS (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${BIN:-.build/debug/cartrender}"
scale="${SCALE:-1}"
fps="${FPS:-10}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scenes=("demo") ; for f in Examples/*.json; do scenes+=("$f"); done
for scene in "${scenes[@]}"; do
    name="$(basename "$scene" .json)"
    args=(); [ "$scene" = demo ] || args=("$scene")
    "$bin" "${args[@]}" --out "$work/$name" --scale "$scale" --fps "$fps" --quiet \
        --format png,svg,gif,webp,mp4,webm --contact-sheet --viewer >/dev/null
    "$bin" "${args[@]}" --out "$work/$name-apng" --scale "$scale" --fps "$fps" --quiet --format apng >/dev/null
done
cd "$work" && find . -type f ! -name '.cartrender-files.sha256' -print0 | sort -z | xargs -0 sha256sum | sed 's|  \./|  |'
