#!/usr/bin/env bash
# Runs one debugger transcript: `kiln debug NAME.py` fed NAME.cmds on stdin;
# stdout and stderr together must equal NAME.expected.
#   tests/debug/run_one.sh KILN NAME
set -u
kiln=$1; name=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timeout 60 "$kiln" debug "$name.py" <"$name.cmds" >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ]; then echo "FAIL $name: exit status $rc"; cat "$out"; exit 1; fi
if ! diff -u "$name.expected" "$out"; then echo "FAIL $name: transcript differs"; exit 1; fi
