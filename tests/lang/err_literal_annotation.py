import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def ok() -> ti.f32:
    return ti.f32(1.5) + ti.cast(2, ti.f32) + float(1)


@ti.kernel
def bad() -> ti.f32:
    return ti.f32(2)


print(ok())
print(bad())
