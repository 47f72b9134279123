#!/usr/bin/env bash
# The GitHub Action's install step (action.yml, step `install`): chooses how this job gets
# cartrender, and says which route it took.
#
#   release route   the action is used at a release tag (`uses: OWNER/cartrender@vVERSION`, where
#                   VERSION is the action's file VERSION) or names one in its `version` input:
#                   downloads RELEASE_URL/vVERSION/SHA256SUMS and cartrender_VERSION_ARCH.deb for
#                   this machine's architecture (dpkg --print-architecture), checks the package's
#                   SHA-256 against SHA256SUMS, installs it with `apt-get install` (its Depends and
#                   Recommends: the runtime libraries and fonts, no toolchain) and checks that
#                   `cartrender --version` names VERSION. Debian 12 only: the packages are built
#                   for it, and baselines are pixels of one platform.
#   source route    any other reference (a branch, a commit SHA, a local `uses: ./`): the
#                   action's next steps build cartrender from the action's own sources, which
#                   needs the Swift toolchain (container: swift:6.3-bookworm).
#
# Environment (action.yml sets the first four from its inputs and the github context):
#   INPUT_VERSION      a released version to install (0.1.0 or v0.1.0); empty: the action's own
#                      when its reference is its release tag
#   INPUT_RELEASE_URL  where releases are: FILE is fetched from INPUT_RELEASE_URL/vVERSION/FILE;
#                      empty (or without a repository): GITHUB_SERVER_URL/GITHUB_ACTION_REPOSITORY/releases/download
#   ACTION_REF         the reference the workflow's `uses:` names (github.action_ref; else
#                      GITHUB_ACTION_REF)
#   GITHUB_OUTPUT      receives `route=release|source` and, for the release route,
#                      `cartrender=PATH` (the installed binary, which the run step uses)
#   APT_GET            the apt-get command (default apt-get, with sudo when not root); the tests
#                      point it at a stand-in that installs nothing system-wide
#   SWIFT              the swift command the source route needs (default swift)
#   OS_RELEASE         the os-release file (default /etc/os-release)
# Exit status: 0 installed or source route chosen; else one sentence on stderr and nothing
# installed: 65 the package does not match SHA256SUMS, 69 no such release, no package for this
# architecture, not Debian 12, or no Swift toolchain for the source route.
set -euo pipefail
package=$(cd "$(dirname "$0")/.." && pwd)
own_version=$(tr -d '[:space:]' <"$package/VERSION")
ref=${ACTION_REF:-${GITHUB_ACTION_REF:-}}
version=${INPUT_VERSION:-}
version=${version#v}
output() { [ -z "${GITHUB_OUTPUT:-}" ] || printf '%s\n' "$@" >>"$GITHUB_OUTPUT"; }
fail() { local status=$1; shift; echo "action-install.sh: $*" >&2; exit "$status"; }

if [ -z "$version" ] && [ "$ref" = "v$own_version" ]; then version=$own_version; fi
if [ -z "$version" ]; then
    swift=${SWIFT:-swift}
    command -v "$swift" >/dev/null \
        || fail 69 "the action's reference ${ref:-(none)} is not a release tag, so cartrender must be built from source, which needs the Swift toolchain: run the job in container: swift:6.3-bookworm, or use the action at a release tag (@v$own_version) or with a version input"
    output "route=source"
    echo "action-install.sh: route: source (the reference ${ref:-(none)} is not a release tag v$own_version): building cartrender from the action's sources in the next steps"
    exit 0
fi

# Release route.
start=$(date +%s)
os_release=${OS_RELEASE:-/etc/os-release}
os_id=$(sed -n 's/^ID=//p' "$os_release" 2>/dev/null | tr -d '"')
os_version=$(sed -n 's/^VERSION_ID=//p' "$os_release" 2>/dev/null | tr -d '"')
if [ "$os_id" != debian ] || [ "$os_version" != 12 ]; then
    os_name=$(sed -n 's/^PRETTY_NAME=//p' "$os_release" 2>/dev/null | tr -d '"')
    fail 69 "the cartrender $version package is built for Debian 12 but this job runs ${os_name:-an unknown system}, where its pixels would differ from Debian-recorded baselines and video needs libavformat.so.59: run the job in container: debian:bookworm-slim"
fi
url=${INPUT_RELEASE_URL:-}
# github.action_repository is empty in some jobs (the default is then SERVER//releases/download).
if [ -z "$url" ] || [[ "$url" == *//releases/download ]]; then
    url=${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_ACTION_REPOSITORY:-}/releases/download
fi
url=${url%/}/v$version
arch=${ARCH:-$(dpkg --print-architecture)}
deb=cartrender_${version}_$arch.deb

# shellcheck source=Scripts/lib/apt.sh
source "$(dirname "$0")/lib/apt.sh"
# debian:bookworm-slim has no curl.
apt_install_missing curl

work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/cartrender-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
fetch() { # URL FILE: the HTTP status on failure, nothing on success
    local code
    code=$(curl -sSL --retry 3 -o "$2" -w '%{http_code}' "$1" 2>"$work/curl.log") && [ "$code" = 200 ] && return 0
    echo "${code:-no answer}"
    return 1
}
status=$(fetch "$url/SHA256SUMS" "$work/SHA256SUMS") \
    || fail 69 "could not download $url/SHA256SUMS (HTTP ${status:-error}): is v$version released there? (set the release-url input for a mirror, or use the action at a branch or commit to build from source)"
expected=$(awk -v f="$deb" '$2 == f || $2 == "*" f { print $1; exit }' "$work/SHA256SUMS")
[ -n "$expected" ] \
    || fail 69 "the release v$version at $url has no package for $arch ($deb is not in its SHA256SUMS): run the job on an amd64 or arm64 runner"
status=$(fetch "$url/$deb" "$work/$deb") || fail 69 "could not download $url/$deb (HTTP ${status:-error})"
actual=$(sha256sum "$work/$deb" | cut -d' ' -f1)
[ "$actual" = "$expected" ] \
    || fail 65 "$deb from $url does not match its SHA256SUMS (SHA-256 $actual, listed $expected), so it was not installed"

apt_install "$work/$deb" >"$work/apt.log" 2>&1 \
    || { cat "$work/apt.log" >&2; fail 69 "apt-get install $deb failed (above)"; }
binary=$(command -v cartrender) || fail 69 "apt-get installed $deb but cartrender is not on PATH"
first=$("$binary" --version | head -1)
[ "$first" = "cartrender $version" ] || fail 69 "the installed $binary says \"$first\", not cartrender $version"
output "route=release" "cartrender=$binary"
echo "action-install.sh: route: release: installed $first ($arch) from $url, checked against SHA256SUMS, in $(( $(date +%s) - start )) s"
