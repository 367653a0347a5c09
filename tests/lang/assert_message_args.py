# An assert's message with the kernel's values: 'format' % args and f-strings,
# formatted when the assert fails (as Taichi does, under debug=True).
import taichi as ti
ti.init(arch=ti.cpu, debug=True)
x = ti.field(ti.i32, shape=16)
x[10] = 42


@ti.kernel
def percent():
    for i in x:
        assert x[i] == 0, "x[%d] expect=%d got=%d" % (i, 0, x[i])


@ti.kernel
def fstring(y: ti.f32):
    n = 3
    assert y < 0, f"y = {y}, n = {n}, {100}% sure, k = {ti.static(7)}, {'text'}"


@ti.kernel
def single(y: ti.f64):
    assert y < 0, "  y is %.2f  " % y


@ti.kernel
def vector_arg():
    v = ti.Vector([1.0, 2.0, 3.0])
    assert v[0] < 0, "v = %f" % v


for f in (percent, lambda: fstring(0.5), lambda: single(2.5)):
    try:
        f()
        print("no error")
    except AssertionError as e:
        print("AssertionError:", str(e).splitlines()[0])
try:
    vector_arg()
except TypeError as e:  # a compile-time error: the message's values are scalars
    print("TypeError:", str(e).splitlines()[0])
x[10] = 0
percent()
print("all zero")
