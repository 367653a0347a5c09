# lavapipe (Mesa's llvmpipe) ends the loops of one shader invocation after
# 65535 iterations in all; a kernel that needs more stops with an error
# instead of returning a truncated result.
import taichi as ti

ti.init(arch=ti.vulkan)


@ti.kernel
def count(n: ti.i32) -> ti.i32:
    s = 0
    while s < n:
        s += 1
    return s


print(count(1000))
print(count(100000))
