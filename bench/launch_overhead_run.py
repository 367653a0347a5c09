"""Runs bench/launch_overhead.py in fresh processes, builds alternating, on
both hosts, and prints per shape the min and median (over processes) of
each process's best round, in microseconds per launch, with the load.

    python3 bench/launch_overhead_run.py [--procs 10] [--host python3|kiln|both] BUILD [BUILD...]

A BUILD is a build directory (its python/ package and its kiln binary);
give the old and the new one to compare them in the same run."""
import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "launch_overhead.py")


def one(build, host):
    env = dict(os.environ)
    if host == "python3":
        env["PYTHONPATH"] = os.path.join(build, "python")
        cmd = [sys.executable, SCRIPT]
    else:
        cmd = [os.path.join(build, "kiln"), "run", SCRIPT]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    return {w[0]: float(w[1]) for w in (line.split() for line in out.splitlines()) if len(w) == 2}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=10)
    ap.add_argument("--host", default="both", choices=["python3", "kiln", "both"])
    ap.add_argument("builds", nargs="+")
    a = ap.parse_args()
    hosts = ["python3", "kiln"] if a.host == "both" else [a.host]
    res = {}  # (build, host) -> shape -> [us]
    for _ in range(a.procs):
        for host in hosts:
            for b in a.builds:  # alternating: each round runs every build once
                for shape, us in one(b, host).items():
                    res.setdefault((b, host), {}).setdefault(shape, []).append(us)
    print("load", open("/proc/loadavg").read().split()[:3])
    for host in hosts:
        for b in a.builds:
            figs = res[(b, host)]
            row = "  ".join(f"{s} {min(v):.3f}/{statistics.median(v):.3f}" for s, v in figs.items())
            print(f"{host:8} {b}: {row}   (us per launch, min/median of {a.procs} processes)")


main()
