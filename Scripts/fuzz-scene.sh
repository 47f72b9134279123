#!/usr/bin/env bash
# Fuzzes the scene decoder and validator, the manifest reader with merge's checks of shard
# manifests, and the request parser of review's server, with libFuzzer and AddressSanitizer
# (issue #7, issue #18). CI runs each target for 40 s after the tests (.ci/run); run it by hand
# for a few minutes after changing Sources/CartRenderCore/Scene/, Sources/CartRenderCore/Manifest/
# or Sources/CartRenderCLI/Review/HTTPMessage.swift.
#
#   Scripts/fuzz-scene.sh [SECONDS] [TARGET…]   SECONDS per target, default 300; TARGET scene,
#                                               manifest and/or http, default all three; extra
#                                               libFuzzer flags in FUZZ_FLAGS
#
# Builds .build/fuzz/fuzzer once from the CartRenderCore sources, the HTTP messages of review's
# server (Sources/CartRenderCLI/Review/HTTPMessage.swift, which needs Foundation only) and
# Fuzz/*.swift (swiftc -sanitize=fuzzer,address), then for each target seeds a working corpus
# (.build/fuzz/TARGET/corpus) and runs it (CARTRENDER_FUZZ_TARGET chooses the target):
#   scene      seeds: Examples/*.json, the bad-input corpus (Tests/CLITests/Corpus/*.json) and
#              Tests/CLITests/Corpus/fuzz/; JSON tokens
#   manifest   seeds: Tests/CLITests/Corpus/manifests/ (manifests and shard manifests of small renders);
#              JSON tokens
#   http       seeds: Fuzz/Seeds/http/ (request heads as the server passes them: up to the blank
#              line, without it); HTTP tokens
# A crash leaves crash-* in .build/fuzz/TARGET/; add each one to the target's seed directory
# (Corpus/fuzz/ for scenes) once it is fixed. Exit status: 0 when the time ran out without a
# crash in any target, libFuzzer's otherwise (the first target that crashed stops the script).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(scene manifest http)
for t in "${targets[@]}"; do
    case "$t" in scene|manifest|http) ;; *) echo "fuzz-scene.sh: unknown target $t (expected scene, manifest or http)" >&2; exit 64 ;; esac
done
out=.build/fuzz
mkdir -p "$out"

echo "building $out/fuzzer …" >&2
mapfile -t sources < <(find Sources/CartRenderCore Fuzz -name '*.swift' | sort)
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name CartRenderCoreFuzz \
    "${sources[@]}" Sources/CartRenderCLI/Review/HTTPMessage.swift -o "$out/fuzzer"

# JSON tokens help libFuzzer build scene files and manifests.
cat > "$out/json.dict" <<'DICT'
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
"\"frames\""
"\"frameCount\""
"\"file\""
"\"sha256\""
"\"alternates\""
"\"state\""
"\"index\""
"\"count\""
"\"time\""
"\"outputs\""
"\"software\""
"\"fonts\""
"\"package\""
"\"size\""
"\"frame_0000.png\""
"\"frame_0001.svg\""
"\"../x.png\""
"9223372036854775807"
"-9223372036854775808"
DICT

# Request-head tokens for the http target.
cat > "$out/http.dict" <<'DICT'
"GET"
"POST"
" HTTP/1.1"
" HTTP/1.0"
"\x0d\x0a"
": "
"%"
"%2e"
"%2F"
"%00"
"%C3%A9"
"%+f"
"?"
"&"
"="
"+"
"#"
"/"
"Host: 127.0.0.1:40517"
"Content-Length: "
"Transfer-Encoding: chunked"
"Cookie: cartrender-review-40517="
"X-Cartrender-Token: "
"Origin: http://127.0.0.1:40517"
"token="
"frame=all"
"\xef\xbf\xbd"
"\xc3"
DICT

export CARTRENDER_FUZZ_BASE="$PWD/Tests/CLITests/Corpus"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
# Let libFuzzer and ASan report crashes; the Swift backtracer would race them.
export SWIFT_BACKTRACE=enable=no
for target in "${targets[@]}"; do
    # Seeds: copied, so that libFuzzer's additions do not land in the repository.
    work="$out/$target"
    mkdir -p "$work/corpus"
    case "$target" in
    scene)
        cp Examples/*.json Tests/CLITests/Corpus/*.json "$work/corpus/"
        if [ -d Tests/CLITests/Corpus/fuzz ]; then cp Tests/CLITests/Corpus/fuzz/* "$work/corpus/" 2>/dev/null || true; fi ;;
    manifest)
        cp Tests/CLITests/Corpus/manifests/* "$work/corpus/" ;;
    http)
        cp Fuzz/Seeds/http/* "$work/corpus/" ;;
    esac
    dict=json.dict
    [ "$target" != http ] || dict=http.dict
    echo "fuzzing $target for $seconds s …" >&2
    # -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a memory blow-up is a crash.
    # shellcheck disable=SC2086 # FUZZ_FLAGS holds several libFuzzer flags, split on purpose
    (cd "$work" && CARTRENDER_FUZZ_TARGET="$target" ../fuzzer corpus -dict="../$dict" -max_total_time="$seconds" \
        -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 ${FUZZ_FLAGS:-})
done
