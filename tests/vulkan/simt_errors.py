# What a program can get wrong with ti.simt is an error naming it, at its line.
import taichi as ti

ti.init(arch=ti.vulkan)
x = ti.field(ti.i32, shape=64)


def attempt(k):
    try:
        k()
    except Exception as e:
        print(type(e).__name__ + ":", e)


@ti.kernel
def outside_loop():
    pad = ti.simt.block.SharedArray((32,), ti.i32)
    pad[0] = 1


@ti.kernel
def bad_shape():
    for i in range(64):
        pad = ti.simt.block.SharedArray((32, 1.5), ti.i32)


@ti.kernel
def bad_dtype():
    for i in range(64):
        pad = ti.simt.block.SharedArray(32, 3)


@ti.kernel
def too_big():
    for i in range(64):
        pad = ti.simt.block.SharedArray((1 << 13, 1 << 13), ti.i32)


@ti.kernel
def too_much_memory():
    for i in range(64):
        pad = ti.simt.block.SharedArray((1 << 20,), ti.f64)
        pad[i] = 1.0


@ti.kernel
def wrong_rank():
    for i in range(64):
        pad = ti.simt.block.SharedArray((8, 8), ti.i32)
        pad[i] = 1


@ti.kernel
def float_index():
    for i in range(64):
        pad = ti.simt.block.SharedArray(64, ti.i32)
        pad[i * 0.5] = 1


@ti.kernel
def copied():
    for i in range(64):
        pad = ti.simt.block.SharedArray(64, ti.i32)
        x[i] = pad + 1


@ti.kernel
def stored():
    for i in range(64):
        pad = ti.simt.block.SharedArray(64, ti.i32)
        x[i] = pad


@ti.kernel
def reassigned():
    for i in range(64):
        pad = ti.simt.block.SharedArray(64, ti.i32)
        pad = 3


@ti.kernel
def scalar_component():
    for i in range(64):
        pad = ti.simt.block.SharedArray(64, ti.i32)
        pad[i][0] = 1


@ti.kernel
def vector_into_scalar():
    for i in range(64):
        pad = ti.simt.block.SharedArray(64, ti.i32)
        pad[i] = ti.Vector([1, 2])


@ti.kernel
def component_range():
    for i in range(64):
        pad = ti.simt.block.SharedArray(64, ti.math.vec3)
        pad[i][3] = 1.0


@ti.kernel
def cuda_only():
    for i in range(64):
        x[i] = ti.simt.block.sync_all_nonzero(1)


@ti.kernel
def warp_op():
    for i in range(64):
        x[i] = ti.simt.warp.shfl_sync_i32(ti.u32(0xFFFFFFFF), i, 0)


@ti.kernel
def float_xor():
    for i in range(64):
        x[i] = ti.cast(ti.simt.subgroup.reduce_xor(1.5), ti.i32)


@ti.kernel
def lane_type():
    for i in range(64):
        x[i] = ti.simt.subgroup.shuffle(i, 1.5)


@ti.kernel
def arity():
    for i in range(64):
        x[i] = ti.simt.subgroup.reduce_add()


for k in [outside_loop, bad_shape, bad_dtype, too_big, too_much_memory, wrong_rank, float_index, copied, stored, reassigned,
          scalar_component, vector_into_scalar, component_range, cuda_only, warp_op, float_xor, lane_type, arity]:
    attempt(k)
try:
    ti.simt.block.sync()
except RuntimeError as e:
    print("RuntimeError:", e)
