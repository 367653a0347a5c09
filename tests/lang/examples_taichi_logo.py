# taichi.examples.patterns.taichi_logo, as Taichi's examples draw it
# (rendering/taichi_logo.py, features/sparse/taichi_sparse.py): the logo at
# 24 x 24 points, its dark parts '#', and the count of light points of a
# 256 x 256 image at the default scale and at scale 1.
import taichi as ti
from taichi.examples.patterns import taichi_logo

ti.init(arch=ti.cpu)

n = 24
img = ti.field(ti.i32, shape=(n, n))
big = ti.field(ti.i32, shape=(256, 256))


@ti.kernel
def draw():
    for i, j in img:
        img[i, j] = taichi_logo(ti.Vector([i, j]) / n)


@ti.kernel
def light_points(scale: ti.f32) -> ti.i32:
    count = 0
    for i, j in big:
        if taichi_logo(ti.Vector([i, j]) / 256, scale) == 1:
            count += 1
    return count


draw()
a = img.to_numpy()
for j in reversed(range(n)):
    print("".join(".#"[1 - a[i, j]] for i in range(n)))
print(light_points(1 / 1.11), light_points(1.0))
