# ti.gpu picks CUDA where a device is, else Vulkan (here lavapipe), else the
# CPU with a warning (issue 21). The ctest cli/arch_gpu checks with --stats
# that the kernels ran on Vulkan.
import taichi as ti

ti.init(arch=ti.gpu)
x = ti.field(ti.f32, shape=8)


@ti.kernel
def fill() -> ti.f32:
    s = 0.0
    for i in x:
        x[i] = i * 0.5
        s += x[i]
    return s


print(fill(), x.to_numpy().tolist())
