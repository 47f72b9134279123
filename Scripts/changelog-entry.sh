#!/usr/bin/env bash
# Prints the CHANGELOG.md entry of one version, without its heading: the lines after
# `## VERSION` (or `## [VERSION]`, a date may follow) up to the next `## ` heading, with the
# blank lines at its ends removed. The release workflow uses it as the GitHub release's notes.
#   Scripts/changelog-entry.sh VERSION [CHANGELOG]     (CHANGELOG: CHANGELOG.md at the top)
# A version with no entry, or an empty one, is one sentence on stderr and exit 1.
set -euo pipefail
version=${1:-}
[ -n "$version" ] || { echo "usage: Scripts/changelog-entry.sh VERSION [CHANGELOG]" >&2; exit 64; }
file=${2:-$(dirname "$0")/../CHANGELOG.md}
[ -r "$file" ] || { echo "changelog-entry.sh: cannot read $file" >&2; exit 66; }
entry=$(awk -v v="$version" '
    /^## / {
        if (found) exit
        h = substr($0, 4); sub(/^\[/, "", h); split(h, w, /[] \t]/)
        if (w[1] == v) { found = 1; next }
    }
    found { print }
    END { if (!found) exit 3 }
' "$file") || { echo "changelog-entry.sh: $file has no \"## $version\" entry" >&2; exit 1; }
# Blank lines at the start and the end go ($(…) already dropped the trailing ones).
entry=$(printf '%s\n' "$entry" | sed '/./,$!d')
[ -n "$entry" ] || { echo "changelog-entry.sh: the \"## $version\" entry of $file is empty" >&2; exit 1; }
printf '%s\n' "$entry"
