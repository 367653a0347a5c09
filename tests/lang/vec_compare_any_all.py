import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run():
    a = ti.Vector([1, 5, 3])
    b = ti.Vector([2, 2, 3])
    print(a < b, a == b)
    print((a > 0).all(), (a > 4).any(), (a > 9).any())
    print(ti.max(a, b), ti.min(a, 2), abs(ti.Vector([-1, 2])))

run()
