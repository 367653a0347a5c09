import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def div(a: ti.i32, b: ti.i32) -> ti.i32:
    return a // b

print(div(7, 2))
print(div(7, 0))
