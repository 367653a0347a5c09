# Kernel print of NaNs: 0.0 // 0.0 is a NaN, and so is everything multiplied
# by it; whichever sign the hardware leaves, print shows "nan" (kiln-fuzz
# seed 30006130 printed "-nan" on one engine and "nan" on the other).
import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def k() -> ti.f64:
    s = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(4):
        s *= ti.sqrt(ti.abs(s)) // s
        print(i, s)
    z = -s
    print(z, -z)
    return s


print(k())
