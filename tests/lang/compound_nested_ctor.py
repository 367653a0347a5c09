# Matrix types built from nested lists, flat values, or rows of vectors.
import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def build() -> ti.math.mat2:
    a = ti.math.mat2([[1, 2], [3, 4]])
    b = ti.math.mat2(1, 2, 3, 4)
    c = ti.math.mat2([ti.math.vec2(1, 2), ti.math.vec2(3, 4)])
    print(a, b == a, c == a)
    return a @ b

print(build())
print(ti.math.mat2([[1, 2], [3, 4]]))
