import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def add(a: ti.i32, b) -> ti.i32:
    return a + b

print("calling")
print(add(1, 2))
