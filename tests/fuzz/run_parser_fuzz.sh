#!/usr/bin/env bash
# Builds the parser's libFuzzer target with clang (coverage-instrumented parser
# and support sources, ASan + UBSan) and runs it, seeded with the programs of
# tests/lang and examples/:
#   tests/fuzz/run_parser_fuzz.sh [SECONDS]     (default 60; crashes land in build/parser-fuzz/)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
out=$root/build/parser-fuzz
mkdir -p "$out/corpus"
cp "$root"/tests/lang/*.py "$root"/examples/*.py "$out/corpus/"
clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I"$root" \
  "$root/tests/fuzz/parser_fuzz.cpp" "$root"/vm/lang/*.cpp "$root"/vm/support/*.cpp -o "$out/kiln-parser-fuzz"
cd "$out"
./kiln-parser-fuzz -max_total_time="$secs" -max_len=4096 -timeout=5 -artifact_prefix="$out/" corpus
