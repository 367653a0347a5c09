import taichi as ti
ti.init(arch=ti.cpu)
m = ti.Matrix([[1, 2], [3, 4]])
print(m @ ti.Vector([1, 2]))
print(m @ ti.Vector([1, 2, 3]))
