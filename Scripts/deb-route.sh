#!/usr/bin/env bash
# The Debian package as a user gets it: `make deb` (the release build with --static-swift-stdlib,
# a few minutes), `apt-get install ./cartrender_VERSION_ARCH.deb`, then the installed
# /usr/bin/cartrender run from a directory outside the checkout with the Swift toolchain out of
# PATH and LD_LIBRARY_PATH. Checks that lintian finds no error nor warning in the package, and:
#   1. ldd of the installed binary lists no library of the toolchain (Swift runtime, Foundation,
#      Dispatch) and every library resolves;
#   2. `cartrender --out frames/` writes the same frame files and manifest, byte for byte, as the build
#      tree's release binary (.build/release/cartrender);
#   3. its icons and fonts come from /usr/share/cartrender, --version names the package's version, and the man
#      page and the bash, zsh and fish completions are where the shells and man look.
# The package is removed at the end if this script installed it. Installing needs root (CI runs
# as root): as another user the script says so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
    echo "deb-route.sh: skipped: installing a .deb with apt-get needs root"
    exit 0
fi
fail() { echo "deb-route.sh: $*" >&2; exit 1; }
repo=$PWD
make deb
version=$(Scripts/package-version.sh)
deb=$repo/cartrender_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "make deb did not write $deb"
# lintian, Debian's package checker, finds no error nor warning.
lintian --fail-on error,warning "$deb" || fail "lintian rejects $deb (above)"

work=$(mktemp -d "${TMPDIR:-/tmp}/cartrender-deb-route.XXXXXX")
was_installed=$(dpkg-query -W -f='${Status}' cartrender 2>/dev/null | grep -c "install ok installed" || true)
cleanup() {
    rm -rf "$work"
    if [ "$was_installed" = 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq cartrender >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

# The build tree's frames.
(cd "$work" && mkdir tree && cd tree && "$repo/.build/release/cartrender" --quiet --out frames/)

export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq "$deb" >"$work/apt.log" 2>&1 || {
    apt-get update -qq >/dev/null && apt-get install -y -qq "$deb" >"$work/apt.log" 2>&1
} || { cat "$work/apt.log"; fail "apt-get install $deb failed"; }
echo "deb-route.sh: installed $(basename "$deb") ($(du -h "$deb" | cut -f1)); $(dpkg-query -W -f='Depends: ${Depends}' cartrender)"

# A user's environment: no toolchain on PATH, no LD_LIBRARY_PATH, outside the checkout.
clean_env=(env -i "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "HOME=$work" "LANG=C.UTF-8")
mkdir "$work/user"
cd "$work/user"
[ "$("${clean_env[@]}" sh -c 'command -v cartrender')" = /usr/bin/cartrender ] || fail "cartrender is not /usr/bin/cartrender on PATH"
if ldd /usr/bin/cartrender | grep -E 'not found|libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|/opt/swift'; then
    fail "the installed binary needs the libraries above"
fi
# Every library it loads belongs to a Debian package (Debian 12 registers some under /lib,
# some under /usr/lib).
packages=()
for lib in $(ldd /usr/bin/cartrender | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'); do
    real=$(readlink -f "$lib")
    owner=$(dpkg -S "$real" 2>/dev/null || dpkg -S "${real#/usr}" 2>/dev/null || dpkg -S "$lib" 2>/dev/null) || fail "$lib is in no Debian package"
    packages+=("${owner%%:*}")
done
echo "deb-route.sh: ldd /usr/bin/cartrender: ${#packages[@]} libraries from $(printf '%s\n' "${packages[@]}" | sort -u | wc -l) Debian packages, none of the Swift toolchain"
"${clean_env[@]}" cartrender --version > version.txt
[ "$(head -1 version.txt)" = "cartrender $version" ] || { cat version.txt; fail "--version does not say cartrender $version"; }
"${clean_env[@]}" cartrender --quiet --out frames/
# /usr/bin/cartrender looks in /usr/share/cartrender first (ProjectData): the package's files.
dpkg -L cartrender | grep -qxF '/usr/share/cartrender/fonts/Jost[wght].ttf' || fail "Jost is not the package's"
cmp -s "$work/tree/frames/manifest.json" frames/manifest.json || fail "frames/manifest.json differs from the build tree's"
n=0
for f in "$work"/tree/frames/*.png; do
    cmp -s "$f" "frames/$(basename "$f")" || fail "frames/$(basename "$f") differs from the build tree's"
    n=$((n + 1))
done
written=(frames/*.png)
if [ "$n" = 0 ] || [ "$n" != "${#written[@]}" ]; then fail "the installed binary wrote ${#written[@]} frames, the build tree's $n"; fi
"${clean_env[@]}" man -w cartrender | grep -q '^/usr/share/man/man1/cartrender.1.gz$' || fail "man does not find cartrender(1)"
for f in /usr/share/bash-completion/completions/cartrender /usr/share/zsh/vendor-completions/_cartrender \
         /usr/share/fish/vendor_completions.d/cartrender.fish /usr/share/doc/cartrender/copyright; do
    [ -s "$f" ] || fail "$f is missing"
done
echo "deb-route.sh: the installed cartrender wrote $n frames and manifest.json equal byte for byte to the build tree's, found its data in /usr/share/cartrender, its man page and completions"
