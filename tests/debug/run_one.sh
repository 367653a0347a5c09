#!/usr/bin/env bash
# Runs one debugger transcript: `kiln debug [--host=HOST] NAME.py [ARGS]` fed
# NAME.cmds on stdin (ARGS: the words of NAME.args, if there is one); stdout
# and stderr together must equal NAME.expected.
#   tests/debug/run_one.sh KILN NAME [HOST]   (HOST none: skipped, status 77)
set -u
kiln=$1; name=$2; host=${3:-}
[ "$host" = none ] && { echo "SKIP $name: kiln has no CPython host"; exit 77; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
args=()
[ -f "$name.args" ] && read -r -a args <"$name.args"
timeout 60 "$kiln" debug ${host:+--host=$host} "$name.py" "${args[@]}" <"$name.cmds" >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ]; then echo "FAIL $name: exit status $rc"; cat "$out"; exit 1; fi
if ! diff -u "$name.expected" "$out"; then echo "FAIL $name: transcript differs"; exit 1; fi
