"""Taichi programs under MPI (taichi.distributed), on this machine over loopback.

    run_ranks.py KILN PYTHON PYDIR CASE

CASE:
  heat_python, heat_kiln  examples/distributed/heat.py on 1, 2 and 4 ranks under
                          `python3` / `kiln run --host=python`: every run prints what
                          1 rank under python3 prints (the reference).
  dies_exception          rank 1 raises mid-run while rank 0 waits in a halo
                          exchange: the job ends with the error named, not a hang.
  dies_killed             rank 1 is killed (SIGKILL) mid-run: mpirun ends the job.
  api                     tests/distributed/test_distributed.py (pytest) on 2 ranks.

Every mpirun is bounded by a timeout, so a hang fails the test instead of
holding ctest. Exit 77 (skipped) without mpirun or mpi4py.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
kiln, python, pydir, case = sys.argv[1:5]
TIMEOUT = 90


def skip(why):
    print("skipped:", why)
    sys.exit(77)


if not shutil.which("mpirun"):
    skip("no mpirun (apt install openmpi-bin)")
if subprocess.run([python, "-c", "import mpi4py, numpy"], capture_output=True).returncode:
    skip(f"{python} has no mpi4py or numpy (apt install python3-mpi4py python3-numpy)")
if not pydir or not os.path.isfile(os.path.join(pydir, "taichi", "__init__.py")):
    skip("the taichi Python package was not built")

# loopback only; shared memory without cross-process copies (CMA needs ptrace rights containers lack)
env = dict(os.environ, PYTHONPATH=pydir, OMPI_MCA_btl_tcp_if_include="lo", OMPI_MCA_oob_tcp_if_include="lo",
           OMPI_MCA_btl_vader_single_copy_mechanism="none")
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe"]


def mpirun(n, argv):
    try:
        return subprocess.run(MPIRUN + ["-n", str(n)] + argv, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT, cwd=ROOT)
    except subprocess.TimeoutExpired as e:
        print(f"FAIL: mpirun -n {n} {' '.join(argv)} still running after {TIMEOUT} s (a hang)")
        print((e.stdout or b"").decode() if isinstance(e.stdout, bytes) else e.stdout or "")
        sys.exit(1)


def host(which):
    return [python] if which == "python" else [kiln, "run", "--host=python"]


def check_same(which):
    prog = ["examples/distributed/heat.py", "--rows", "61", "--cols", "40", "--steps", "120"]
    ref = mpirun(1, [python] + prog)
    if ref.returncode:
        print("FAIL: 1 rank under python3:\n" + ref.stdout + ref.stderr)
        sys.exit(1)
    for n in (1, 2, 4):
        r = mpirun(n, host(which) + prog)
        if r.returncode or r.stdout != ref.stdout:
            print(f"FAIL: {n} rank(s) under {which} (exit {r.returncode}) print\n{r.stdout}{r.stderr}\n"
                  f"where 1 rank under python3 prints\n{ref.stdout}")
            sys.exit(1)
        print(f"{n} rank(s) under {which}: same output ({ref.stdout.splitlines()[-1]})")


def check_dies(how):
    r = mpirun(2, [python, os.path.join(HERE, "dies.py"), how])
    out = r.stdout + r.stderr
    wanted = {"exception": "rank 1 of 2 failed with RuntimeError: aborting all ranks",
              "killed": "signal 9"}[how]
    if r.returncode == 0 or wanted not in out:
        print(f"FAIL: a rank that dies ({how}) should end the job with an error naming it ('{wanted}'); "
              f"exit {r.returncode}, output:\n{out}")
        sys.exit(1)
    print(f"rank 1 died ({how}): the job ended with exit {r.returncode} and '{wanted}'")


if case.startswith("heat_"):
    check_same(case[5:])
elif case.startswith("dies_"):
    check_dies(case[5:])
elif case == "api":
    r = mpirun(2, [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", os.path.join(HERE, "test_distributed.py")])
    print(r.stdout + r.stderr)
    sys.exit(1 if r.returncode else 0)
else:
    print("unknown case", case)
    sys.exit(2)
