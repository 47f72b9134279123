#!/usr/bin/env bash
# Benchmark of installing the release package (not a test): how long `apt-get install` of a
# cartrender .deb takes in a fresh Debian 12 system, with what it Depends on and Recommends, and
# with --no-install-recommends. The README's "From a release" figures quote its output.
#
# The fresh system is a `debootstrap --variant=minbase bookworm` chroot (made once, kept in
# WORKDIR/base). For each route a copy of it runs `apt-get update`, downloads the package's
# dependencies (`--download-only`, not timed: the download's size is printed instead, since its
# time is the network's), then times `apt-get install` from that cache. Prints one line per
# route: seconds, packages installed, MB downloaded, and the machine's load average at the start.
#
# Needs root, debootstrap and network access to deb.debian.org.
# Usage: Benchmarks/install-time.sh DEB [WORKDIR]   (DEB: a cartrender_VERSION_ARCH.deb, e.g. from make deb)
set -euo pipefail
DEB=$(realpath "${1:?usage: Benchmarks/install-time.sh DEB [WORKDIR]}")
WORK=${2:-/tmp/cartrender-install-time}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" = 0 ] || { echo "install-time.sh: needs root (debootstrap and chroot)" >&2; exit 77; }
command -v debootstrap >/dev/null || { echo "install-time.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 77; }
mkdir -p "$WORK"
if [ ! -e "$WORK/base/.complete" ]; then
    rm -rf "$WORK/base"
    debootstrap --variant=minbase bookworm "$WORK/base" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
        || { echo "install-time.sh: debootstrap failed, see $WORK/debootstrap.log" >&2; exit 1; }
    touch "$WORK/base/.complete"
fi

installed() {   # installed ROOT: how many packages dpkg has installed in ROOT
    # shellcheck disable=SC2016 # ${…} is dpkg-query's field syntax, not the shell's
    chroot "$1" dpkg-query -f '${db:Status-Status}\n' -W | grep -c '^installed$'
}

route() {   # route NAME [APT OPTION…]
    local name=$1; shift
    local root="$WORK/$name"
    rm -rf "$root" && cp -a "$WORK/base" "$root"
    cp "$DEB" "$root/tmp/"
    # /proc as every container has it (without it Swift programs cannot read their arguments).
    mount -t proc proc "$root/proc"
    trap 'umount "$root/proc" 2>/dev/null || true' EXIT
    local deb
    deb="/tmp/$(basename "$DEB")"
    local apt=(chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o APT::Sandbox::User=root)
    "${apt[@]}" update >"$WORK/$name.log" 2>&1
    "${apt[@]}" install --download-only "$@" "$deb" >>"$WORK/$name.log" 2>&1
    local downloaded before after start end load
    downloaded=$(du -sb "$root/var/cache/apt/archives" | awk '{printf "%.0f", $1 / 1e6}')
    before=$(installed "$root")
    load=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s.%N)
    "${apt[@]}" install "$@" "$deb" >>"$WORK/$name.log" 2>&1
    end=$(date +%s.%N)
    after=$(installed "$root")
    chroot "$root" cartrender --version >/dev/null \
        || { echo "install-time.sh: the installed cartrender did not run ($name)" >&2; exit 1; }
    printf '%-40s %5.0f s, %3d packages, %4d MB downloaded (load average %s)\n' \
        "apt-get install $(basename "$DEB") ${*:-}" "$(echo "$end - $start" | bc)" "$((after - before))" "$downloaded" "$load"
    umount "$root/proc" && trap - EXIT
    rm -rf "$root"
}

echo "install-time.sh: $(basename "$DEB") into a fresh debootstrap --variant=minbase bookworm, $(nproc) cores"
route recommends
route no-recommends --no-install-recommends
