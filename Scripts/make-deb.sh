#!/usr/bin/env bash
# Builds cartrender_VERSION_ARCH.deb in the checkout's top directory from the release binary
# that `make build` made (.build/release/cartrender, linked with --static-swift-stdlib) and the
# icons and fonts of `make assets` (.build/share/cartrender). `make deb` runs it; usage:
#   Scripts/make-deb.sh VERSION
# VERSION is Scripts/package-version.sh's (make deb passes it): the file VERSION at the release's
# tag, VERSION~git<commit date>.<commit> elsewhere; the binary's --version must say the same.
# The package holds:
#   /usr/bin/cartrender                                   the binary, stripped
#   /usr/share/cartrender/{bootstrap-icons,fonts}/        icons (MIT) and Jost (OFL-1.1), with their licences
#   /usr/share/man/man1/cartrender.1.gz                   `cartrender man`
#   /usr/share/bash-completion/completions/cartrender     `cartrender completions bash`
#   /usr/share/zsh/vendor-completions/_cartrender         `cartrender completions zsh`
#   /usr/share/fish/vendor_completions.d/cartrender.fish  `cartrender completions fish`
#   /usr/share/doc/cartrender/copyright                   cartrender's, the icons' and the font's licences
#   /usr/share/doc/cartrender/changelog.gz                from CHANGELOG.md (Scripts/debian-changelog.sh);
#                                                         a native package's Debian changelog is changelog.gz
# The maintainer is DEB_MAINTAINER when set, else a GitHub no-reply address (lintian refuses
# hosts such as localhost that cannot receive mail).
# Depends: is computed by dpkg-shlibdeps from the binary's NEEDED entries (the libraries it links
# itself, not the ones they bring, which ldd lists too), each mapped to its package with the
# lowest version that has every symbol the binary uses; fonts-inter is added (FontEnvironment
# requires Inter). Recommends: FFmpeg's runtime libraries, which cartrender loads with dlopen for
# MP4 and WebM only (a render to PNG, SVG, GIF, WebP or APNG runs without them), found as the
# packages of the libraries of the major versions it was built against; and the Noto fonts that
# cover glyphs Inter lacks (loaded when present). apt-get installs Recommends by default.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: Scripts/make-deb.sh VERSION}
binary=.build/release/cartrender
data=.build/share/cartrender
maintainer=${DEB_MAINTAINER:-cartrender maintainers <cartrender@users.noreply.github.com>}
fail() { echo "make-deb.sh: $*" >&2; exit 1; }
[ -x "$binary" ] || fail "$binary is missing: run make build"
if [ ! -d "$data/bootstrap-icons" ] || [ ! -d "$data/fonts" ]; then fail "$data is missing: run make assets"; fi
# A release is tagged vVERSION; a checkout at another tag is refused rather than mislabelled.
if tag=$(git describe --tags --exact-match --match 'v*' 2>/dev/null) && [ "$tag" != "v$version" ]; then
    fail "HEAD is tagged $tag but the package's version is $version"
fi
said=$("$binary" --version | head -1)
[ "$said" = "cartrender $version" ] || fail "$binary --version says \"$said\", not cartrender $version: build it with make deb"
# The binary must not need the Swift toolchain's libraries.
if ldd "$binary" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|/opt/swift'; then
    fail "$binary links the toolchain's libraries (above): build it with --static-swift-stdlib (make build)"
fi

arch=$(dpkg --print-architecture)
name=cartrender_${version}_${arch}
root=.build/deb/$name
rm -rf "$root" && mkdir -p "$root/DEBIAN"
install -D -m 755 -s "$binary" "$root/usr/bin/cartrender"
install -d "$root/usr/share/cartrender/bootstrap-icons" "$root/usr/share/cartrender/fonts"
install -m 644 "$data"/bootstrap-icons/* "$root/usr/share/cartrender/bootstrap-icons/"
install -m 644 "$data"/fonts/* "$root/usr/share/cartrender/fonts/"
install -d "$root/usr/share/man/man1" "$root/usr/share/bash-completion/completions" \
    "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d" "$root/usr/share/doc/cartrender"
# The commit's date: the man page's date (.TH) and the package's file times.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
"$binary" man | gzip -9n > "$root/usr/share/man/man1/cartrender.1.gz"
"$binary" completions bash > "$root/usr/share/bash-completion/completions/cartrender"
"$binary" completions zsh > "$root/usr/share/zsh/vendor-completions/_cartrender"
"$binary" completions fish > "$root/usr/share/fish/vendor_completions.d/cartrender.fish"
{
    cat <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: cartrender

Files: *
Copyright: the cartrender authors
License: MIT

Files: usr/share/cartrender/bootstrap-icons/*
Copyright: 2019-2024 The Bootstrap Authors
Comment: Bootstrap Icons 1.11.3, from the PyPI wheel django-js-lib-bootstrap-icons (Scripts/assets-requirements.txt)
License: MIT

Files: usr/share/cartrender/fonts/*
Copyright: 2020 The Jost Project Authors
Comment: Jost 3.710, from the PyPI wheel fontpkg-jost (Scripts/assets-requirements.txt)
License: OFL-1.1

License: MIT
COPYRIGHT
    sed -e 's/^$/./' -e 's/^/ /' LICENSE
    echo
    echo "License: OFL-1.1"
    sed -e 's/^[[:space:]]*$/./' -e 's/^/ /' "$data/fonts/Jost-OFL.txt"
} > "$root/usr/share/doc/cartrender/copyright"
Scripts/debian-changelog.sh "$version" "$maintainer" | gzip -9n > "$root/usr/share/doc/cartrender/changelog.gz"
chmod 644 "$root"/usr/share/man/man1/* "$root"/usr/share/*/*/cartrender* "$root"/usr/share/zsh/vendor-completions/_cartrender \
    "$root/usr/share/doc/cartrender/copyright" "$root/usr/share/doc/cartrender/changelog.gz"

# dpkg-shlibdeps wants a source package's layout: a debian/control naming the package.
shlibs=$(mktemp -d)
trap 'rm -rf "$shlibs"' EXIT
mkdir "$shlibs/debian"
printf 'Source: cartrender\n\nPackage: cartrender\nArchitecture: any\n' > "$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O -e"$OLDPWD/$root/usr/bin/cartrender" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || fail "dpkg-shlibdeps found no dependencies"
# FFmpeg's libraries of the major versions in the headers built against (ffmpeg_runtime.c opens
# libavutil.so.N … by these numbers), as their packages.
recommends=""
for lib in avformat avcodec swscale avutil; do
    so=$(readlink -f "/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/lib$lib.so") || fail "lib$lib-dev is not installed"
    package=$(dpkg -S "$so" | cut -d: -f1 | head -1)
    recommends+="$package, "
done
recommends+="fonts-noto-core, fonts-noto-color-emoji, fonts-noto-cjk"

cat > "$root/DEBIAN/control" <<CONTROL
Package: cartrender
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends, fonts-inter
Recommends: $recommends
Section: graphics
Priority: optional
Description: render commerce UI animations frame by frame through Cairo
 cartrender draws every frame of iOS-style commerce animations (an Add to
 Cart fly button, a cart page with swipe-to-delete) from a JSON scene file,
 and writes PNG or SVG frames, GIF, WebP, APNG, MP4 or WebM, with a manifest.
 It verifies renders against baseline frames and reports the differences.
CONTROL

dpkg-deb --root-owner-group -Zxz --build "$root" "$name.deb" >/dev/null
echo "make-deb.sh: $name.deb ($(du -h "$name.deb" | cut -f1)); Depends: $depends, fonts-inter; Recommends: $recommends"
