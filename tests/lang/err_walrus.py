# `:=` in a kernel assigns as `=` does, with the same errors at the `:=`'s
# target: a kernel argument cannot be reassigned, a local keeps its shape, and
# a ti.static value is a compile-time name only when the name is new.
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=4)


@ti.kernel
def an_argument(n: ti.i32) -> ti.i32:
    return (n := n + 1) * 2


@ti.kernel
def a_vector_into_a_scalar():
    s = 0.0
    x[0] = (s := ti.Vector([1.0, 2.0])).sum()


@ti.kernel
def a_static_onto_a_local() -> ti.i32:
    k = 1
    for i in ti.static(range((k := ti.static(2)))):
        x[i] = 1.0
    return k


for f in (lambda: an_argument(1), a_vector_into_a_scalar):
    try:
        f()
        print("no error")
    except SyntaxError as e:
        print("SyntaxError:", str(e).splitlines()[0])
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])
a_static_onto_a_local()
