import taichi as ti
ti.init(arch=ti.cpu)

m = ti.Matrix.field(2, 2, dtype=ti.f32, shape=())
v = ti.Vector.field(3, dtype=ti.i32, shape=2)


@ti.kernel
def show(k: ti.f32, n: ti.i32):
    m[None] = [[1.0, -2.0], [3.5, 4.0]]
    v[1] = [n, n + 1, n + 2]
    print('{} abc'.format(123))
    print('{} {} {}'.format(1, 2, 3))
    print('{} {name} {value}'.format(k, name=999, value=n))
    print('{1}-{0}|{1}'.format(n, k))
    print('{:.3f} {:5d}| {{braces}}'.format(k, n))
    print('matrix {} vector {}'.format(m[None], v[1] * 2))
    print('half {h:.2f}'.format(h=k / 2), 'and', n, sep=' ~ ')


show(233.25, 7)
