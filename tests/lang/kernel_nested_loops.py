import taichi as ti
ti.init(arch=ti.cpu)
out = ti.field(ti.i32, shape=6)

@ti.kernel
def tri():
    for i in range(6):
        s = 0
        for j in range(i + 1):
            s += j
        out[i] = s

tri()
print([out[i] for i in range(6)])
