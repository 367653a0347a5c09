import taichi as ti
ti.init(arch=ti.cpu)
# A vector has 1 to 4096 components: -1 is a clear error, not a crash.
x = ti.Vector.field(-1, ti.f32, shape=4)
x.fill(1)
