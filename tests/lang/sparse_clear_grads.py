# ti.ad.clear_all_gradients() on sparse fields: the active gradients become
# zero, the primal is untouched and nothing is activated.
import taichi as ti
ti.init(arch=ti.cpu)
g = ti.field(ti.f32, needs_grad=True)
blk = ti.root.pointer(ti.i, 4)
blk.dense(ti.i, 2).place(g, g.grad)
h = ti.field(ti.f64, needs_grad=True)
ti.root.dense(ti.i, 2).bitmasked(ti.i, 4).place(h, h.grad)


@ti.kernel
def setup():
    g[5] = 1.5
    g.grad[5] = 3.0
    h[6] = 2.0
    h.grad[6] = -4.0


@ti.kernel
def active() -> ti.i32:
    n = 0
    for b in blk:
        n += 1
    for i in h:
        n += 10
    return n


setup()
print(g.grad.to_numpy().tolist(), h.grad.to_numpy().tolist(), active())
ti.ad.clear_all_gradients()
print(g.grad.to_numpy().tolist(), g.to_numpy().tolist())
print(h.grad.to_numpy().tolist(), h.to_numpy().tolist(), active())
