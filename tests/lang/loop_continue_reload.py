# A value loaded in one branch of an inner loop and carried to the next
# iteration (the JIT once lost the address computation of that load).
import taichi as ti
ti.init(arch=ti.cpu)
fb = ti.field(ti.f32, shape=4)
fd = ti.field(ti.f64, shape=4)

@ti.kernel
def k():
    for i in fb:
        v = ti.f64(0.0)
        for j in range(2, 6):
            if fb[i] == 22.625:
                if v >= v:
                    continue
            else:
                v = fd[i]

k()
print(fd[0])
