# Arithmetic on two host numbers inside a kernel is Python's (as Taichi
# evaluates it before building the kernel): 10 ** 10 does not wrap at 32 bits,
# and the literal it makes is typed where it is used.
import taichi as ti
ti.init(arch=ti.cpu)
n = 3
big = ti.field(ti.u64, shape=3)
small = ti.field(ti.f32, shape=2)


@ti.kernel
def k():
    big[0] = ti.u64(10 ** 10)
    big[1] = ti.u64(1 << 40) + n * 2
    big[2] = 2 * ti.u64(2 ** 33)
    small[0] = 7 // 2 + 1 / 4
    small[1] = (-7) % 3 + 2.0 ** -1


k()
print(big.to_numpy(), small.to_numpy())
