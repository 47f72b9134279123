#!/usr/bin/env bash
# How long `make test` takes with the build up to date (not a test): builds the tests first
# (`make test-build`, not timed), then times `make test` as a developer runs it —
# sweeps sampled (TestSweep), CARTRENDER_FULL_SWEEPS unset — and prints the wall time against
# the 6-minute target, the Swift tests' and the browser tests' counts and times, and the load
# average before the run (the figure swings with other work on the machine).
# docs/code-layout.md ("Tests") quotes its output.
#
# Usage: Benchmarks/test-time.sh [LOGDIR]   (the log of the run is LOGDIR/make-test.log)
set -euo pipefail
cd "$(dirname "$0")/.."
LOGDIR=${1:-$(mktemp -d /tmp/cartrender-test-time.XXXXXX)}
mkdir -p "$LOGDIR"
LOG=$LOGDIR/make-test.log
unset CARTRENDER_FULL_SWEEPS
echo "building the tests (not timed)…" >&2
make --no-print-directory deps version jsonschema browser test-build >&2
load=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s.%N)
status=0
make --no-print-directory test TEST_REPORTS="$LOGDIR" >"$LOG" 2>&1 || status=$?
end=$(date +%s.%N)
wall=$(echo "$end - $start" | bc)
# XCTest's counts from the log (each shard's "Selected tests" summary; SwiftPM writes XCTest's
# xUnit only under --parallel) and the JUnit file of the browser tests.
read -r swift_tests swift_skipped < <(grep -A1 "Test Suite 'Selected tests' \(passed\|failed\)" "$LOG" |
    grep -o 'Executed [0-9]* tests\?\(, with [0-9]* tests\? skipped\)\?' |
    awk '{ n += $2; if ($5 != "") s += $5 } END { print n + 0, s + 0 }')
browser_tests=$(grep -o '<testcase ' "$LOGDIR/browser.xml" | wc -l)
browser_time=$(grep -o '<testsuite [^>]*time="[0-9.]*"' "$LOGDIR/browser.xml" | head -1 | sed 's/.*time="\([0-9.]*\)"/\1/')
printf 'make test: %.0f s (target: 360 s, %s), exit %d, load average before: %s\n' "$wall" \
    "$(awk -v v="$wall" 'BEGIN { print (v <= 360 ? "met" : "NOT met") }')" "$status" "$load"
printf 'XCTest cases: %d (%d skipped); Swift Testing: %s\n' "$swift_tests" "$swift_skipped" \
    "$(grep -o 'Test run with [0-9]* tests' "$LOG" | sort -u | tail -1 || echo none)"
printf 'browser tests: %d in %.0f s\n' "$browser_tests" "${browser_time:-0}"
echo "log: $LOG"
exit "$status"
