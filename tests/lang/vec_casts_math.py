import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run():
    u = ti.Vector([2.3, 4.7, -1.5])
    print(int(u), ti.cast(u, ti.i32))
    print(ti.floor(u), ti.sqrt(ti.Vector([4.0, 9.0])))
    v = ti.Vector([1, 2]).cast(ti.f32) / 4
    print(v)

run()
