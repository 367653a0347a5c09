# Field elements an inner loop updates at fixed indices (`force[i] += f` over
# j, Taichi's n-body example) are kept in a local across the loop
# (vm/ir/passes/promote_elements.cpp): every engine prints the interpreter's
# values, with fast_math's split sums on the promoted sums, and the bounds
# errors of the loop as written.
import taichi as ti

ti.init(arch=ti.cpu)

N = 37
pos = ti.Vector.field(2, ti.f32, N)
force = ti.Vector.field(2, ti.f32, N)
count = ti.field(ti.i32, N)
wide = ti.field(ti.i64, N)
total = ti.field(ti.f64, ())
grid = ti.field(ti.f32, (8, 8))
x = ti.field(ti.f32, N)


@ti.kernel
def init():
    for i in range(N):
        pos[i] = ti.Vector([(i * 37 % 11) * 0.37 - 2.0, (i * 13 % 7) * 0.61 - 1.5])
        x[i] = i * 0.25 - 3.0


@ti.kernel
def nbody(eps: ti.f32):
    for i in range(N):
        force[i] = [0.0, 0.0]
    for i in range(N):
        p = pos[i]
        for j in range(N):
            if i != j:
                # the example's (1 / r) ** 3 with r a sqrt: Vulkan (lavapipe)
                # rounds sqrt and / its own way, so a polynomial here
                diff = p - pos[j]
                force[i] += -(diff.norm_sqr() + eps) * diff


@ti.kernel
def counts(lo: ti.i32, hi: ti.i32):
    # integer updates, a range that may be empty, a while loop with a break
    for i in range(N):
        count[i] = 0
        wide[i] = i
        for j in range(lo, hi):
            if (i * j) % 3 == 1:
                count[i] += 1
            wide[i] = wide[i] * 3 + j
        k = 0
        while True:
            if k >= i % 7:
                break
            count[i] += k
            k += 1


@ti.kernel
def rows():
    # grid[i, j] over k: each (i, j) of the ndrange owns its element
    for i, j in ti.ndrange(8, 8):
        grid[i, j] = 0.0
        for k in range(N):
            grid[i, j] += x[k] * (i - j)


@ti.kernel
def serial_total():
    # a serial task (no other thread): a 0-d field updated in a loop
    ti.loop_config(serialize=True)
    for i in range(1):
        total[None] = 0.0
        for k in range(N):
            total[None] = total[None] + x[k] * x[k] + 0.1


@ti.kernel
def reads_other():
    # x[i] stored while x[j] is read: j can be i, nothing is promoted.
    # Iteration i reads x[(5 * i) % N], which another iteration writes: in
    # order, as the interpreter runs it (a parallel loop's result would
    # depend on the schedule: a GPU's threads run it in another order).
    ti.loop_config(serialize=True)
    for i in range(N):
        for j in range(N):
            if j == (i * 5) % N:
                x[i] = x[i] + x[j] * 0.5


@ti.kernel
def never(k: ti.i32):
    # the update never runs: its index out of bounds raises nothing
    for i in range(N):
        for j in range(N):
            if j > N:
                x[i + k] += 1.0


@ti.kernel
def reached(k: ti.i32):
    # the update runs: the bounds error of the loop as written
    for i in range(N):
        for j in range(N):
            if j == 3:
                x[i + k] += 1.0


init()
nbody(1e-3)
for i in [0, 1, 17, N - 1]:
    print("force", i, force[i][0], force[i][1])
counts(0, 6)
print("counts", [count[i] for i in range(N)])
print("wide", [wide[i] for i in range(0, N, 6)])
counts(4, 2)
print("empty range", [count[i] for i in range(10)], wide[9])
rows()
print("rows", grid[0, 7], grid[7, 0], grid[3, 3], grid[5, 2])
serial_total()
print("total", total[None])
reads_other()
print("reads_other", [x[i] for i in range(0, N, 5)])
never(N)
print("never", x[0], x[N - 1])
reached(0)
print("reached", x[0], x[N - 1])
reached(1)
print("unreachable")
