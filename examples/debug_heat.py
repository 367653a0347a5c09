# A 1-D heat diffusion step, to step through with the debugger:
#   kiln debug examples/debug_heat.py            (interactive)
#   kiln debug examples/debug_heat.py < examples/debug_heat.cmds
import taichi as ti
ti.init(arch=ti.cpu, debug=True)

n = 16
t = ti.field(ti.f32, shape=n)
t_next = ti.field(ti.f32, shape=n)

@ti.func
def laplacian(i):
    left = t[i]
    right = t[i]
    if i > 0:
        left = t[i - 1]
    if i < n - 1:
        right = t[i + 1]
    return left - 2.0 * t[i] + right

@ti.kernel
def step(alpha: ti.f32):
    for i in t:
        d = laplacian(i)
        t_next[i] = t[i] + alpha * d

@ti.kernel
def swap():
    for i in t:
        t[i] = t_next[i]

t[n // 2] = 100.0
for it in range(3):
    step(0.25)
    swap()
print([round(t[i], 3) for i in range(6, 11)])
