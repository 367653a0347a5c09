# Assigning into a list in a kernel: the index is a compile-time integer in
# range, the element a run-time value (not a field), the value of its shape.
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=4)


@ti.kernel
def runtime_index(i: ti.i32):
    xs = [1, 2, 3]
    xs[i] = 0


@ti.kernel
def out_of_range():
    xs = [1, 2, 3]
    xs[3] = 0


@ti.kernel
def a_field():
    fs = [x, 1]
    fs[0] = 2


@ti.kernel
def wrong_shape():
    vs = [ti.Vector([1.0, 2.0]), 3.0]
    vs[0] = 1.5 * vs[1] + ti.Vector([1.0, 2.0, 3.0])


@ti.kernel
def a_list_into_an_element():
    xs = [1, 2]
    xs[0] = [3, 4]


@ti.kernel
def a_tuple(c: ti.i32) -> ti.i32:
    t = (c, 2)
    t[0] = 5
    return t[0]


for f in (lambda: runtime_index(1), out_of_range, a_field, wrong_shape, a_list_into_an_element):
    try:
        f()
        print("no error")
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])
    except IndexError as e:
        print("IndexError:", str(e).splitlines()[0])
a_tuple(1)
