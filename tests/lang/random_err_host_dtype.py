import taichi as ti
ti.init(arch=ti.cpu)
print(ti.random(ti.i32) != 0.5)
print(ti.random(ti.i8))
