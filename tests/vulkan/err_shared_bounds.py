# A shared array index out of its shape is an IndexError naming the array,
# the axis, the index and the shape, as for a field (memory safety holds on
# every engine).
import taichi as ti

ti.init(arch=ti.vulkan)
x = ti.field(ti.i32, shape=64)


@ti.kernel
def run(k: ti.i32):
    ti.loop_config(block_dim=32)
    for i in range(64):
        tile = ti.simt.block.SharedArray((4, 8), ti.i32)
        j = (i // 4) % 8
        if i == 37:
            j += k
        tile[i % 4, j] = i
        ti.simt.block.sync()
        x[i] = tile[i % 4, 0]


run(0)
print("in bounds:", x[0], x[3])
run(8)
