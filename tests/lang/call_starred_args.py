# f(*args) in a kernel: tuples, lists and vectors unpack into any call's
# arguments (intrinsics and ti.func alike), in order.
import taichi as ti
ti.init(arch=ti.cpu)


@ti.func
def add3(a, b, c):
    return a + b * 10 + c * 100


@ti.kernel
def k(s: ti.i32) -> ti.i32:
    a = ti.Vector([1, 2, 3])
    b = ti.Vector([4, s, 6])
    t = (7, 8)
    return ti.min(*a, *b) + ti.max(*a, *b) * 10 + add3(*t, 9) * 100 + add3(*[s, s], *[a[0]])


print(k(5))
print(k(9))
