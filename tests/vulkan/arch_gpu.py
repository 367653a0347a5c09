# ti.gpu picks CUDA where a device is, else a Vulkan GPU, else the CPU with a
# warning: lavapipe, a CPU implementation of Vulkan, is passed by (the JIT
# runs the same kernels faster). The ctest cli/arch_gpu checks with --stats
# where the kernels ran; cli/arch_gpu_strict runs it with
# enable_fallback=False (KILN_TEST_STRICT), which keeps ti.gpu on Vulkan.
import os

import taichi as ti

ti.init(arch=ti.gpu, enable_fallback=not os.environ.get("KILN_TEST_STRICT"))
x = ti.field(ti.f32, shape=8)


@ti.kernel
def fill() -> ti.f32:
    s = 0.0
    for i in x:
        x[i] = i * 0.5
        s += x[i]
    return s


print(fill(), x.to_numpy().tolist())
