#!/usr/bin/env bash
# Prints the version of the package and of `cartrender --version` for the checkout's HEAD:
#   VERSION                                   HEAD is the release, tagged vVERSION
#   VERSION~git<YYYYMMDD>.<short commit>      any other commit: its commit date (UTC) and hash
# so that every commit's package has its own version, reproducible from the commit alone, and a
# rebuilt package upgrades an older commit's (dpkg compares the dates first). `~` sorts before
# the release itself: the builds that lead to VERSION come before VERSION's package.
#   Scripts/package-version.sh [CHECKOUT]     (CHECKOUT: the top of this checkout)
# Outside a Git checkout (a source tarball) it prints VERSION and says why on stderr.
set -euo pipefail
top=${1:-$(dirname "$0")/..}
cd "$top"
version=$(tr -d '[:space:]' < VERSION)
[ -n "$version" ] || { echo "package-version.sh: VERSION is empty" >&2; exit 1; }
if ! commit=$(git rev-parse --verify -q HEAD 2>/dev/null); then
    echo "package-version.sh: $PWD is not a Git checkout: the version is VERSION ($version)" >&2
    printf '%s\n' "$version"
    exit 0
fi
if git rev-parse -q --verify "refs/tags/v$version^{commit}" >/dev/null \
    && [ "$(git rev-parse "refs/tags/v$version^{commit}")" = "$(git rev-parse HEAD)" ]; then
    printf '%s\n' "$version"
else
    date=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d HEAD)
    # Seven hex digits always (not %h, whose length grows with the repository, so a shallow
    # clone and a full one would name the same commit differently).
    printf '%s~git%s.%s\n' "$version" "$date" "${commit:0:7}"
fi
