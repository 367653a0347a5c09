# As in Taichi: rounding and trigonometry take real values (a host number is
# computed as a float, an integer value in the kernel is an error).
import taichi as ti
ti.init(arch=ti.cpu)


@ti.kernel
def ok() -> ti.f32:
    return ti.floor(3) + ti.sin(0)


@ti.kernel
def bad(a: ti.i32) -> ti.f32:
    return ti.floor(a)


print(ok())
print(bad(3))
