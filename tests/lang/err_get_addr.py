# ti.get_addr's errors: what it takes (a field or its SNode, and the field's
# indices; a vector field's component by compile-time indices), each a
# Python exception at the call; the last one uncaught.
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=(4, 4))
v = ti.Vector.field(3, ti.f32, shape=4)
q = ti.types.quant.int(bits=4, signed=False)
packed = ti.field(dtype=q)
bits = ti.BitpackedFields(max_num_bits=32)
bits.place(packed)
ti.root.dense(ti.i, 4).place(bits)


@ti.kernel
def one_argument() -> ti.u64:
    return ti.get_addr(x)


@ti.kernel
def not_a_field() -> ti.u64:
    return ti.get_addr(3, [0, 0])


@ti.kernel
def an_ndarray(a: ti.types.ndarray(dtype=ti.f32, ndim=1)) -> ti.u64:
    return ti.get_addr(a, [0])


@ti.kernel
def quantized() -> ti.u64:
    return ti.get_addr(packed, 1)


@ti.kernel
def out_of_range() -> ti.u64:
    return ti.get_addr(x, [1, 4])


@ti.kernel
def no_component() -> ti.u64:
    return ti.get_addr(v.get_scalar_field(3), 0)


@ti.kernel
def component_count() -> ti.u64:
    return ti.get_addr(v.get_scalar_field(0, 1), 0)


@ti.kernel
def component_at_run_time(j: ti.i32) -> ti.u64:
    return ti.get_addr(v.get_scalar_field(j), 0)


@ti.kernel
def component_not_an_int() -> ti.u64:
    return ti.get_addr(v.get_scalar_field(1.0), 0)


@ti.kernel
def wrong_count() -> ti.u64:
    return ti.get_addr(x, [1])


for f in (one_argument, not_a_field, lambda: an_ndarray(ti.ndarray(ti.f32, 2)), quantized, component_count,
          lambda: component_at_run_time(1), component_not_an_int):
    try:
        f()
        print("no error")
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])
for f in (out_of_range, no_component):
    try:
        f()
        print("no error")
    except IndexError as e:
        print("IndexError:", str(e).splitlines()[0])
wrong_count()
