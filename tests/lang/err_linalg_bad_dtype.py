import taichi as ti
ti.init(arch=ti.cpu)
builder = ti.linalg.SparseMatrixBuilder(2, 2, max_num_triplets=4, dtype=ti.i32)
