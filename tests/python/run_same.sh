#!/bin/sh
# Runs NAME.py (a path from the repository's root) twice: under `kiln run --host=builtin` (Kiln's own evaluator) and under CPython with
# the taichi package (python/taichi: `import taichi as ti`, unchanged), and requires both to
# succeed and print exactly the same.
# Usage: run_same.sh KILN PYTHON PYDIR NAME. Exit 77 (skipped) without the module.
kiln=$1 python=$2 pydir=$3 name=$4
if [ -z "$pydir" ] || [ ! -f "$pydir/taichi/__init__.py" ]; then
  echo "skipped: the taichi Python package was not built (needs pybind11-dev and python3-dev)"
  exit 77
fi
if ! "$python" -c "import numpy" 2>/dev/null; then
  echo "skipped: $python has no numpy (apt install python3-numpy)"
  exit 77
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
base=$(basename "$name")
cp "$root/$name.py" "$tmp/$base.py"
"$kiln" run --host=builtin "$tmp/$base.py" > "$tmp/kiln.out" 2>&1 || { echo "kiln run failed:"; cat "$tmp/kiln.out"; exit 1; }
PYTHONPATH="$pydir" "$python" "$tmp/$base.py" > "$tmp/python.out" 2>&1 || { echo "python3 failed:"; cat "$tmp/python.out"; exit 1; }
[ -s "$tmp/kiln.out" ] || { echo "kiln run printed nothing"; exit 1; }
diff -u "$tmp/kiln.out" "$tmp/python.out" || { echo "FAIL: python3 and kiln run print differently"; exit 1; }
echo "same output ($(wc -l < "$tmp/kiln.out") lines)"
