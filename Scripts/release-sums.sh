#!/usr/bin/env bash
# Writes DIR/SHA256SUMS for a release: checks that DIR holds cartrender_VERSION_amd64.deb and
# cartrender_VERSION_arm64.deb (the release workflow's two builds) and nothing else named
# cartrender_*.deb, and that each package's control file says Version: VERSION, then lists
# their SHA-256 in `sha256sum` format (what Scripts/action-install.sh checks against).
#   Scripts/release-sums.sh VERSION DIR
# A missing or extra package, or another version, is one sentence on stderr and exit 1.
set -euo pipefail
version=${1:-}; dir=${2:-}
if [ -z "$version" ] || [ ! -d "$dir" ]; then echo "usage: Scripts/release-sums.sh VERSION DIR" >&2; exit 64; fi
cd "$dir"
expected=("cartrender_${version}_amd64.deb" "cartrender_${version}_arm64.deb")
for deb in "${expected[@]}"; do
    [ -f "$deb" ] || { echo "release-sums.sh: $dir has no $deb" >&2; exit 1; }
    got=$(dpkg-deb -f "$deb" Version)
    [ "$got" = "$version" ] || { echo "release-sums.sh: $deb says Version: $got, not $version" >&2; exit 1; }
done
for deb in cartrender_*.deb; do
    case " ${expected[*]} " in *" $deb "*) ;; *) echo "release-sums.sh: $dir has $deb, which is not of release $version" >&2; exit 1 ;; esac
done
sha256sum "${expected[@]}" > SHA256SUMS
echo "release-sums.sh: $dir/SHA256SUMS lists ${expected[*]}"
