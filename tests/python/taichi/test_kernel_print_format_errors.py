"""Errors of str.format in kernel prints, of format specs, of element stores
into local vectors and of vector sizes: each names the mistake (the frontend
is shared, so the built-in host reports the same messages)."""
import pytest

import taichi as ti


@pytest.fixture(autouse=True)
def cpu():
    ti.init(arch=ti.cpu)


def _fails(kernel, message, *args):
    with pytest.raises(Exception, match=message):
        kernel(*args)


def test_format_fields():
    @ti.kernel
    def single_close():
        print('a } b'.format())

    @ti.kernel
    def single_open():
        print('a { b'.format())

    @ti.kernel
    def nested():
        print('{:{}}'.format(1, 2))

    @ti.kernel
    def conversion():
        print('{!z}'.format(1))

    @ti.kernel
    def auto_then_manual():
        print('{} {1}'.format(1, 2))

    @ti.kernel
    def manual_then_auto():
        print('{0} {}'.format(1, 2))

    @ti.kernel
    def not_a_field():
        print('{1x}'.format(1))

    _fails(single_close, "Single '}' encountered in format string")
    _fails(single_open, "Single '{' encountered in format string")
    _fails(nested, "nested replacement fields in a format spec are not supported in kernels")
    _fails(conversion, "Unknown conversion specifier z in format string")
    _fails(auto_then_manual, "cannot switch from automatic field numbering to manual field specification")
    _fails(manual_then_auto, "cannot switch from manual field specification to automatic field numbering")
    _fails(not_a_field, "the field '1x' is not an index or a name")


def test_format_arguments():
    @ti.kernel
    def missing_name(k: ti.i32):
        print('{k} {j}'.format(k=k))

    @ti.kernel
    def unused_keyword(k: ti.i32):
        print('{}'.format(k, j=2))

    @ti.kernel
    def starred():
        print('{}'.format(*(1, 2)))

    @ti.kernel
    def double_starred():
        print('{a}'.format(**{'a': 1}))

    _fails(missing_name, "'j': the format string names an argument the call does not give", 1)
    _fails(unused_keyword, "keyword argument 'j' is not used by the format string", 1)
    _fails(starred, r"\*args in str.format\(\) is not supported in kernels")
    _fails(double_starred, r"\*\*kwargs in str.format\(\) is not supported in kernels")


def test_format_spec_suits_the_value():
    @ti.kernel
    def unsigned_spec(i: ti.i32):
        print(f'{i:u}')

    @ti.kernel
    def int_spec_on_float(x: ti.f32):
        print('{:i}'.format(x))

    @ti.kernel
    def hex_on_float(x: ti.f32):
        print(f'{x:x}')

    _fails(unsigned_spec, "format spec 'u' does not suit a value of type i32", 1)
    _fails(int_spec_on_float, "format spec 'i' does not suit a value of type f32", 1.0)
    @ti.kernel
    def float_spec_on_int(i: ti.i32):
        print('{:.2e}'.format(ti.Vector([i, i])))

    _fails(hex_on_float, "format spec 'x' does not suit a value of type f32", 1.0)
    _fails(float_spec_on_int, "format spec '.2e' does not suit a value of type i32", 1)


def test_element_stores_into_local_vectors():
    @ti.kernel
    def out_of_range():
        v = ti.Vector([1, 2, 3])
        v[3] = 0

    @ti.kernel
    def one_index_into_matrix():
        m = ti.Matrix([[1, 2], [3, 4]])
        m[0] = 5

    @ti.kernel
    def vector_into_element():
        v = ti.Vector([1, 2, 3])
        v[0] = ti.Vector([1, 2])

    _fails(out_of_range, "index out of range for a 3-vector")
    _fails(one_index_into_matrix, "assigning into a 2x2 matrix needs 2 indices")
    _fails(vector_into_element, "cannot store a 2-vector into one element")


def test_vector_sizes():
    with pytest.raises(ValueError, match="a vector has 1 to 4096 components, got 5000"):
        ti.types.vector(5000, ti.f32)
    with pytest.raises(ValueError, match="a matrix has 1 to 4096 components, got 70 x 70"):
        ti.types.matrix(70, 70, ti.f32)

    @ti.kernel
    def built_in_kernel() -> ti.f32:
        v = ti.Vector([ti.f32(i) for i in ti.static(range(4097))])
        return v[0]

    _fails(built_in_kernel, "a vector has 1 to 4096 components, got 4097")
