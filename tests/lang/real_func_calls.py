# ti.real_func calls that stay calls: a function with an early return (or one
# that calls another) is not inlined, so vectors, matrices, structs, tuples,
# ti.ref parameters and ndarrays travel through the call itself here.
import taichi as ti

ti.init(arch=ti.cpu)
pair = ti.types.struct(n=ti.i16, w=ti.f64)


@ti.real_func
def corners(m: ti.math.mat2, v: ti.math.vec2) -> ti.math.vec2:
    if v[0] < 0:
        return v
    return m @ v + 1


@ti.real_func
def make_pair(n: ti.i32) -> pair:
    if n < 0:
        return pair(n=0, w=0)
    return pair(n=n * 2, w=n / 4)


@ti.real_func
def divmod_of(a: ti.i32, b: ti.i32) -> (ti.i32, ti.i32):
    if b == 0:
        return 0, 0
    return a // b, a % b


@ti.real_func
def scale_ref(a: ti.ref(ti.f32), v: ti.ref(ti.math.vec3), k: ti.f32):
    if k == 0:
        return
    a *= k
    v *= k


@ti.real_func
def nd_total(a: ti.types.ndarray(ndim=1)) -> ti.f32:
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] < 0:
            return -1.0
        s += a[i]
        a[i] = s
    return s


@ti.real_func
def half_of(x: ti.f16) -> ti.f16:
    if x < 0:
        return -x
    return x / 2


@ti.kernel
def run(arr: ti.types.ndarray(ndim=1)) -> ti.f64:
    v = corners(ti.math.mat2(1, 2, 3, 4), ti.math.vec2(1, 1))
    p = make_pair(5)
    q, r = divmod_of(17, 5)
    a = 2.0
    w = ti.math.vec3(1, 2, 3)
    scale_ref(a, w, 3)
    h = half_of(ti.f16(3.0))
    return v[0] + v[1] * 10 + p.n * 100 + p.w + q * 1000 + r * 10000 + a * 1e5 + w.sum() * 1e6 + nd_total(arr) * 1e8 + h


arr = ti.ndarray(ti.f32, shape=4)
arr.fill(1)
print(run(arr), arr.to_numpy().tolist())


@ti.real_func
def draw(n: ti.i32) -> ti.f32:
    if n < 0:
        return 0.0
    return ti.random()


@ti.kernel
def draws() -> ti.i32:
    # each call draws from a stream of its own: two calls differ
    a = draw(1)
    b = draw(1)
    return a != b and a >= 0 and a < 1


print(draws())


@ti.real_func
def unit_draw() -> ti.f32:
    return ti.random()  # returns only at its end, but draws: stays a call


@ti.kernel
def per_iteration(n: ti.i32) -> ti.i32:
    out = 0
    for i in range(n):
        out += 1 if unit_draw() != unit_draw() else 0
    return out


rs = ti.field(ti.f32, shape=64)


@ti.kernel
def fill_draws():
    for i in rs:
        rs[i] = unit_draw()


fill_draws()
vals = sorted(rs.to_numpy().tolist())
distinct = 1
for i in range(1, len(vals)):
    if vals[i] != vals[i - 1]:
        distinct += 1
print(per_iteration(16), distinct)
