#!/bin/sh
# arch=ti.cuda where there is no CUDA driver or device: a RuntimeError that
# says what is missing, exit 1 (never a crash, never a silent CPU run); where
# a device is, the program runs on it. Also under python3 (a Python exception).
#   no_device.sh KILN PYTHON PYTHONPATH
kiln=$1; py=$2; pp=$3
here=$(dirname "$0")
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
echo ok
