# fast_math's split sums in loops the LLVM tier runs as blocks of W
# iterations (jit/llvm/lower_lanes.cpp): every engine prints the same bits.
# Ranges of every length mod W, negative and empty ranges, a vec3 field's
# interleaved components, sums by fma, the loop index in the body, f64
# (W = 8), sums beside f32 and f64 (not blocked), a sum inside an `if` (not
# blocked) and a parallel loop's per-chunk sums. Ranges of W, 2 W and 4 W + 1
# (f32's W = 16, f64's 8): one, two and four blocks; ctest's lane_sums/llvm_256
# and llvm_512 run a block as two 256-bit halves and as one 512-bit vector.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=1)
N = 77
x = ti.field(ti.f32, N)
y = ti.field(ti.f64, N)
p = ti.Vector.field(3, ti.f32, N)


@ti.kernel
def fill():
    for i in range(N):
        h = (i * 1103515245 + 12345) & 0x7FFFFFFF
        x[i] = ti.cast(h & 0xFFFF, ti.f32) / 3.0 - 10000.0
        y[i] = ti.cast(h >> 8, ti.f64) / 7.0 - 1e6
        p[i] = ti.Vector([ti.cast(h & 0xFF, ti.f32) * 0.1, ti.cast((h >> 8) & 0xFF, ti.f32) * 0.3,
                          ti.cast((h >> 16) & 0xFF, ti.f32) * 0.7])


@ti.kernel
def bits32(v: ti.f32) -> ti.i32:
    return ti.bit_cast(v, ti.i32)


@ti.kernel
def bits64(v: ti.f64) -> ti.i64:
    return ti.bit_cast(v, ti.i64)


@ti.kernel
def span(a: ti.i32, b: ti.i32) -> ti.f32:
    s = 0.5
    ti.loop_config(serialize=True)
    for i in range(a, b):
        s += x[i + 20] * ti.cast(i, ti.f32)
    return s


@ti.kernel
def span64(a: ti.i32, b: ti.i32) -> ti.f64:
    s = ti.f64(0.25)  # not 0.0: Vulkan's 0.0 + -0.0 (an empty range's partials) is -0.0
    ti.loop_config(serialize=True)
    for i in range(a, b):
        s -= y[i] * 1.5
    return s


@ti.kernel
def gravity(k: ti.i32) -> ti.math.vec3:
    q = p[k]
    a = ti.math.vec3(0.0)
    ti.loop_config(serialize=True)
    for j in range(N):
        d = p[j] - q
        inv = 1.0 / ti.sqrt(d.dot(d) + 0.01)
        a += d * (inv * inv * inv)
    return a


@ti.kernel
def mixed() -> ti.f64:
    s = 0.0
    t = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(N):
        s += x[i]
        t += y[i]
    return s + t


@ti.kernel
def guarded() -> ti.f32:
    s = 0.0
    t = 0.0
    ti.loop_config(serialize=True)
    for i in range(N):
        t += x[i] * 0.25
        if x[i] > 0.0:
            s += x[i]
    return s + t


@ti.kernel
def rows() -> ti.f32:
    s = 0.0
    for i in range(N):
        for j in range(i):
            s += x[j] - x[i]
    return s


fill()
for a, b in ((0, 57), (-20, 57), (-20, -13), (3, 3), (9, 2), (5, 13), (1, 16), (0, 1), (0, 16), (3, 35), (-20, 45)):
    v = span(a, b)
    print("span", a, b, v, hex(bits32(v)))
for a, b in ((0, 77), (2, 7), (4, 8), (5, 5), (1, 9), (0, 24), (3, 36)):
    v = span64(a, b)
    print("span64", a, b, v, hex(bits64(v)))
for k in (0, 13, 76):
    g = gravity(k)
    print("gravity", k, [hex(bits32(c)) for c in g])
v = mixed()
print("mixed", v, hex(bits64(v)))
v = guarded()
print("guarded", v, hex(bits32(v)))
v = rows()
print("rows", v, hex(bits32(v)))
