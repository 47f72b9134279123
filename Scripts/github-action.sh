#!/usr/bin/env bash
# The steps of the GitHub Action (action.yml at the repository root), one per argument, so that
# what GitHub runs is what CLITests/GitHubActionTests runs here:
#
#   Scripts/github-action.sh key      writes `key=…` and `dir=…` to $GITHUB_OUTPUT: the cache key of
#                                     this action's cartrender (its sources, the OS release, the
#                                     machine) and the directory it is installed in, relative to
#                                     the working directory (the workspace, the same path inside a
#                                     container job and on the runner, unlike github.action_path)
#   Scripts/github-action.sh deps     the runtime Debian packages when a cached cartrender is in
#                                     INPUT_DIR (make runtime-deps), else the runtime and build
#                                     packages (make build-deps); never the test packages
#   Scripts/github-action.sh build    builds the release binary into INPUT_DIR/bin with its data in
#                                     INPUT_DIR/share, unless it is there already (a warm cache)
#   Scripts/github-action.sh run      cartrender verify (INPUT_MODE verify, the default) or a
#                                     render (INPUT_MODE render) in the working directory:
#       INPUT_SCENE     scene file; empty = the built-in demo scene
#       INPUT_BASELINE  baseline directory (verify: required)
#       INPUT_REPORT    report directory (default cartrender-report); render: the output directory
#       INPUT_RECORD    all | missing | failed | never; empty = verify's default (never, as CI is set)
#       INPUT_FPS, INPUT_SCALE   overrides; empty = the scene's
#       INPUT_ARGS      more options, one argument a line, taken as they are (no splitting at
#                       spaces, no glob expansion: `--mask` then `0,0,393,59` on the next line)
#     and writes to $GITHUB_OUTPUT `result=pass|fail|error`, `exit-code=N`, `failed-frames=N`
#     (from the report's junit.xml; 0 when there is none) and `report=DIR`; with
#     GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_RUN_ID, a line linking the run's page (where
#     the report artifact is) to $GITHUB_STEP_SUMMARY, after verify's own section; on a failure,
#     an `::error file=…,line=…::` annotation on the scene, its path relative to GITHUB_WORKSPACE
#     (else the working directory) and normalised as junit.xml's `file` is: on report.json's
#     "annotationLine" (the scene event behind the first moved event, else the first scene
#     member that changed since the baseline was recorded), or on the scene's "events" when the
#     state diverges without one; else on its first line. Exit status: cartrender's (0 passed, 1 frames
#     failed, 64/65/66/73 errors). With INPUT_PR_COMMENT=true verify also writes its Markdown
#     summary to the file the comment step reads (summary_file below).
#   Scripts/github-action.sh comment  the pull-request comment (INPUT_PR_COMMENT=true, on
#                                     pull_request events): Scripts/pr-comment.sh, which says
#                                     what it reads; nothing otherwise. Never fails the job.
#
# CARTRENDER names a cartrender binary to use instead: `build` then builds nothing and `run`
# runs it (the tests use the debug build).
set -euo pipefail
package=$(cd "$(dirname "$0")/.." && pwd)
dir=${INPUT_DIR:-.cartrender-action}
binary=${CARTRENDER:-$dir/bin/cartrender}
# Each NAME=VALUE argument as a step output. A value with a line break (a report input can have
# one) is written in GitHub's NAME<<DELIMITER form with a random delimiter that is not in the
# value, so no value can add an output line such as `result=pass` after `result=fail`.
output() {
    [ -n "${GITHUB_OUTPUT:-}" ] || return 0
    local pair name value delimiter
    for pair in "$@"; do
        name=${pair%%=*} value=${pair#*=}
        if [[ $value == *$'\n'* || $value == *$'\r'* ]]; then
            delimiter="ghadelimiter_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
            while [[ $value == *"$delimiter"* ]]; do delimiter="${delimiter}_$RANDOM"; done
            printf '%s<<%s\n%s\n%s\n' "$name" "$delimiter" "$value" "$delimiter" >>"$GITHUB_OUTPUT"
        else
            printf '%s=%s\n' "$name" "$value" >>"$GITHUB_OUTPUT"
        fi
    done
}
# Where the run step's verify writes the Markdown summary that the comment step posts: one
# file per artifact name (unique within a workflow run), in the runner's temporary directory.
artifact_name=${INPUT_ARTIFACT:-cartrender-report}
summary_file="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cartrender-pr-comment-${artifact_name//[^A-Za-z0-9._-]/_}.md"
# VALUE escaped for a workflow command line, as GitHub reads them back: `workflow_escape data`
# for the message after `::` (% as %25, CR as %0D, LF as %0A), `workflow_escape property` for a
# value of `file=…,line=…` (also : as %3A and , as %2C). No scene name or report path can then
# end the command or start another one (`::error …` on a line of its own).
workflow_escape() {
    local s=${2//%/%25}
    s=${s//$'\r'/%0D}
    s=${s//$'\n'/%0A}
    if [ "$1" = property ]; then
        s=${s//:/%3A}
        s=${s//,/%2C}
    fi
    printf '%s' "$s"
}
# PATH as annotations want it, the rule of junit.xml's `file` (AnnotationPath): relative to
# GITHUB_WORKSPACE, else the working directory, `.` and `..` resolved by the text (no link
# followed); absolute when it is outside: `./scenes/a.json`, `sub/../scenes/a.json` and
# "$GITHUB_WORKSPACE/scenes/a.json" all give `scenes/a.json`.
annotation_path() {
    local full base
    full=$(realpath -ms -- "$1")
    base=$(realpath -ms -- "${GITHUB_WORKSPACE:-.}")
    case "$full" in
        "$base") echo . ;;
        "$base"/*) echo "${full#"$base"/}" ;;
        *) echo "$full" ;;
    esac
}

# TEXT with its line breaks written as \n and \r, for a message on the terminal that quotes an input.
visible() { local s=${1//$'\r'/\\r}; printf '%s' "${s//$'\n'/\\n}"; }

case "${1:-}" in
key)
    # The action's own files that decide the binary, hashed in name order.
    sources=$(cd "$package" && find Package.swift Makefile VERSION Sources Scripts/assets-requirements.txt -type f -print0 \
        | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
    release=$(. /etc/os-release && echo "${ID}${VERSION_ID:-}")
    key="cartrender-$(cat "$package/VERSION")-$sources-$release-$(uname -m)"
    output "key=$key" "dir=.cartrender-action/$key"
    echo "github-action.sh: cache key $key"
    ;;
deps)
    sudo=$([ "$(id -u)" = 0 ] || echo sudo)
    if ! command -v make >/dev/null; then   # swift:6.3-bookworm has no make
        $sudo apt-get update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends make
    fi
    if [ -x "$binary" ]; then make -C "$package" runtime-deps; else make -C "$package" build-deps; fi
    ;;
build)
    start=$(date +%s)
    if [ -n "${CARTRENDER:-}" ]; then
        [ -x "$CARTRENDER" ] || { echo "github-action.sh: CARTRENDER=$CARTRENDER is not an executable" >&2; exit 1; }
        echo "github-action.sh: using $CARTRENDER"
    elif [ -x "$binary" ]; then
        echo "github-action.sh: using the cached $binary ($("$binary" --version | head -1))"
    else
        swift build -c release --product cartrender --static-swift-stdlib --package-path "$package"
        mkdir -p "$dir/bin" "$dir/share"
        install -m 755 "$package/.build/release/cartrender" "$dir/bin/cartrender"
        cp -R "$package/.build/share/cartrender" "$dir/share/"
        echo "github-action.sh: built $binary in $(( $(date +%s) - start )) s"
    fi
    ;;
run)
    mode=${INPUT_MODE:-verify}
    report=${INPUT_REPORT:-cartrender-report}
    args=()
    case "$mode" in
    verify)
        [ -n "${INPUT_BASELINE:-}" ] || { echo "github-action.sh: the baseline input is required" >&2; output "result=error" "exit-code=64" "failed-frames=0" "report=$report"; exit 64; }
        args=(verify)
        [ -n "${INPUT_SCENE:-}" ] && args+=("$INPUT_SCENE")
        args+=(--baseline "$INPUT_BASELINE" --report "$report" --quiet)
        [ -n "${INPUT_RECORD:-}" ] && args+=(--record "$INPUT_RECORD")
        if [ "${INPUT_PR_COMMENT:-false}" = true ]; then
            rm -f "$summary_file"
            args+=(--summary-markdown "$summary_file")
        fi
        ;;
    render)
        [ -n "${INPUT_SCENE:-}" ] && args+=("$INPUT_SCENE")
        args+=(--out "$report" --quiet)
        ;;
    *)
        echo "github-action.sh: mode must be verify or render, got $(visible "$mode")" >&2
        output "result=error" "exit-code=64" "failed-frames=0" "report=$report"
        exit 64
        ;;
    esac
    [ -n "${INPUT_FPS:-}" ] && args+=(--fps "$INPUT_FPS")
    [ -n "${INPUT_SCALE:-}" ] && args+=(--scale "$INPUT_SCALE")
    if [ -n "${INPUT_ARGS:-}" ]; then
        while IFS= read -r line || [ -n "$line" ]; do
            line=${line%$'\r'}
            [ -n "$line" ] && args+=("$line")
        done <<<"$INPUT_ARGS"
    fi
    status=0
    "$binary" "${args[@]}" || status=$?
    case "$status" in 0) result=pass ;; 1) result=fail ;; *) result=error ;; esac
    failed=0
    # A report left by an earlier run says nothing about a run that ended in an error.
    if [ "$mode" = verify ] && [ "$result" != error ] && [ -f "$report/junit.xml" ]; then
        failed=$(sed -n 's/^<testsuites [^>]* failures="\([0-9]*\)".*/\1/p' "$report/junit.xml" | head -1)
    fi
    output "result=$result" "exit-code=$status" "failed-frames=${failed:-0}" "report=$report"
    if [ "$mode" = verify ] && [ "$result" = fail ]; then
        scene=${INPUT_SCENE:-}
        message="cartrender verify: ${failed:-0} frames failed; report: $report/index.html"
        if [ -n "$scene" ] && [ -f "$scene" ]; then
            line=1
            # The report.json files there are: one for a scene, one per variant for a matrix.
            reports=()
            for f in "$report/report.json" "$report"/*/report.json; do [ -f "$f" ] && reports+=("$f"); done
            if [ ${#reports[@]} -gt 0 ]; then
                # report.json is written one member a line: `  "annotationLine": 21,` (null when
                # no line explains the failures).
                found=$(sed -n 's/^  "annotationLine": \([0-9][0-9]*\),\{0,1\}$/\1/p' "${reports[@]}" | head -1)
                [ -z "$found" ] || line=$found
                # `    "summary": "scene changed: tint orange → teal",` inside "sceneChanged".
                changed=$(sed -n 's/^    "summary": "\(scene changed: .*\)",\{0,1\}$/\1/p' "${reports[@]}" | head -1)
                if grep -qs '"stateDivergence": {' "${reports[@]}"; then
                    [ -n "$found" ] || line=$(grep -n '"events"' "$scene" | head -1 | cut -d: -f1 || true)
                    message="cartrender verify: the state diverges from the baseline's (events of this scene moved); ${failed:-0} frames failed; report: $report/index.html"
                elif [ -n "$changed" ]; then
                    message="cartrender verify: $changed; ${failed:-0} frames failed; report: $report/index.html"
                fi
            fi
            echo "::error file=$(workflow_escape property "$(annotation_path "$scene")"),line=$(workflow_escape property "${line:-1}")::$(workflow_escape data "$message")"
        else
            echo "::error::$(workflow_escape data "$message")"
        fi
    fi
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -n "${GITHUB_RUN_ID:-}" ]; then
        echo "The report is the artifact of [this run](${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY:-}/actions/runs/$GITHUB_RUN_ID)." >>"$GITHUB_STEP_SUMMARY"
        echo >>"$GITHUB_STEP_SUMMARY"
    fi
    exit "$status"
    ;;
comment)
    INPUT_SUMMARY=$summary_file exec "$package/Scripts/pr-comment.sh"
    ;;
*)
    echo "usage: Scripts/github-action.sh key|deps|build|run|comment" >&2
    exit 64
    ;;
esac
