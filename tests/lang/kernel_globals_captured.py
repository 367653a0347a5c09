import taichi as ti
ti.init(arch=ti.cpu)
k = 3

@ti.kernel
def times() -> ti.i32:
    return 10 * k

print(times())
k = 5
print(times())
