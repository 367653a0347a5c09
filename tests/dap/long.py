import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def spin(n: ti.i32) -> ti.i32:
    s = 0
    for i in range(n):
        s += i % 7
    return s

print("started")
print(spin(100000000))
