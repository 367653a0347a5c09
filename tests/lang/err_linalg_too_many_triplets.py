import taichi as ti
ti.init(arch=ti.cpu)
builder = ti.linalg.SparseMatrixBuilder(4, 4, max_num_triplets=5)


@ti.kernel
def fill(A: ti.types.sparse_matrix_builder()):
    for i, j in ti.ndrange(4, 4):
        A[i, j] += 1


fill(builder)
print(builder.num_triplets)
A = builder.build()
