import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=(4, 4))

def read(i, j):
    return x[i, j]

print(read(3, 3))
print(read(4, 0))
