# IEEE results of division and % on the device: by a zero (inf, -inf, NaN as
# on the CPU engines) and % by an infinite divisor, which is the dividend
# (lavapipe's f64 OpFRem is x - y * trunc(x / y): it gave NaN). The zero comes
# in as an argument: Mesa 22's lavapipe folds x / 0.0 and 0.0 * x with fast
# math rules when it can prove the zero a constant (not fixed here).
import taichi as ti

ti.init(arch=ti.vulkan)
out64 = ti.field(ti.f64, shape=8)
out32 = ti.field(ti.f32, shape=8)


@ti.kernel
def by_zero(x: ti.f64, z: ti.f64):
    out64[0] = x / z
    out64[1] = -x / z
    out64[2] = x // z
    out64[3] = x % z
    y = ti.f32(x)
    z32 = ti.f32(z)
    out32[0] = y / z32
    out32[1] = -y / z32
    out32[2] = y // z32
    out32[3] = y % z32


@ti.kernel
def by_inf(x: ti.f64, inf: ti.f64):
    out64[4] = x % inf
    out64[5] = -x % inf
    out32[4] = ti.f32(x) % ti.f32(inf)
    out32[5] = -ti.f32(x) % ti.f32(inf)


by_zero(3.0, 0.0)
by_inf(5.0, float("inf"))
print(out64.to_numpy()[:6].tolist())
print(out32.to_numpy()[:6].tolist())
