import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def gcd(a: ti.i32, b: ti.i32) -> ti.i32:
    x = a
    y = b
    while y != 0:
        x, y = y, x % y
    return x

print(gcd(48, 18), gcd(17, 5), gcd(0, 9))
