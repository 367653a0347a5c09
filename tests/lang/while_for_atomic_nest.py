# A parallel loop around a while loop around a counted loop whose trip
# count depends on the outer index, with atomics in the innermost body:
# every increment must happen exactly once on every engine (the JIT records
# side traces that start in the middle of the inner loop).
import taichi as ti

ti.init(arch=ti.cpu)
N = 22
acc = ti.field(ti.i64, shape=N)
hist = ti.field(ti.i64, shape=4)


@ti.kernel
def nest():
    for i in range(N):
        w = 0
        while w < 5:
            w += 1
            for j in range(0, i * i):
                acc[i] += 1
                ti.atomic_add(hist[j % 4], ~ti.i64(w))


nest()
print([acc[i] - 5 * i * i for i in range(N)])
print(hist.to_numpy())
