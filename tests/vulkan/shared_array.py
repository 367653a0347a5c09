# ti.simt.block.SharedArray and ti.simt.block.sync() (Taichi's
# test_shared_array): each block of ti.loop_config(block_dim=N) iterations
# shares one array; sync() is the block's barrier.
import numpy as np
import taichi as ti

ti.init(arch=ti.vulkan)

block_dim = 32
n_blocks = 8
N = n_blocks * block_dim

v = ti.field(ti.f32, shape=N)
d = ti.field(ti.f32, shape=N)
a = ti.field(ti.f32, shape=N)
ref = ti.field(ti.f32, shape=N)


@ti.kernel
def calc():
    for i in range(N):
        acc = 0.0
        for j in range(N):
            acc += v[i] * d[j]
        ref[i] = acc


@ti.kernel
def calc_shared():
    # d is read a block at a time into the block's tile, then used by all
    ti.loop_config(block_dim=block_dim)
    for i in range(N):
        tid = i % block_dim
        pad = ti.simt.block.SharedArray((block_dim,), ti.f32)
        acc = 0.0
        for k in range(n_blocks):
            pad[tid] = d[k * block_dim + tid]
            ti.simt.block.sync()
            for j in range(block_dim):
                acc += v[i] * pad[j]
            ti.simt.block.sync()
        a[i] = acc


v.from_numpy(np.arange(N, dtype=np.float32) % 7 - 3)
d.from_numpy(np.arange(N, dtype=np.float32) % 5 - 2)
calc()
calc_shared()
print("tiled product matches:", np.allclose(a.to_numpy(), ref.to_numpy()), a[5], a[100])

# Atomics on shared elements are atomic across the block.
out = ti.ndarray(ti.i32, 256)


@ti.kernel
def atomics(o: ti.types.ndarray()):
    ti.loop_config(block_dim=block_dim)
    for i in range(256):
        tid = i % block_dim
        s = ti.simt.block.SharedArray((block_dim,), ti.i32)
        f = ti.simt.block.SharedArray(block_dim, ti.f32)
        s[tid] = tid
        f[tid] = 0.5
        ti.simt.block.sync()
        s[0] += tid
        ti.atomic_max(s[1], tid * 3)
        f[0] += 1.0
        ti.simt.block.sync()
        o[i] = s[tid] + ti.cast(f[0], ti.i32) * 1000


atomics(out)
print("shared atomics:", out[0], out[1], out[2], out[32], out[255])

# Vector and matrix dtypes and 2-D shapes; ti.simt.block.thread_idx().
y = ti.Vector.field(4, ti.f32, shape=16)
tile = ti.field(ti.i32, shape=(4, 16))
z = ti.Vector.field(4, ti.f32, shape=64)


@ti.kernel
def compound():
    ti.loop_config(block_dim=16)
    for i in range(64):
        tid = i % 16
        m = ti.simt.block.SharedArray((16,), ti.math.vec4)
        g = ti.simt.block.SharedArray((4, 16), ti.i32)
        mm = ti.simt.block.SharedArray(2, ti.types.matrix(2, 2, ti.f32))
        m[tid] = ti.Vector([1.0, 2.0, 3.0, 4.0]) * (i // 16 + 1)
        g[i // 16, tid] = ti.simt.block.thread_idx()
        if tid < 2:
            mm[tid] = ti.Matrix([[tid, 1], [2, 3]])
        ti.simt.block.sync()
        y[tid] += m[(tid + 1) % 16]
        ti.simt.block.sync()
        m[tid][2] = -1.0
        m[tid][3] += 0.5
        ti.simt.block.sync()
        tile[i // 16, tid] = g[i // 16, 15 - tid] + ti.cast(mm[1][0, 0] + mm[0][1, 1] + m[15 - tid][2], ti.i32) * 100
        z[i] = m[15 - tid]


compound()
print("vec4 sums:", y[0], y[15])
print("2-D tile row 0:", tile.to_numpy()[0].tolist())
print("2-D tile row 3:", tile.to_numpy()[3][:4].tolist())
print("components written:", z[0], z[63])

# Every dtype: one word per element on the device (8/16-bit types too);
# atomics are native on 32/64-bit ints, compare-and-swap loops otherwise.
res = ti.field(ti.f64, shape=6)


@ti.kernel
def dtypes():
    ti.loop_config(block_dim=16)
    for i in range(16):
        a = ti.simt.block.SharedArray(16, ti.u32)
        b = ti.simt.block.SharedArray(16, ti.i64)
        c = ti.simt.block.SharedArray(16, ti.u8)
        h = ti.simt.block.SharedArray(16, ti.f16)
        e = ti.simt.block.SharedArray(17, ti.f64)
        s = ti.simt.block.SharedArray(4, ti.i16)
        a[i] = ti.u32(4000000000) + i
        b[i] = -(ti.i64(1) << 40) - i
        c[i] = ti.u8(250 + i % 4)
        h[i] = ti.f16(0.5 * i)
        e[i] = 1.0 / (i + 1)
        if i < 4:
            s[i] = ti.i16(-i)
        if i == 0:
            e[16] = 0.2  # shared memory starts undefined
        ti.simt.block.sync()
        ti.atomic_min(a[0], a[15 - i])
        b[1] += 1
        c[2] += 1  # u8 wraps, atomically
        h[3] += 0.25
        e[16] += e[i]
        s[i % 4] -= 1
        ti.simt.block.sync()
        if i == 0:
            res[0] = a[0]
            res[1] = b[1]
            res[2] = c[2]
            res[3] = h[3]
            res[4] = e[16]
            res[5] = s[0] + s[1] * 10 + s[2] * 100 + s[3] * 1000


dtypes()
print("u32 min, i64 add, u8 add, f16 add:", int(res[0]), int(res[1]), int(res[2]), res[3])
# (1.0 / (i + 1) is computed in f32, the default float, then stored as f64)
print("f64 sum ok:", abs(res[4] - (0.2 + sum(1.0 / (k + 1) for k in range(16)))) < 1e-6, "i16:", int(res[5]))
