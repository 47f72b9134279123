#!/usr/bin/env bash
# Prints the package's Debian changelog (/usr/share/doc/cartrender/changelog.gz, dpkg-parsechangelog's
# format) made from CHANGELOG.md, the one changelog that the releases' notes also come from
# (Scripts/changelog-entry.sh):
#   Scripts/debian-changelog.sh PACKAGE_VERSION MAINTAINER [CHANGELOG]
# PACKAGE_VERSION is Scripts/package-version.sh's. Each `## VERSION` entry of CHANGELOG.md
# up to PACKAGE_VERSION becomes one Debian entry, newest first, its paragraphs and `- ` items as
# `* ` items wrapped at 78 columns; a build that is not a release (VERSION~git…) gets an entry of
# its own on top instead of VERSION's, with the items of VERSION's entry so far (or of a
# `## Unreleased` entry). Dates are commit dates (a
# release's: its tag's commit; the build's: HEAD), never the clock, so the file is reproducible.
set -euo pipefail
package_version=${1:-}
maintainer=${2:-}
if [ -z "$package_version" ] || [ -z "$maintainer" ]; then
    echo "usage: Scripts/debian-changelog.sh PACKAGE_VERSION MAINTAINER [CHANGELOG]" >&2; exit 64
fi
file=${3:-$(dirname "$0")/../CHANGELOG.md}
[ -r "$file" ] || { echo "debian-changelog.sh: cannot read $file" >&2; exit 66; }

# RFC 5322 date of a commit, in UTC and English, as dpkg wants it.
commit_date() {
    TZ=UTC LC_ALL=C git log -1 --format=%cd --date='format-local:%a, %d %b %Y %H:%M:%S +0000' "$1" 2>/dev/null \
        || TZ=UTC LC_ALL=C date -d "@${SOURCE_DATE_EPOCH:-0}" '+%a, %d %b %Y %H:%M:%S +0000'
}
# The lines of one entry's body (markdown) as Debian items: `  * ` then `    ` continuations.
items() {
    awk '
        function flush() { if (text != "") print text; text = "" }
        /^[ \t]*$/ { flush(); next }
        /^[-*] / { flush(); text = substr($0, 3); next }
        /^[ \t]/ && text != "" { sub(/^[ \t]+/, ""); text = text " " $0; next }
        { if (text != "") text = text " " $0; else text = $0 }
        END { flush() }
    ' | while IFS= read -r item; do
        printf '%s\n' "$item" | fmt -w 74 | sed -e '1s/^/  * /' -e '1!s/^/    /'
    done
}
entry() { # VERSION DISTRIBUTION DATE, the body on stdin
    printf 'cartrender (%s) %s; urgency=medium\n\n' "$1" "$2"
    items
    printf '\n -- %s  %s\n\n' "$maintainer" "$3"
}

versions=$(awk '/^## / { h = substr($0, 4); sub(/^\[/, "", h); split(h, w, /[] \t]/); print w[1] }' "$file")
{
    release=${package_version%%~git*}
    if [ "$release" != "$package_version" ]; then
        # A build on the way to VERSION: the items of VERSION's entry (or of `## Unreleased`),
        # which this build has so far; only older versions' entries follow.
        commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
        {
            printf 'Built from commit %s; not the release %s.\n\n' "$commit" "$release"
            "$(dirname "$0")/changelog-entry.sh" "$release" "$file" 2>/dev/null \
                || awk '/^## / { f = (tolower(substr($0, 4)) ~ /^\[?unreleased/); next } f' "$file"
        } | entry "$package_version" UNRELEASED "$(commit_date HEAD)"
    fi
    while IFS= read -r v; do
        case $v in [0-9]*) ;; *) continue ;; esac
        dpkg --compare-versions "$v" le "$package_version" || continue
        if git rev-parse -q --verify "refs/tags/v$v^{commit}" >/dev/null 2>&1; then ref="v$v"; else ref=HEAD; fi
        "$(dirname "$0")/changelog-entry.sh" "$v" "$file" | entry "$v" unstable "$(commit_date "$ref")"
    done <<<"$versions"
} | sed -e '$ { /^$/d }'
