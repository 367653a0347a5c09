# Recursive ti.real_func calls on the device run on a call stack of frames
# (gpu/vulkan/codegen_recursion.cpp), one region per invocation of the task.
# A serial task's holds the interpreter's 2000 levels
# (tests/lang/err_real_func_recursion_depth); a parallel loop's invocations
# share the device's stack window, so a function with a large frame may get
# fewer: past them the call is a RecursionError that says it is the GPU's
# limit, never a crash or a cut result.
import taichi as ti

ti.init(arch=ti.vulkan)

out = ti.field(ti.f32, shape=8)


@ti.real_func
def spread(n: ti.i32, x: ti.f32) -> ti.f32:
    a = x + 1
    b = a * 2
    c = b - 3
    d = c * a
    e = d + b
    f = e * c
    g = f - d
    h = g + a
    r = 0.0
    if n > 0:
        r = spread(n - 1, x * 0.5)
    return r + a + b + c + d + e + f + g + h


@ti.kernel
def run(n: ti.i32, levels: ti.i32):
    for i in range(n):
        out[i % 8] = spread(levels, i)


run(8, 10)
print(out.to_numpy().tolist())
run(8, 5000)
