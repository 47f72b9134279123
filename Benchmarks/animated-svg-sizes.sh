#!/usr/bin/env bash
# Sizes of the animated SVG (-o NAME.svg) beside the GIF of the same render, for both screens
# (the default fly-button scene and Examples/cart-swipe.json) and both appearances, at --scale 1
# (not a test: prints figures, asserts nothing); then a second table, the animated SVG alone of
# the default scene and of every scene of Examples/ (each file it writes: a scene with variants
# writes one per variant). The animated SVG rows of the "Which format for documentation" table of
# docs/documentation-outputs.md come from it. The SVG's size does not depend on --scale (it sets
# only the intrinsic width and height).
#
# Usage: Benchmarks/animated-svg-sizes.sh   (CARTRENDER=path uses that binary instead of the
# release build)
# Needs: swift and the Debian packages of the README (make deps).
set -euo pipefail

cd "$(dirname "$0")/.."
if [ -z "${CARTRENDER:-}" ]; then
    echo "building release (if needed)…" >&2
    swift build -c release --product cartrender >&2
    CARTRENDER=.build/release/cartrender
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '| screen | scheme | animated SVG | GIF | SVG / GIF |\n|---|---|---:|---:|---:|\n'
for screen in shop cart; do
    scene=()
    [ "$screen" = cart ] && scene=(Examples/cart-swipe.json)
    for format in svg gif; do
        "$CARTRENDER" "${scene[@]}" --scale 1 --quiet --color-scheme light,dark -o "$out/$screen.$format" >/dev/null
    done
    for scheme in light dark; do
        svg=$(stat -c %s "$out/$screen-$scheme.svg")
        gif=$(stat -c %s "$out/$screen-$scheme.gif")
        awk -v s="$screen" -v c="$scheme" -v a="$svg" -v b="$gif" \
            'BEGIN { printf "| %s | %s | %.1f kB | %.1f kB | %.0f %% |\n", s, c, a / 1000, b / 1000, 100 * a / b }'
    done
done

printf '\n| scene | animated SVG |\n|---|---:|\n'
for scene in default Examples/*.json; do
    args=()
    [ "$scene" = default ] || args=("$scene")
    dir="$out/$(basename "$scene" .json)"
    mkdir "$dir"
    "$CARTRENDER" "${args[@]}" --scale 1 --quiet -o "$dir/animation.svg" >/dev/null
    for file in "$dir"/*.svg; do
        label=$(basename "$scene")
        [ "$(basename "$file")" = animation.svg ] || label="$label ($(basename "$file" .svg))"
        awk -v s="$label" -v a="$(stat -c %s "$file")" 'BEGIN { printf "| %s | %.1f kB |\n", s, a / 1000 }'
    done
done
