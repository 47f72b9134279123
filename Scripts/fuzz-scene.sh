#!/usr/bin/env bash
# Fuzzes the scene decoder and validator with libFuzzer and AddressSanitizer (issue #7).
# CI runs it for 45 s after the tests (.ci/run); run it by hand for a few minutes after changing
# Sources/CartRenderCore/Scene/.
#
#   Scripts/fuzz-scene.sh [SECONDS]        default 300; extra libFuzzer flags in FUZZ_FLAGS
#
# Builds .build/fuzz/scene-fuzzer from the CartRenderCore sources and Fuzz/SceneFuzzer.swift
# (swiftc -sanitize=fuzzer,address), seeds a working corpus with Examples/*.json and the
# bad-input corpus (Tests/CLITests/Corpus/*.json), and runs. A crash leaves crash-* in
# .build/fuzz/; add each one to Tests/CLITests/Corpus/fuzz/ once it is fixed (the script seeds
# from there too). Exit status: 0 when the time ran out without a crash, libFuzzer's otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
out=.build/fuzz
mkdir -p "$out/corpus"

echo "building $out/scene-fuzzer …" >&2
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name CartRenderCoreFuzz \
    $(find Sources/CartRenderCore -name '*.swift' | sort) Fuzz/SceneFuzzer.swift \
    -o "$out/scene-fuzzer"

# Seeds: copied, so that libFuzzer's additions do not land in the repository.
cp Examples/*.json Tests/CLITests/Corpus/*.json "$out/corpus/"
if [ -d Tests/CLITests/Corpus/fuzz ]; then cp Tests/CLITests/Corpus/fuzz/* "$out/corpus/" 2>/dev/null || true; fi

# JSON tokens help libFuzzer build scene files.
cat > "$out/scene.dict" <<'DICT'
"{"
"}"
"["
"]"
":"
","
"\""
"true"
"false"
"null"
"1e308"
"-0"
"0.000001"
"\"version\""
"\"screen\""
"\"shop\""
"\"cart\""
"\"device\""
"\"iphone-16\""
"\"iphone-se\""
"\"colorScheme\""
"\"dark\""
"\"reduceMotion\""
"\"locale\""
"\"tint\""
"\"#FF8000\""
"\"fps\""
"\"scale\""
"\"duration\""
"\"events\""
"\"at\""
"\"tap\""
"\"add\""
"\"swipe\""
"\"item\""
"\"translation\""
"\"items\""
"\"id\""
"\"price\""
"\"quantity\""
"\"image\""
"\"symbol:backpack.fill\""
"\"images/tiny.png\""
"\"cartFrame\""
"\"measured\""
"\"count\""
"\"width\""
"\"height\""
"\"safeArea\""
"\xef\xbb\xbf"
"\\u00e9"
"\\ud83d\\ude00"
DICT

export CARTRENDER_FUZZ_BASE="$PWD/Tests/CLITests/Corpus"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
# Let libFuzzer and ASan report crashes; the Swift backtracer would race them.
export SWIFT_BACKTRACE=enable=no
cd "$out"
# -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a memory blow-up is a crash.
exec ./scene-fuzzer corpus -dict=scene.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 ${FUZZ_FLAGS:-}
