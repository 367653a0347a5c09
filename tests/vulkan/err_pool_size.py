# Pointer and dynamic SNodes on Vulkan take their blocks from device pools in
# the tree's buffer, which shaders address in u32 bytes (at most 2 GiB a
# tree). The pages are committed on first touch, so a pool may be reserved far
# larger than a program uses; pools that could need more than the window share
# it in proportion to their need. Here a 4 MiB block per pointer cell: about
# 500 fit, and the activation that needs one more is a MemoryError naming the
# SNode and the pool's capacity, raised after the launch, not a crash.
import taichi as ti

ti.init(arch=ti.vulkan)

x = ti.field(ti.f32)
ti.root.pointer(ti.i, 1024).dense(ti.i, 1 << 20).place(x)


@ti.kernel
def touch(n: ti.i32):
    for k in range(n):
        x[k << 20] = k + 1.0


@ti.kernel
def total() -> ti.f32:
    s = 0.0
    for k in range(1024):
        s += x[k << 20]
    return s


touch(400)
print(total())
touch(1024)
