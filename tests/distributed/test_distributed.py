"""taichi.distributed on 2 ranks (run by run_ranks.py api:
mpirun -n 2 python3 -m pytest test_distributed.py). Each rank runs every test;
the tests' collective calls happen in the same order on both."""
import numpy as np
import pytest
import taichi as ti
import taichi.distributed as td
from mpi4py import MPI


@pytest.fixture(autouse=True)
def fresh():
    ti.init(arch=ti.cpu)


def test_two_ranks():
    assert td.size() == 2


def test_split_and_index_range():
    t = td.field(ti.f32, global_shape=(9, 3), halo=2)
    lo, hi = td.index_range(t)
    assert (lo, hi) == [(0, 5), (5, 9)][td.rank()]  # the first rank takes the odd row
    assert t.shape == (hi - lo + 4, 3)
    t[lo - 2, 0] = 1.0  # halo rows are indexed globally
    t[hi + 1, 2] = 1.0


def test_sendrecv_on_field_slices():
    # zero-copy: mpi4py reads and writes the fields' own memory
    x = ti.field(ti.i32, shape=(4, 2))
    x.fill(td.rank() + 1)
    other = 1 - td.rank()
    td.comm.Sendrecv(x[0:1], dest=other, recvbuf=x[3:4], source=other)
    assert np.asarray(x)[:, 0].tolist() == [td.rank() + 1] * 3 + [other + 1]
    v = ti.Vector.field(2, ti.f64, shape=3)
    v.fill(td.rank() * 10)
    got = np.empty((3, 2))
    td.comm.Sendrecv(v, dest=other, recvbuf=got, source=other)
    assert got.tolist() == [[other * 10.0] * 2] * 3


def test_exchange_halos():
    n, m = 6, 4
    t = td.field(ti.f32, global_shape=(n, m), halo=1)
    lo, hi = td.index_range(t)

    @ti.kernel
    def mark(lo: int, hi: int):
        for i, j in ti.ndrange((lo, hi), m):
            t[i, j] = i * 100 + j

    t.fill(-1)
    mark(lo, hi)
    td.exchange_halos(t)
    if td.rank() == 0:
        assert t[hi, 2] == hi * 100 + 2  # the first row of rank 1
        assert t[-1, 0] == -1  # the global edge keeps its value
    else:
        assert t[lo - 1, 3] == (lo - 1) * 100 + 3
        assert t[n, 0] == -1


def test_periodic_vector_field():
    t = td.field(ti.types.vector(2, ti.i32), global_shape=4, halo=1, periodic=True)
    lo, hi = td.index_range(t)
    for i in range(lo, hi):
        t[i] = (i, -i)
    td.exchange_halos(t)
    assert t[lo - 1].to_list() == [(lo - 1) % 4, -((lo - 1) % 4)]
    assert t[hi].to_list() == [hi % 4, -(hi % 4)]


def test_allreduce_and_gather():
    t = td.field(ti.f64, global_shape=(5, 2), halo=1)
    lo, hi = td.index_range(t)

    @ti.kernel
    def fill(lo: int, hi: int) -> ti.f64:
        s = 0.0
        for i, j in ti.ndrange((lo, hi), 2):
            t[i, j] = i + 0.5 * j
            s += t[i, j]
        return s

    total = td.allreduce(fill(lo, hi))
    assert total == sum(i + 0.5 * j for i in range(5) for j in range(2))
    assert td.allreduce(td.rank(), "max") == 1
    full = td.gather(t)
    if td.rank() == 0:
        assert full.tolist() == [[i + 0.5 * j for j in range(2)] for i in range(5)]
    else:
        assert full is None


def test_threads_follow_init():
    import os
    # by default the ranks on this machine share its cores: never more threads than cores
    assert 1 <= td.threads() <= max(1, os.cpu_count() // 2)
    ti.init(arch=ti.cpu, cpu_max_num_threads=1)
    assert td.threads() == 1


def test_errors():
    with pytest.raises(ValueError, match="3 rows cannot be split over 2 ranks with halo=2"):
        td.field(ti.f32, global_shape=(3, 3), halo=2)
    with pytest.raises(ValueError, match="global_shape must be positive ints"):
        td.field(ti.f32, global_shape=(0, 3))
    with pytest.raises(ValueError, match="halo must be an int >= 0"):
        td.field(ti.f32, global_shape=(8,), halo=-1)
    plain = ti.field(ti.f32, shape=8)
    with pytest.raises(TypeError, match=r"td.exchange_halos: ScalarField is not a field made by td.field"):
        td.exchange_halos(plain)
    with pytest.raises(ValueError, match="op must be one of sum, max, min, prod"):
        td.allreduce(1.0, "mean")
    # mpi4py tries the buffer protocol, then DLPack: the traceback shows our error
    # first ("During handling of the above exception, ..."), then DLPack's
    col = ti.field(ti.f32, shape=(4, 4), order="ji")
    with pytest.raises(BufferError) as e:
        MPI.COMM_SELF.Sendrecv(col[0:1], dest=0, recvbuf=np.empty(4, np.float32), source=0)
    first = e.value.__context__ or e.value
    assert str(first).startswith("field 'col' of shape (4, 4)[0:1] is not one contiguous block of memory: "
                                 "its element strides are (4, 16) bytes for shape (1, 4)")
