#!/bin/sh
# Kiln's LLVM module (libkiln_llvm.so, jit/llvm/module_abi.h) is loaded at its
# first use from every entry point, and only then:
# - `kiln run` and python3 (the package in PYTHONPATH) map neither it, nor
#   libLLVM, nor SDL2 for a program that never compiles with LLVM or opens a
#   window; KILN_ENGINE=llvm maps the module and libLLVM, and prints the same;
# - an application linking the C API runs KILN_ENGINE=llvm as it runs the default;
# - a module that is missing, is not Kiln's or is from another build:
#   KILN_ENGINE=llvm is a RuntimeError naming the file and why (exit 1); the
#   default engine prints one line saying kernels stay on the JIT, and the
#   program's own output.
#   module.sh KILN PYTHON PYTHONPATH EMBED_C STALE_MODULE OTHER_LIBRARY LIBLLVM
#   (PYTHONPATH empty: no Python module; LIBLLVM: shared if the module links libLLVM.so, else static)
set -u
kiln=$1; py=$2; pp=$3; embed=$4; stale=$5; other=$6; libllvm=$7
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
want_maps() {  # LABEL EXPECTED-MODULE-STATE OUTPUT
  echo "$3" | grep -qx 49 || fail "$1: wrong output: $3"
  echo "$3" | grep -qx "libkiln_llvm.so $2" || fail "$1: module not $2: $3"
  l=$2; [ "$libllvm" = static ] && l="not mapped"
  echo "$3" | grep -qx "libLLVM $l" || fail "$1: libLLVM not $l: $3"
  echo "$3" | grep -qx "libSDL2 not mapped" || fail "$1: SDL2 mapped: $3"
}
unset KILN_ENGINE KILN_LLVM_MODULE
want_maps "kiln run" "not mapped" "$(KILN_TIER_MS=off "$kiln" run "$here/maps.py" 2>&1)"
want_maps "kiln run, engine llvm" "mapped" "$(KILN_ENGINE=llvm "$kiln" run "$here/maps.py" 2>&1)"
if [ -n "$pp" ]; then
  want_maps "python3" "not mapped" "$(KILN_TIER_MS=off PYTHONPATH=$pp "$py" "$here/maps.py" 2>&1)"
  want_maps "python3, engine llvm" "mapped" "$(KILN_ENGINE=llvm PYTHONPATH=$pp "$py" "$here/maps.py" 2>&1)"
fi
a=$("$embed" 2>&1) || fail "C API: exit $?: $a"
b=$(KILN_ENGINE=llvm "$embed" 2>&1) || fail "C API, engine llvm: exit $?: $b"
[ "$a" = "$b" ] || fail "C API: engine llvm printed $b, the default $a"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "not an ELF file" >"$tmp/bogus.so"
for case in "$tmp/none.so:was not found" "$tmp/bogus.so:cannot load" \
            "$(dirname "$kiln")/unit_jit_opt:cannot dynamically load" "$other:is not Kiln's LLVM module" \
            "$stale:was built from another Kiln"; do
  m=${case%%:*}; why=${case#*:}
  out=$(KILN_ENGINE=llvm KILN_LLVM_MODULE=$m "$kiln" run "$here/maps.py" 2>&1); rc=$?
  [ $rc -eq 1 ] || fail "module $m: exit $rc: $out"
  echo "$out" | grep -q "^RuntimeError: engine 'llvm': .*$m" || fail "module $m: $out"
  echo "$out" | grep -q "$why" || fail "module $m: not '$why': $out"
  out=$(KILN_TIER_MS=0 KILN_TIER_SYNC=1 KILN_LLVM_MODULE=$m "$kiln" run "$here/maps.py" 2>&1) || fail "tiered, module $m: $out"
  [ "$(echo "$out" | grep -c "^kiln: kernels stay on the JIT: .*$m")" = 1 ] || fail "tiered, module $m: $out"
  echo "$out" | grep -qx 49 || fail "tiered, module $m: $out"
done
echo ok
