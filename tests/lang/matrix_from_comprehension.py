import taichi as ti

ti.init(arch=ti.cpu)

x = ti.Vector.field(3, ti.f32, shape=4)
verts = ti.field(ti.i32, shape=4)


@ti.kernel
def edges() -> ti.types.matrix(3, 3, ti.f32):
    # the columns are the edge vectors from the last vertex, as Taichi's implicit_fem builds D_s
    return ti.Matrix.cols([x[verts[i]] - x[verts[3]] for i in range(3)])


@ti.kernel
def rows() -> ti.types.matrix(2, 3, ti.f32):
    return ti.Matrix.rows([[float(i + j) for j in range(3)] for i in range(2)])


@ti.kernel
def vec() -> ti.types.vector(3, ti.f32):
    return ti.Matrix([float(i) * 2 for i in range(3)])  # scalars: a vector


for k in range(4):
    x[k] = [k, k * k, 1.0]
    verts[k] = 3 - k
print(edges())
print(rows())
print(vec())
