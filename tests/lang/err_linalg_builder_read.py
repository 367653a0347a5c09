import taichi as ti
ti.init(arch=ti.cpu)
builder = ti.linalg.SparseMatrixBuilder(2, 2, max_num_triplets=4)


@ti.kernel
def peek(A: ti.types.sparse_matrix_builder()) -> ti.f32:
    return A[0, 0]


print(peek(builder))
