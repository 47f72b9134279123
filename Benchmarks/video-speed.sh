#!/usr/bin/env bash
# MP4 and WebM of the default scene against its PNG frames (not a test: prints figures, asserts
# nothing): wall and CPU time and their multiple of the PNG frames' time, mean and lowest SSIM
# of every frame, and whether the bytes are the same in every run, at --jobs 1 and beside every
# other format. The "Video speed" figures of docs/performance.md and
# docs/documentation-outputs.md come from it (cartrender-bench's VideoSpeed.swift says how).
#
# Usage: Benchmarks/video-speed.sh [SCALES] [RUNS]   (default 3 and 3)
# Needs: swift and the Debian packages of the README (make deps); no ffmpeg command.
set -euo pipefail

cd "$(dirname "$0")/.."
SCALES=${1:-3}
RUNS=${2:-3}
echo "building release (if needed)…" >&2
swift build -c release --product cartrender >&2
swift build -c release --product cartrender-bench >&2
exec .build/release/cartrender-bench --video --scales "$SCALES" --runs "$RUNS"
