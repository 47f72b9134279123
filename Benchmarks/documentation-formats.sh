#!/usr/bin/env bash
# Size and fidelity of each animation format for documentation pages (not a test: prints
# figures, asserts nothing). The "Which format for documentation" table of
# docs/documentation-outputs.md comes from it.
#
# For the default scene at each scale: GIF, WebP (lossless and --quality 90), APNG, MP4 (the
# default crf 18 and --crf 23) and WebM (the default crf 30 and --lossless), each rendered alone
# by the release cartrender at all cores: file size, wall and CPU time, peak RSS, and the mean
# SSIM and RGB PSNR of the image on screen at every frame's time against that frame's PNG
# (cartrender-bench's DocumentationFormats.swift says how they are measured).
#
# Usage: Benchmarks/documentation-formats.sh [SCALES]   (SCALES: comma-separated, default 1,3)
# Needs: swift and the Debian packages of the README (make deps); no ffmpeg command.
set -euo pipefail

cd "$(dirname "$0")/.."
SCALES=${1:-1,3}
echo "building release (if needed)…" >&2
swift build -c release --product cartrender >&2
swift build -c release --product cartrender-bench >&2
exec .build/release/cartrender-bench --documentation-formats --scales "$SCALES"
