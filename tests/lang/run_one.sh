#!/usr/bin/env bash
# Runs one conformance program on one engine and compares with its .expected:
#   tests/lang/run_one.sh KILN ENGINE NAME.py
# The actual output is the program's stdout, followed by its stderr when it
# exits with status 1 (a user error: the expected file then ends with the
# error's kind line, location and caret). Any other non-zero status (a crash)
# fails. If NAME.expected_stderr exists, stderr must also match it exactly
# (for warnings). Run from tests/lang so paths in messages are short.
set -u
kiln=$1; engine=$2; prog=$3
name=${prog%.py}
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
# The JIT compiles every loop on its first back edge, so that each program
# exercises recording, traces and side exits; an exit taken twice grows a
# side trace.
jit_env=
[ "$engine" = jit ] && jit_env=hotloop=1,hotexit=2
KILN_JIT=${KILN_JIT:-$jit_env} KILN_ENGINE=$engine timeout 60 "$kiln" run "$prog" >"$out" 2>"$err"
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
  echo "FAIL $prog [$engine]: exit status $rc (crash or timeout)"; cat "$err"; exit 1
fi
[ $rc -eq 1 ] && cat "$err" >>"$out"
if ! diff -u "$name.expected" "$out" >/dev/null; then
  echo "FAIL $prog [$engine]: output differs (expected vs actual):"
  diff -u "$name.expected" "$out" | head -60
  [ $rc -eq 0 ] && [ -s "$err" ] && { echo "--- stderr:"; head -20 "$err"; }
  exit 1
fi
if [ -f "$name.expected_stderr" ] && ! diff -u "$name.expected_stderr" "$err"; then
  echo "FAIL $prog [$engine]: stderr differs"; exit 1
fi
exit 0
