# Monte Carlo estimate of pi with two draws per iteration.
import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def estimate(n: ti.i32) -> ti.f32:
    hits = 0
    for i in range(n):
        x = ti.random()
        y = ti.random()
        if x * x + y * y < 1.0:
            hits += 1
    return 4.0 * hits / n

pi = estimate(400000)
print(abs(pi - 3.14159) < 0.02)
# Two launches draw different numbers.
print(estimate(1000) != estimate(1000) or estimate(1000) != estimate(1000))
