import taichi as ti
ti.init(arch=ti.cpu)
s = ti.field(ti.i32, shape=())
mx = ti.field(ti.i32, shape=())
mn = ti.field(ti.i32, shape=())
f = ti.field(ti.f32, shape=())

@ti.kernel
def run():
    mn[None] = 1000
    for i in range(1000):
        ti.atomic_add(s[None], i)
        ti.atomic_max(mx[None], (i * 37) % 1000)
        ti.atomic_min(mn[None], (i * 37) % 1000 + 5)
        f[None] += 0.5

@ti.kernel
def old() -> ti.i32:
    return ti.atomic_add(s[None], 1)

run()
print(s[None], mx[None], mn[None], f[None])
print(old(), s[None])
