# A loop whose trip count is known only at run time keeps its carried local on
# a tape of ad_stack_size values in the gradient kernel; more iterations than
# that is a RuntimeError at the push, on every engine (never a write past the
# tape).
import taichi as ti

ti.init(arch=ti.cpu, ad_stack_size=4)
x = ti.field(ti.f32, shape=2, needs_grad=True)
y = ti.field(ti.f32, shape=2, needs_grad=True)
n = ti.field(ti.i32, shape=())


@ti.kernel
def f():
    for i in x:
        p = x[i]
        for _ in range(n[None]):
            p = ti.sin(p) * 0.5 + x[i]
        y[i] = p


x[0] = 0.5
x[1] = 0.25
n[None] = 3
f()
y.grad.fill(1)
f.grad()
print(round(x.grad[0], 4), round(x.grad[1], 4))
n[None] = 10
f.grad()
print("not reached")
