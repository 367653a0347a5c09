# lavapipe ends every loop of a shader invocation after 65535 passes in all
# (Mesa's loop limiter). A serial task's top-level loops stop short of it and
# resume in the next dispatch (gpu/vulkan/codegen_resume.cpp), so count runs
# to the end; one pass of a top-level loop has half the limit to itself, and
# past that (a long loop inside an if) the kernel stops with an error
# instead of returning what the cut loops computed.
import taichi as ti

ti.init(arch=ti.vulkan)


@ti.kernel
def count(n: ti.i32) -> ti.i32:
    s = 0
    while s < n:
        s += 1
    return s


@ti.kernel
def count_in_if(n: ti.i32) -> ti.i32:
    s = 0
    if n > 0:
        while s < n:
            s += 1
    return s


print(count(1000), count(100000), count(1000000))
print(count_in_if(1000))
print(count_in_if(100000))
