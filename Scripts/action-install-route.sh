#!/usr/bin/env bash
# The action's release route for real (.ci/run runs it after Scripts/deb-route.sh, which builds the
# package): serves a release directory — the cartrender_VERSION_ARCH.deb that `make deb` wrote
# and its SHA256SUMS — from a local HTTP server on 127.0.0.1, runs the action's install step
# (Scripts/action-install.sh) against it through its release URL with the real apt-get, and
# checks that it installed /usr/bin/cartrender, which prints VERSION. Prints how long apt-get
# took. The package is removed at the end if it was not installed before. Needs root (CI runs
# as root): as another user it says so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
    echo "action-install-route.sh: skipped: installing a .deb with apt-get needs root"
    exit 0
fi
fail() { echo "action-install-route.sh: $*" >&2; exit 1; }
# make deb's package: VERSION at the release's tag, VERSION~git<date>.<commit> elsewhere, which the
# install step is asked for by its version input as a released version would be.
version=$(Scripts/package-version.sh)
deb=cartrender_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "$deb is missing: run make deb (Scripts/deb-route.sh does)"

work=$(mktemp -d "${TMPDIR:-/tmp}/cartrender-install-route.XXXXXX")
was_installed=$(dpkg-query -W -f='${Status}' cartrender 2>/dev/null | grep -c "install ok installed" || true)
server=
cleanup() {
    [ -z "$server" ] || kill "$server" 2>/dev/null || true
    rm -rf "$work"
    if [ "$was_installed" = 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq cartrender >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
if [ "$was_installed" != 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq cartrender >/dev/null; fi

mkdir -p "$work/releases/v$version"
cp "$deb" "$work/releases/v$version/"
(cd "$work/releases/v$version" && sha256sum "$deb" > SHA256SUMS)
python=$(command -v /usr/bin/python3 || command -v python3)
"$python" -c '
import functools, http.server, os, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
open(sys.argv[2] + ".new", "w").write(str(server.server_address[1]))
os.rename(sys.argv[2] + ".new", sys.argv[2])
server.serve_forever()' "$work/releases" "$work/port" 2>/dev/null &
server=$!
for _ in $(seq 100); do [ -f "$work/port" ] && break; sleep 0.1; done
[ -f "$work/port" ] || fail "the local HTTP server did not start"

GITHUB_OUTPUT=$work/output.txt ACTION_REF=v$version INPUT_VERSION=$version INPUT_RELEASE_URL="http://127.0.0.1:$(cat "$work/port")" \
    Scripts/action-install.sh
grep -qx "route=release" "$work/output.txt" || fail "the install step did not take the release route"
grep -qx "cartrender=/usr/bin/cartrender" "$work/output.txt" || fail "the install step did not name /usr/bin/cartrender"
[ "$(/usr/bin/cartrender --version | head -1)" = "cartrender $version" ] || fail "/usr/bin/cartrender does not say cartrender $version"
echo "action-install-route.sh: the action's install step installed $deb from a local release URL; /usr/bin/cartrender --version says cartrender $version"
