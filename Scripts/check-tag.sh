#!/usr/bin/env bash
# The release workflow's first check (.github/workflows/release.yml): the tag being released is
# vVERSION, where VERSION is the file VERSION, and Sources/…/Version.swift (what `cartrender
# --version` prints) says the same, so the tag, the package's version and --version agree.
#   Scripts/check-tag.sh TAG     e.g. Scripts/check-tag.sh "$GITHUB_REF_NAME"
# Exit 0 when they agree; else one sentence on stderr and exit 1 (64 without a tag).
set -euo pipefail
cd "$(dirname "$0")/.."
tag=${1:-}
[ -n "$tag" ] || { echo "usage: Scripts/check-tag.sh TAG" >&2; exit 64; }
version=$(tr -d '[:space:]' < VERSION)
if [ "$tag" != "v$version" ]; then
    echo "check-tag.sh: the tag $tag does not match VERSION ($version): tag v$version, or change VERSION (and run make version) first" >&2
    exit 1
fi
swift_file=Sources/CartRenderCore/Manifest/Version.swift
if ! grep -qF "public static let version = \"$version\"" "$swift_file"; then
    echo "check-tag.sh: $swift_file does not say $version as VERSION does: run make version and commit it" >&2
    exit 1
fi
echo "check-tag.sh: $tag matches VERSION $version"
