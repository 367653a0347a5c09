# Host-side ti.Vector arithmetic: Taichi keeps these as numpy arrays, so the
# results (and their printing) follow numpy's dtype rules.
import taichi as ti
ti.init(arch=ti.cpu)

a = ti.Vector([1, 2, 3])
b = ti.Vector([0.5, 1.5, -2.0])
print(a)
print(b)
print(a + b)
print(a * 2, a / 2, a // 2, a % 2)
print(-a, a ** 2, 2 - a)
print(1 / a)
print(a.dot(b), a.sum(), a.max(), b.min())
print(a.norm_sqr(), a.norm())
print(b.normalized())
print(a.cross(ti.Vector([4, 5, 6])))
print(ti.Vector([1, 2]).cross(ti.Vector([3, 4])))
print(a.outer_product(ti.Vector([1, -1])))
print(a > 1, a == ti.Vector([1, 0, 3]))
print(ti.Vector([0, 0, 1]).any(), ti.Vector([0, 0, 1]).all())

# element access, swizzles, length, iteration
print(a[0], a[-1], b.x, b.z)
print(a.zyx, b.xy)
a.x = 7
a.yz = [8, 9]
print(a, len(a), a.n, a.m)
total = 0
for e in a:
    total += e
print(total)

# f32 vectors stay f32
f = ti.Vector([1, 2], dt=ti.f32)
print(f, f / 3)
print(f * 0.5 + 1)
