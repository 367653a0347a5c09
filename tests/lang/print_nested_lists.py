# Lists and tuples in a kernel's print, nested as the program writes them
# (Taichi prints both with brackets at every level).
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.Matrix.field(2, 3, dtype=ti.f32, shape=(2, 3))
y = ti.Vector.field(3, dtype=ti.f32, shape=())


@ti.kernel
def func(k: ti.f32):
    w = [k, x.shape]
    print(w + [y.n])
    print(x.shape)
    z = (1,)
    print([1, k * 2, k + 1])
    print(z)
    print([y[None], z])
    print([])


y[None] = [1, 2, 3]
func(1.5)
