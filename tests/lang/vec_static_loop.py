import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run() -> ti.i32:
    v = ti.Vector([1, 2, 3, 4])
    s = 0
    for k in ti.static(range(4)):
        s += v[k] * (k + 1)
    return s

print(run())
