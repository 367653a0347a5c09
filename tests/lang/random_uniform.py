# ti.random(): f32 draws are uniform in [0, 1); mean 1/2, variance 1/12,
# and neighbouring iterations are uncorrelated.
import taichi as ti
ti.init(arch=ti.cpu, random_seed=1)

n = 200000
x = ti.field(ti.f32, shape=n)

@ti.kernel
def fill():
    for i in x:
        x[i] = ti.random()

@ti.kernel
def moments() -> ti.types.vector(5, ti.f64):
    s = ti.f64(0.0)
    s2 = ti.f64(0.0)
    c = ti.f64(0.0)
    lo = ti.f64(1.0)
    hi = ti.f64(0.0)
    for i in x:
        v = ti.cast(x[i], ti.f64)
        s += v
        s2 += v * v
        if i + 1 < n:
            c += (v - 0.5) * (ti.cast(x[i + 1], ti.f64) - 0.5)
        ti.atomic_min(lo, v)
        ti.atomic_max(hi, v)
    return ti.Vector([s / n, s2 / n - (s / n) ** 2, c / (n - 1), lo, hi])

fill()
m = moments()
print("mean ok:", abs(m[0] - 0.5) < 0.005)
print("variance ok:", abs(m[1] - 1.0 / 12) < 0.002)
print("uncorrelated:", abs(m[2]) < 0.002)
print("in [0, 1):", m[3] >= 0.0 and m[4] < 1.0)
print("spans it:", m[3] < 0.001 and m[4] > 0.999)
