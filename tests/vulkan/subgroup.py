# ti.simt.subgroup: operations across the invocations of a subgroup (Taichi's
# test_simt subgroup reductions). What each prints holds for any subgroup
# size: sums over subgroups added once per subgroup (elect), scans checked
# against the lane's id, shuffles checked against the lanes they read.
import numpy as np
import taichi as ti
from taichi.lang.simt import subgroup

ti.init(arch=ti.vulkan)

# 2677 is prime: some subgroup is partly active.
n = 2677
xi = ti.field(ti.i32, n)
xf = ti.field(ti.f32, n)
vals = np.arange(n) * 7 % 101 + 1
xi.from_numpy(vals.astype(np.int32))
xf.from_numpy((vals / 4).astype(np.float32))


@ti.kernel
def reductions() -> ti.types.vector(4, ti.f32):
    s = 0
    mx = 0
    mn = 1000
    f = 0.0
    for i in xi:
        r = subgroup.reduce_add(xi[i])
        m = subgroup.reduce_max(xi[i])
        k = subgroup.reduce_min(xi[i])
        g = subgroup.reduce_add(xf[i])
        if subgroup.elect():
            s += r
            ti.atomic_max(mx, m)
            ti.atomic_min(mn, k)
            f += g
    return ti.Vector([s, mx, mn, f])


r = reductions()
print("reduce add/max/min:", int(r[0]) == vals.sum(), int(r[1]) == vals.max(), int(r[2]) == vals.min())
print("reduce add f32:", abs(r[3] - vals.sum() / 4) < 1e-2 * vals.sum() / 4)

bad = ti.field(ti.i32, shape=())


@ti.kernel
def lanes():
    ti.loop_config(block_dim=64)
    for i in range(256):
        lane = subgroup.invocation_id()
        size = subgroup.group_size()
        # every lane is active: scans count the lanes below
        if subgroup.inclusive_add(1) != lane + 1:
            bad[None] += 1
        if subgroup.exclusive_add(2) != 2 * lane:
            bad[None] += 10
        if subgroup.inclusive_max(lane) != lane or subgroup.exclusive_or(0) != 0:
            bad[None] += 100
        if subgroup.broadcast(i, 0) != i - lane or subgroup.broadcast_first(i) != i - lane:
            bad[None] += 1000
        # every lane shuffles (a lane reading one that skipped the shuffle
        # reads an undefined value); the edge lanes' results go unchecked
        down = subgroup.shuffle_down(i, 1)
        up = subgroup.shuffle_up(i, 1)
        if lane + 1 < size and down != i + 1:
            bad[None] += 10000
        if lane >= 1 and up != i - 1:
            bad[None] += 100000
        if subgroup.shuffle(i * 2, lane ^ 1) != (i ^ 1) * 2 or subgroup.shuffle_xor(i, 1) != (i ^ 1):
            bad[None] += 1000000
        if not subgroup.all_true(1) or subgroup.any_true(0) or not subgroup.any_true(lane == 0):
            bad[None] += 10000000
        if not subgroup.all_equal(i - lane) or (size > 1 and subgroup.all_equal(i)):
            bad[None] += 100000000
        v = subgroup.reduce_add(ti.Vector([1, lane]))
        if v[0] != size or v[1] != size * (size - 1) // 2:
            bad[None] += 1000000000
        subgroup.barrier()
        subgroup.memory_barrier()


lanes()
print("lane checks failed:", bad[None])
