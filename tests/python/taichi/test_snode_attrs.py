"""Taichi's underscore spellings of field and SNode facts, which programs and
Taichi's own tests read: x._name, snode._name (a place SNode is named after its
field), snode._physical_index_position(), snode._cell_size_bytes."""
import taichi as ti


def _make_field():
    return ti.field(ti.i32, shape=4)  # no name here, none from an assignment


def test_names():
    ti.init(arch=ti.cpu)
    a = ti.field(ti.f32, shape=(2, 3), name="a")
    b = ti.field(ti.math.vec3, shape=(2, 3), name="b")
    s = ti.Struct.field({"p": ti.f32}, shape=2, name="s")
    named_by_assignment = ti.field(ti.i32, shape=4)  # Kiln names it after the variable
    unnamed = _make_field()
    assert (a._name, b._name, s._name) == ("a", "b", "s")
    assert a.snode._name == "a" and b.snode._name == "b"
    assert named_by_assignment._name == "named_by_assignment"
    assert unnamed.snode._name.endswith("place<i32>")  # no field name: the SNode's own ("S5place<i32>")
    assert a.snode.parent()._name.endswith("dense")


def test_cell_size_and_positions():
    ti.init(arch=ti.cpu)
    x = ti.field(ti.i32)
    ti.root.dense(ti.l, 3).dense(ti.ijk, 5).place(x)
    outer = x.snode.parent().parent()
    assert outer._cell_size_bytes == 4 * 5 ** 3  # one cell holds the whole inner block
    assert x.snode.parent()._cell_size_bytes == 4
    assert x.snode._physical_index_position() == x.snode.physical_index_position()
