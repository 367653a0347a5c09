#!/bin/sh
# The README's install, as a new user does it: a fresh venv that sees Debian's
# numpy and matplotlib, `pip install --no-build-isolation ./python` (reusing
# this build tree through KILN_BUILD_DIR), then an example that plots with
# matplotlib, run from outside the source tree; Kiln's LLVM module comes with
# the package and is the one KILN_ENGINE=llvm loads.
# Usage: venv_install.sh PYTHON ROOT BUILD. Exit 77 (skipped) without venv/pip/matplotlib.
python=$1 root=$2 build=$3
"$python" -c "import venv, ensurepip" 2>/dev/null || { echo "skipped: no python3-venv"; exit 77; }
"$python" -c "import matplotlib, numpy" 2>/dev/null || { echo "skipped: no python3-matplotlib / numpy"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
set -e
"$python" -m venv --system-site-packages "$tmp/venv"
KILN_BUILD_DIR="$build" "$tmp/venv/bin/pip" install -q --no-index --no-build-isolation "$root/python"
cd "$tmp"
"$tmp/venv/bin/python" -c "import taichi, kiln; assert kiln is taichi and taichi.__file__.startswith('$tmp/venv'), taichi.__file__"
# Kiln's LLVM module is installed beside taichi._core and loaded from there.
if [ -f "$build/libkiln_llvm.so" ]; then
  pkg=$("$tmp/venv/bin/python" -c "import os, taichi; print(os.path.realpath(os.path.dirname(taichi.__file__)))")
  test -f "$pkg/libkiln_llvm.so"
  test ! -L "$pkg/libkiln_llvm.so"
  KILN_ENGINE=llvm KILN_LLVM_VERBOSE=1 "$tmp/venv/bin/python" "$root/tests/llvm/maps.py" 2>&1 | grep -qx "llvm: module $pkg/libkiln_llvm.so"
fi
out=$("$tmp/venv/bin/python" "$root/examples/python_plot.py" --size 64 --iters 50 --out "$tmp/julia.png")
echo "$out"
echo "$out" | grep -q "^64x64 pixels, [0-9]* inside after 50 iterations"
head -c 8 "$tmp/julia.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a"
echo "installed, imported and plotted: OK"
