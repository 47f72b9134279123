#!/usr/bin/env bash
# Runs the container image the release workflow built (Dockerfile) once: `--version` names
# VERSION, and a render of the built-in demo at 1 s writes its frame and manifest into a
# mounted directory, as the user running docker.
#   Scripts/image-check.sh IMAGE VERSION
# Needs a Docker daemon (the release workflow's runner; this project's machines have none).
set -euo pipefail
image=${1:-}; version=${2:-}
if [ -z "$image" ] || [ -z "$version" ]; then echo "usage: Scripts/image-check.sh IMAGE VERSION" >&2; exit 64; fi
docker=${DOCKER:-docker}
first=$("$docker" run --rm "$image" --version | head -1)
[ "$first" = "cartrender $version" ] || { echo "image-check.sh: $image --version says \"$first\", not \"cartrender $version\"" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$docker" run --rm -v "$work:/work" -u "$(id -u):$(id -g)" "$image" --quiet --at 1 --scale 1 --out frames/
if [ ! -s "$work/frames/manifest.json" ] || ! compgen -G "$work/frames/frame_*.png" >/dev/null; then
    echo "image-check.sh: $image wrote no frame into the mounted directory" >&2; exit 1
fi
echo "image-check.sh: $image is cartrender $version and renders into a mounted directory"
