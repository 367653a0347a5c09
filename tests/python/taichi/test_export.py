"""Zero-copy export (python/taichi/_export.py): the buffer protocol and
__dlpack__ on fields, ndarrays and their outer-axis slices (x[a:b])."""
import numpy as np
import pytest
import taichi as ti


@pytest.fixture(autouse=True)
def fresh():
    ti.init(arch=ti.cpu)


def test_field_buffer_is_its_memory():
    x = ti.field(ti.f32, shape=(4, 3))

    @ti.kernel
    def fill():
        for i, j in x:
            x[i, j] = i * 10 + j

    fill()
    m = memoryview(x)
    assert (m.format, m.shape, m.strides, m.readonly) == ("f", (4, 3), (12, 4), False)
    a = np.asarray(x)
    assert a[2, 1] == 21.0
    a[3, 2] = -5.0  # written through the buffer: the field sees it
    assert x[3, 2] == -5.0
    assert np.frombuffer(x, dtype=np.float32)[11] == -5.0  # PyBUF_SIMPLE: one C-order block


def test_outer_slices_are_views():
    x = ti.field(ti.i32, shape=(6, 2))
    x.fill(7)
    s = x[2:4]
    assert s.shape == (2, 2)
    v = np.asarray(s)
    v[:] = [[1, 2], [3, 4]]
    assert [x[2, 0], x[2, 1], x[3, 1], x[4, 0]] == [1, 2, 4, 7]
    assert np.from_dlpack(x[4:]).tolist() == [[7, 7], [7, 7]]
    assert memoryview(x[:1]).shape == (1, 2)
    assert x[3:3].shape == (0, 2)


def test_slices_use_the_fields_own_indices():
    x = ti.field(ti.f32, shape=(5,), offset=(-2,))
    for i in range(-2, 3):
        x[i] = i
    assert np.asarray(x[-2:0]).tolist() == [-2.0, -1.0]
    assert np.asarray(x[1:]).tolist() == [1.0, 2.0]
    with pytest.raises(IndexError, match=r"slice \[0:4\] is outside its outer axis \[-2:3\]"):
        x[0:4]


def test_vector_fields_and_slices():
    v = ti.Vector.field(3, ti.f64, shape=(4,))
    v[1] = (1, 2, 3)
    m = memoryview(v)
    assert (m.shape, m.format) == ((4, 3), "d")
    assert np.asarray(v[1:2]).tolist() == [[1.0, 2.0, 3.0]]
    np.asarray(v[3:4])[0, 2] = 9.0
    assert v[3][2] == 9.0


def test_ndarrays_and_slices():
    a = ti.ndarray(ti.f32, shape=(4, 2))
    np.asarray(a[1:3])[:] = 5.0
    assert a.to_numpy()[:, 0].tolist() == [0.0, 5.0, 5.0, 0.0]
    assert memoryview(a).shape == (4, 2)
    assert np.from_dlpack(a[3:]).shape == (1, 2)


def test_strided_layout_is_refused_where_a_block_is_needed():
    x = ti.field(ti.f32, shape=(4, 3), order="ji")  # column-major
    assert memoryview(x).strides == (4, 16)  # a consumer that takes strides is served
    with pytest.raises(BufferError, match=r"field 'x' of shape \(4, 3\) is not one row-major \(C\) block of memory: "
                                          r"its element strides are \(4, 16\) bytes"):
        np.frombuffer(x, dtype=np.float32)
    with pytest.raises(BufferError, match=r"field 'x' of shape \(4, 3\)\[1:3\] is not one row-major"):
        np.frombuffer(x[1:3], dtype=np.float32)


def test_bad_slices():
    x = ti.field(ti.f32, shape=(4, 4))
    with pytest.raises(IndexError, match="step 1"):
        x[0:4:2]
    with pytest.raises(IndexError, match=r"only a range of the outer axis can be sliced \(x\[a:b\]\)"):
        x[0:2, 1:3]
    with pytest.raises(IndexError, match=r"slice \[2:9\] is outside"):
        ti.Vector.field(2, ti.f32, shape=4)[2:9]


def test_sparse_fields_have_no_buffer():
    x = ti.field(ti.f32)
    ti.root.pointer(ti.i, 4).dense(ti.i, 4).place(x)
    with pytest.raises(ValueError, match="not one strided block of memory"):
        memoryview(x)
