#!/usr/bin/env bash
# Runs one scripted DAP session (NAME.json) against `kiln dap` and compares
# the transcript with NAME.expected.   tests/dap/run_one.sh KILN NAME [HOST]
# HOST (python or builtin) is the program's host; "none" skips (status 77).
set -u
[ "${3:-}" = none ] && exit 77
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timeout 120 python3 dap_client.py "$1" "$2.json" ${3:-} >"$out" 2>&1 || { echo "FAIL $2: client failed"; cat "$out"; exit 1; }
diff -u "$2.expected" "$out" || { echo "FAIL $2: transcript differs"; exit 1; }
