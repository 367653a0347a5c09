# `a and b` / `a or b` give the operand that decided them (as Python and
# Taichi do), in the operands' promoted type, still short-circuiting;
# vector @ vector is their dot product; a ti.func recursing through a
# ti.template() number ends under ti.static; `A.n` works inside ti.static.
import taichi as ti
ti.init(arch=ti.cpu)
hits = ti.field(ti.i32, shape=())

@ti.func
def touch(v) -> ti.i32:
    hits[None] += 1
    return v

@ti.kernel
def ops(a: ti.i32, b: ti.i32) -> ti.i32:
    return (a and b) * 100 + (a or b)

@ti.kernel
def mixed(a: ti.i8, b: ti.i64) -> ti.i64:
    return (a and b) + (b or a) * 1000

@ti.kernel
def chain(a: ti.i32) -> ti.i32:
    return (a and touch(7) and touch(9)) + (a or touch(5))

@ti.kernel
def dot() -> ti.f32:
    u = ti.Vector([1.0, 2.0, 3.0])
    v = ti.Vector([4.0, 5.0, 6.0])
    return u @ v

@ti.func
def fib(n: ti.template()):
    r = 1
    if ti.static(n > 1):
        r = fib(n - 1) + fib(n - 2)
    return r

@ti.func
def last(m):
    return m[ti.static(m.n - 1)]

@ti.kernel
def statics() -> ti.i32:
    v = ti.Vector([3, 4, 5, 6])
    t = 0
    if ti.static(v.n == 4):
        t = last(v)
    return fib(10) * 10 + t

print(ops(3, 4), ops(0, 4), ops(3, 0), ops(0, 0))
print(mixed(2, 5000000000), mixed(0, 7))
print(chain(0), hits[None], chain(1), hits[None])
print(dot(), statics())
