"""A rank that dies mid-run (tests/distributed/run_ranks.py dies_*): rank 1
stops after a few halo exchanges, by an exception or by SIGKILL, while rank 0
goes on exchanging with it. The job must end with an error, not wait forever."""
import os
import signal
import sys

import taichi as ti
import taichi.distributed as td

ti.init(arch=ti.cpu)
t = td.field(ti.f32, global_shape=(8, 4), halo=1)
step = 0
while True:
    td.exchange_halos(t)
    step += 1
    if td.rank() == 1 and step == 5:
        if sys.argv[1] == "killed":
            os.kill(os.getpid(), signal.SIGKILL)
        raise RuntimeError("rank 1 gives up at step 5")
