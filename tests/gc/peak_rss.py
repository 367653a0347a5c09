#!/usr/bin/env python3
"""Runs a command and fails unless it exits 0 within a peak RSS budget:
  peak_rss.py LIMIT_MB COMMAND...
(the cycle collector's test, issue 15: 10^5 iterations that each make
reference cycles stay within a small footprint)."""
import resource
import subprocess
import sys

limit_mb = float(sys.argv[1])
p = subprocess.run(sys.argv[2:])
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print("exit %d, peak RSS %.1f MB (limit %g MB)" % (p.returncode, peak_mb, limit_mb))
sys.exit(0 if p.returncode == 0 and peak_mb < limit_mb else 1)
