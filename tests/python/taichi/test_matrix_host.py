"""Python-scope matrix arithmetic as Taichi has it: operators run on the
matrices' values as numpy does, so shapes that differ broadcast (a vec2 against
a 2x2 matrix applies to each row) and shapes that cannot broadcast are a
ValueError naming both."""
import pytest

import taichi as ti


def test_same_shape_elementwise():
    a = ti.Vector([1, 2])
    assert (a + ti.Vector([10, 20])).to_list() == [11, 22]
    assert (a == [1, 3]).to_list() == [True, False]


def test_broadcast_like_numpy():
    v = ti.Vector([1, 2])
    m = ti.Matrix([[1, 2], [3, 4]])
    assert (v + m).to_list() == [[2, 4], [4, 6]]
    assert (m - v).to_list() == [[0, 0], [2, 2]]
    assert (v == m).to_list() == [[True, True], [False, False]]
    # Taichi's test_ad_vector_arg compares a vec2 with a list of two vec2s
    assert (v == [v, v * 2]).to_list() == [[True, True], [False, False]]


def test_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError, match=r"shapes \(3,\) and \(2, 2\) do not match"):
        ti.Vector([1, 2, 3]) + ti.Matrix([[1, 2], [3, 4]])
