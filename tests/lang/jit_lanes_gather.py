# The JIT's vector loops gather loads from fields of vectors (pos[j].x is 12
# bytes from pos[j + 1].x) and keep fast_math's split sums in lanes: an
# all-pairs n-body step whose inner loop runs 8 bodies at a time. Every
# engine prints the interpreter's bits.
import taichi as ti

ti.init(arch=ti.cpu, cpu_max_num_threads=1)
N = 203
pos = ti.Vector.field(3, ti.f32, shape=N)
acc = ti.Vector.field(3, ti.f32, shape=N)


@ti.kernel
def init():
    for i in pos:
        pos[i] = ti.math.vec3((i * 37 % 101) * 0.1, (i * 53 % 103) * 0.1, (i * 71 % 107) * 0.1)


@ti.kernel
def step():
    for i in range(N):
        p = pos[i]
        a = ti.math.vec3(0.0)
        for j in range(i % 5, N):  # the vector loop starts where the trace does
            d = pos[j] - p
            r2 = d.dot(d) + 0.01
            inv = 1.0 / ti.sqrt(r2)
            a += d * (inv * inv * inv)
        acc[i] = a


@ti.kernel
def digest() -> ti.i64:
    h = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(N):
        for k in ti.static(range(3)):
            h = h * 1000003 + ti.bit_cast(acc[i][k], ti.i32)
    return h


init()
step()
print(digest())
