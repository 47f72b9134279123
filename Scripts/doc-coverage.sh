#!/usr/bin/env bash
# Counts the public declarations in Swift sources that have no doc comment: a `public` or `open`
# type, function, initializer, subscript, property, type alias or enum case whose line is not
# preceded by a `///` line (attribute lines such as `@discardableResult` in between are skipped).
# Extensions are not counted (their members are). Usage:
#   Scripts/doc-coverage.sh [--list] [PATH…]        (default PATH: Sources)
# Prints `N undocumented of M public declarations` (and, with --list, FILE:LINE: DECLARATION for
# each); exits non-zero when N > 0 (xargs reports awk's 1 as 123), so that CI can hold the
# tree at 0 (make doc-coverage).
set -euo pipefail
cd "$(dirname "$0")/.."
list=0
if [ "${1:-}" = "--list" ]; then list=1; shift; fi
[ $# -gt 0 ] || set -- Sources
# shellcheck disable=SC2016 # the single-quoted text is awk's program
find "$@" -name '*.swift' -print0 | sort -z | xargs -0 awk -v list="$list" '
    FNR == 1 { documented = 0 }
    {
        line = $0
        sub(/^[ \t]+/, "", line)
        if (line ~ /^\/\/\//) { documented = 1; next }
        if (line ~ /^@[A-Za-z_]+(\([^)]*\))?$/) { next }
        if (line ~ /^(@[A-Za-z_]+(\([^)]*\))? +)*(public|open)( +(static|class|final|override|mutating|nonmutating|nonisolated|convenience|required|indirect|dynamic|lazy|weak|unowned|private\(set\)|internal\(set\)|fileprivate\(set\)))* +(func|init|init\?|var|let|struct|class|enum|protocol|typealias|actor|subscript|case)[ (<:?!{]/) {
            total++
            if (!documented) {
                missing++
                if (list) printf "%s:%d: %s\n", FILENAME, FNR, line
            }
        }
        documented = 0
    }
    END { printf "%d undocumented of %d public declarations\n", missing, total; exit missing > 0 }
'
