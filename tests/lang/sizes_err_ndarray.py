import taichi as ti
ti.init(arch=ti.cpu)
x = ti.ndarray(ti.f32, shape=10**12)
x.fill(1)
