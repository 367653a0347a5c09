# assert under debug=True on the device: AssertionError with the message's
# arguments formatted as on the CPU.
import taichi as ti

ti.init(arch=ti.vulkan, debug=True)
x = ti.field(ti.f32, shape=4)


@ti.kernel
def check(limit: ti.f32):
    for i in x:
        x[i] = i * 1.5
        assert x[i] < limit, "value too big"


check(10.0)
print(x.to_numpy())
check(4.0)
