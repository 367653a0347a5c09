# order= on vector, matrix and struct fields (as on ti.field): the axes
# outermost first in memory, components together (apart with Layout.SOA); a
# bad order is a ValueError.
import taichi as ti
ti.init(arch=ti.cpu)
v = ti.Vector.field(3, dtype=ti.f32, shape=(4, 3), order="ji")
w = ti.Vector.field(2, dtype=ti.f32, shape=(4, 3), order="ji", layout=ti.Layout.SOA)
m = ti.Matrix.field(2, 2, dtype=ti.i32, shape=(2, 3), order='ji')
s = ti.Struct.field({'a': ti.i32, 'b': ti.f32}, shape=(2, 3), order='ji')
one = ti.Vector.field(2, dtype=ti.i32, shape=5, order='i')
shifted = ti.field(ti.i32, shape=(4, 3), order='ji', offset=(-2, 1))  # order keeps the offset
shifted_v = ti.Vector.field(2, dtype=ti.i32, shape=(4, 3), order='ji', offset=(-2, 1))


@ti.kernel
def fill():
    for i, j in v:
        v[i, j] = [i, j, i * 10 + j]
    for i, j in m:
        m[i, j] = [[i, j], [j, i]]
    for i, j in s:
        s[i, j].a = i * 10 + j
        s[i, j].b = i + j * 0.5
    for i in one:
        one[i] = [i, -i]
    for i, j in w:
        w[i, j] = [i * j, i - j]
    for i, j in shifted:
        shifted[i, j] = i * 10 + j
        shifted_v[i, j] = [i, j]


fill()
print(v[3, 2], m[1, 2], s[1, 2].a, s[1, 2].b, one[4], w[3, 2])
print(v.snode.physical_index_position(), s.a.snode.physical_index_position(), v.shape, s.shape)
print(w.get_scalar_field(1).snode.physical_index_position())
print(shifted[-2, 1], shifted[1, 3], shifted_v[-1, 2], shifted.to_numpy()[0].tolist())
print(v.to_numpy()[:, 1, 2])
for shape, order in [(3, 'ij'), (None, 'i'), ((3, 4, 3), 'iii'), ((3, 4, 3), 'ihj'), ((3, 4), ['j', 'i'])]:
    try:
        ti.Vector.field(3, dtype=ti.f32, shape=shape, order=order)
        print("accepted", order)
    except (ValueError, TypeError) as e:
        print(type(e).__name__ + ":", e)
