#!/bin/sh
# arch=ti.cuda where there is no CUDA driver or device. With
# enable_fallback=False (no_device.py): a RuntimeError that says what is
# missing, exit 1 (never a crash). By default (the same program without
# enable_fallback), as in Taichi: a warning saying why, then it runs on the CPU. Where a
# device is, both run on it. On `kiln run`, `kiln run --host=builtin` and
# python3.
#   no_device.sh KILN PYTHON PYTHONPATH
kiln=$1; py=$2; pp=$3
here=$(dirname "$0")
unset KILN_ARCH
out=$("$kiln" run "$here/no_device.py" 2>&1); rc=$?
if [ $rc -eq 0 ]; then
  echo "$out" | grep -q '^\[0, 2, 4, 6\]$' || { echo "ran but printed: $out"; exit 1; }
  echo "a CUDA device is here: the program ran on it"; exit 0
fi
[ $rc -eq 1 ] || { echo "exit $rc: $out"; exit 1; }
echo "$out" | grep -q "RuntimeError: arch=cuda: no CUDA driver on this machine\|RuntimeError: arch=cuda: no CUDA device\|RuntimeError: arch=cuda: the CUDA driver" || { echo "unexpected: $out"; exit 1; }
echo "$out" | grep -q "no_device.py:3" || { echo "no location: $out"; exit 1; }
if [ -n "$pp" ]; then
  out=$(PYTHONPATH=$pp "$py" "$here/no_device.py" 2>&1); rc=$?
  [ $rc -eq 1 ] && echo "$out" | grep -q "RuntimeError" && echo "$out" | grep -q "arch=cuda" || { echo "python3: exit $rc: $out"; exit 1; }
fi
fallback() {  # HOST-LABEL COMMAND...: the fallback program prints its result and warns once
  label=$1; shift
  e=$(mktemp); out=$("$@" 2>"$e"); rc=$?; err=$(cat "$e"); rm -f "$e"
  [ $rc -eq 0 ] && [ "$out" = "[0, 2, 4, 6]" ] || { echo "$label: exit $rc: $out $err"; exit 1; }
  [ "$(echo "$err" | grep -c '^warning: arch=cuda: .*; running on the CPU instead (ti.init(enable_fallback=False) makes this an error)$')" = 1 ] ||
    { echo "$label: no fallback warning: $err"; exit 1; }
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sed 's/, enable_fallback=False//' "$here/no_device.py" >"$tmp/fallback.py"
fallback "kiln run" "$kiln" run "$tmp/fallback.py"
fallback "kiln run --host=builtin" "$kiln" run --host=builtin "$tmp/fallback.py"
[ -n "$pp" ] && fallback python3 env PYTHONPATH="$pp" "$py" "$tmp/fallback.py"
echo ok
