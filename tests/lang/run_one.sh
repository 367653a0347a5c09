#!/usr/bin/env bash
# Runs one conformance program on one engine and compares with its .expected:
#   tests/lang/run_one.sh KILN ENGINE NAME.py [HOST]
# HOST (python or builtin; default: kiln's own, python) is the host of the
# program's top level. On builtin, NAME.builtin.expected is the expected output
# when it exists: the program's own errors are then the built-in evaluator's,
# not Python's tracebacks. Absolute paths in tracebacks are shown relative to
# this folder.
# The actual output is the program's stdout, followed by its stderr when it
# exits with status 1 (a user error: the expected file then ends with the
# error's kind line, location and caret). Any other non-zero status (a crash)
# fails. If NAME.expected_stderr exists, stderr must also match it exactly
# (for warnings). Run from tests/lang so paths in messages are short.
set -u
kiln=$1; engine=$2; prog=$3; host=${4:-}
name=${prog%.py}
expected=$name.expected
[ "$host" = builtin ] && [ -f "$name.builtin.expected" ] && expected=$name.builtin.expected
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
# The JIT compiles every loop on its first back edge, so that each program
# exercises recording, traces and side exits; an exit taken twice grows a
# side trace. strict=1: an assembler error (a JIT bug the assembler caught,
# jit/asm_check.cpp) fails the test instead of leaving the loop uncompiled.
label=$engine
jit_env=
[ "$engine" = jit ] && jit_env=hotloop=1,hotexit=2,strict=1
# "tiered": the default engine with its tier-up at the first launch, compiled
# at the end of its first slice (jit/tiered.cpp, vm/interp/mid_launch.h): a
# kernel's first launch starts on the JIT and goes on with LLVM's code, every
# later one runs LLVM's code.
tier_env=
if [ "$engine" = tiered ]; then
  engine=jit; jit_env=hotloop=1,hotexit=2,strict=1; tier_env="KILN_TIER_MS=0 KILN_TIER_SYNC=1"
fi
# "llvm_pools": the LLVM tier with pointer and dynamic SNodes in device pools
# (KILN_DEVICE_POOLS=1): the CPU runs the allocation, activation and SNode
# operations the GPU's code does (jit/llvm/lower_pools.cpp).
pools_env=
[ "$engine" = llvm_pools ] && { engine=llvm; pools_env=KILN_DEVICE_POOLS=1; }
# "vulkan" is a backend, not an engine: KILN_ARCH=vulkan runs every kernel
# on the Vulkan device (lavapipe here), whatever the program's ti.init says.
arch=cpu
[ "$engine" = vulkan ] && { arch=vulkan; engine=interp; }
# "cuda" likewise: KILN_ARCH=cuda (a GPU machine; tests/cuda/run_device.sh).
[ "$engine" = cuda ] && { arch=cuda; engine=interp; }
env $tier_env $pools_env KILN_VERIFY_IR=1 KILN_ARCH=$arch KILN_JIT=${KILN_JIT:-$jit_env} KILN_ENGINE=$engine KILN_HOST=$host timeout 60 "$kiln" run "$prog" >"$out" 2>"$err"
rc=$?
sed -i "s|$PWD/||g" "$err"
if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
  echo "FAIL $prog [$label]: exit status $rc (crash or timeout)"; cat "$err"; exit 1
fi
[ $rc -eq 1 ] && cat "$err" >>"$out"
if ! diff -u "$expected" "$out" >/dev/null; then
  echo "FAIL $prog [$label${host:+, $host}]: output differs (expected vs actual):"
  diff -u "$expected" "$out" | head -60
  [ $rc -eq 0 ] && [ -s "$err" ] && { echo "--- stderr:"; head -20 "$err"; }
  exit 1
fi
if [ -f "$name.expected_stderr" ] && ! diff -u "$name.expected_stderr" "$err"; then
  echo "FAIL $prog [$label]: stderr differs"; exit 1
fi
exit 0
