#!/usr/bin/env bash
# The steps of the GitHub Action (action.yml at the repository root), one per argument, so that
# what GitHub runs is what CLITests/GitHubActionTests runs here:
#
#   Scripts/github-action.sh deps     install the Debian packages (make deps; sudo when not root)
#   Scripts/github-action.sh build    build .build/release/cartrender of this package
#   Scripts/github-action.sh verify   cartrender verify in the working directory, from the inputs:
#       INPUT_SCENE     scene file; empty = the built-in demo scene
#       INPUT_BASELINE  baseline directory (required)
#       INPUT_REPORT    report directory (default cartrender-report)
#       INPUT_RECORD    all | missing | failed | never; empty = verify's default (never, as CI is set)
#       INPUT_FPS, INPUT_SCALE   overrides; empty = the scene's
#       INPUT_ARGS      more verify options, split at spaces (--threshold 0.2 --mask 0,0,393,59)
#     and writes `passed=true|false` and `report=DIR` to $GITHUB_OUTPUT. verify itself appends
#     the job summary to $GITHUB_STEP_SUMMARY. Exit status: verify's (0 passed, 1 frames failed,
#     64/65/66/73 errors).
#
# CARTRENDER names a cartrender binary to use instead: `build` then builds nothing and `verify`
# runs it (the tests use the debug build).
set -euo pipefail
package=$(cd "$(dirname "$0")/.." && pwd)
binary=${CARTRENDER:-$package/.build/release/cartrender}

case "${1:-}" in
deps)
    if ! command -v make >/dev/null; then   # swift:6.3-bookworm has no make
        sudo=$([ "$(id -u)" = 0 ] || echo sudo)
        $sudo apt-get update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends make
    fi
    make -C "$package" deps
    ;;
build)
    if [ -n "${CARTRENDER:-}" ]; then
        [ -x "$CARTRENDER" ] || { echo "github-action.sh: CARTRENDER=$CARTRENDER is not an executable" >&2; exit 1; }
        echo "github-action.sh: using $CARTRENDER"
    else
        swift build -c release --product cartrender --package-path "$package"
    fi
    ;;
verify)
    [ -n "${INPUT_BASELINE:-}" ] || { echo "github-action.sh: the baseline input is required" >&2; exit 64; }
    report=${INPUT_REPORT:-cartrender-report}
    args=(verify)
    [ -n "${INPUT_SCENE:-}" ] && args+=("$INPUT_SCENE")
    args+=(--baseline "$INPUT_BASELINE" --report "$report" --quiet)
    [ -n "${INPUT_RECORD:-}" ] && args+=(--record "$INPUT_RECORD")
    [ -n "${INPUT_FPS:-}" ] && args+=(--fps "$INPUT_FPS")
    [ -n "${INPUT_SCALE:-}" ] && args+=(--scale "$INPUT_SCALE")
    # shellcheck disable=SC2206
    [ -n "${INPUT_ARGS:-}" ] && args+=($INPUT_ARGS)
    status=0
    "$binary" "${args[@]}" || status=$?
    if [ -n "${GITHUB_OUTPUT:-}" ]; then
        { [ "$status" = 0 ] && echo "passed=true" || echo "passed=false"; echo "report=$report"; } >>"$GITHUB_OUTPUT"
    fi
    exit "$status"
    ;;
*)
    echo "usage: Scripts/github-action.sh deps|build|verify" >&2
    exit 64
    ;;
esac
