import taichi as ti
ti.init(arch=ti.cpu)
v = ti.Vector([1, 2])
print(v.y)
print(v.z)
