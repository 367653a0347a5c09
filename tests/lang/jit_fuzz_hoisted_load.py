# Found by kiln-fuzz: under the JIT (every loop compiled), the inner loop's trace
# hoists the address of fd[i] out of the loop; the backend once emitted no code
# for that address and loaded through an unwritten spill slot (segfault).
import taichi as ti
ti.init(arch=ti.cpu)
fb = ti.field(ti.f32, shape=4)
fd = ti.field(ti.f64, shape=4)
out = ti.field(ti.f64, shape=4)

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

@ti.kernel
def k2():
    for i in fb:
        v = ti.f64(0.0)
        for j in range(2, 6):
            if fb[i] == 22.625:
                if v >= v:
                    continue
            else:
                v = fd[i] + j
        out[i] = v

for i in range(4):
    fb[i] = 22.625 if i == 2 else i * 0.5
    fd[i] = i * 1.25
k()
k2()
print(fd[0], fd[3])
print(out[0], out[1], out[2], out[3])
