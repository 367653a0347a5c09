#!/usr/bin/env python3
"""Every task of every tests/lang program through the CUDA backend's PTX
path, checked by the CUDA toolkit's assembler (no GPU needed):

    ptxas_all.py KILN PTXAS [--jobs N] [PROGRAM.py ...]

Each program runs under `kiln dis --ptx=DIR` (its output is ignored: the
conformance tests check it); each DIR/KERNEL.TASK.ptx must assemble with
`ptxas -arch=sm_80` and `-arch=sm_90`. Tasks that run on the host (sparse
SNodes, SNode operations, autodiff tapes) leave KERNEL.TASK.host with the
reason: they are counted and listed by reason, not failed. Fails when ptxas
rejects a file, when dis crashes (a signal), or when a program prints an
InternalError. Exit 77 (skipped) without ptxas.
"""
import collections
import concurrent.futures
import os
import subprocess
import sys
import tempfile

ARCHS = ("sm_80", "sm_90")


def run_program(kiln, ptxas, prog, root):
    out = os.path.join(root, os.path.basename(prog)[:-3])
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, KILN_CUDA_SM="80", KILN_ARCH="cpu")
    try:
        p = subprocess.run([kiln, "dis", "--ptx=" + out, prog], capture_output=True, text=True, timeout=300,
                           env=env, cwd=os.path.dirname(prog) or ".")
    except subprocess.TimeoutExpired:
        return prog, ["dis timed out"], 0, []
    problems = []
    if p.returncode < 0 or p.returncode > 2:
        problems.append("kiln dis exited %d: %s" % (p.returncode, p.stderr[-2000:]))
    if "InternalError" in p.stderr:
        problems.append("InternalError: " + p.stderr[-2000:])
    ptx, host = 0, []
    for f in sorted(os.listdir(out)):
        path = os.path.join(out, f)
        if f.endswith(".host"):
            with open(path) as h:
                host.append(h.read().strip())
            continue
        ptx += 1
        for arch in ARCHS:
            a = subprocess.run([ptxas, "-arch=" + arch, "-o", os.devnull, path], capture_output=True, text=True)
            if a.returncode != 0:
                problems.append("ptxas -arch=%s rejects %s:\n%s" % (arch, f, a.stderr[-2000:]))
    return prog, problems, ptx, host


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__)
        return 2
    kiln, ptxas = os.path.abspath(args[0]), args[1]
    jobs = os.cpu_count() or 2
    progs = []
    rest = args[2:]
    i = 0
    while i < len(rest):
        if rest[i] == "--jobs":
            jobs = int(rest[i + 1])
            i += 2
            continue
        progs.append(os.path.abspath(rest[i]))
        i += 1
    if not os.path.exists(ptxas):
        print("skipped: no ptxas at %s (the CUDA toolkit)" % ptxas)
        return 77
    if not progs:
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lang")
        progs = sorted(os.path.abspath(os.path.join(here, f)) for f in os.listdir(here) if f.endswith(".py"))
    failed = 0
    total_ptx = 0
    reasons = collections.Counter()
    with tempfile.TemporaryDirectory() as root, concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for prog, problems, ptx, host in pool.map(lambda p: run_program(kiln, ptxas, p, root), progs):
            total_ptx += ptx
            for h in host:
                reasons[h.split(" (statement")[0]] += 1
            if problems:
                failed += 1
                print("FAIL %s" % os.path.basename(prog))
                for pr in problems:
                    print("  " + pr.replace("\n", "\n  "))
    host_total = sum(reasons.values())
    print("%d programs, %d tasks compiled to PTX and accepted by ptxas for %s, %d tasks on the host"
          % (len(progs), total_ptx, " and ".join(ARCHS), host_total))
    for r, n in reasons.most_common():
        print("  host: %4d  %s" % (n, r))
    if failed:
        print("%d programs failed" % failed)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
