# ti.real_func: functions compiled once and called at run time, with their own
# frame (recursion), results, vector/matrix/struct/tuple values, ti.ref
# parameters, template parameters and methods of ti.data_oriented classes.
import taichi as ti

ti.init(arch=ti.cpu)

total = ti.field(ti.i32, shape=())
f = ti.field(ti.i32, shape=100)
pair = ti.types.struct(n=ti.i16, w=ti.f64)


@ti.real_func
def add_to_total(v: ti.i32):
    total[None] += v


@ti.real_func
def bump_and_get(v: ti.i32) -> ti.i32:
    if total[None] > 10:
        if total[None] > 20:
            return 1
        total[None] += 1
    total[None] += v
    return 0


@ti.real_func
def range_sum(a: ti.template(), lo: ti.i32, hi: ti.i32) -> ti.i32:
    if lo == hi:
        return a[lo]
    mid = (lo + hi) // 2
    return range_sum(a, lo, mid) + range_sum(a, mid + 1, hi)


@ti.real_func
def triangle(n: ti.i32) -> ti.i32:
    if n == 0:
        return 0
    return triangle(n - 1) + n


@ti.real_func
def is_even(n: ti.i32) -> ti.i32:
    r = 1
    if n > 0:
        r = is_odd(n - 1)
    return r


@ti.real_func
def is_odd(n: ti.i32) -> ti.i32:
    r = 0
    if n > 0:
        r = is_even(n - 1)
    return r


@ti.real_func
def first_over(limit: ti.i32) -> ti.i32:
    s = 0
    for i in range(100):
        if s > limit:
            return i
        s += i
    return -1


@ti.real_func
def count_down(n: ti.i32) -> ti.i32:
    steps = 0
    while True:
        if n <= 0:
            return steps
        n -= 3
        steps += 1


@ti.real_func
def odd_below(n: ti.i32) -> ti.i32:
    c = 0
    for i in range(100):
        if i >= n:
            break
        if i % 2 == 0:
            continue
        c += 1
    return c


@ti.real_func
def halve(x: ti.f32, y: ti.f32) -> ti.f32:
    return (x + y) / 2


@ti.real_func
def corners(m: ti.math.mat2, v: ti.math.vec2) -> ti.math.vec2:
    return m @ v + 1


@ti.real_func
def make_pair(n: ti.i32) -> pair:
    return pair(n=n * 2, w=n / 4)


@ti.real_func
def divmod_of(a: ti.i32, b: ti.i32) -> (ti.i32, ti.i32):
    return a // b, a % b


@ti.real_func
def set_to(a: ti.ref(ti.f32), v: ti.f32):
    a = v


@ti.real_func
def double_it(a: ti.ref(ti.f32)):
    a += a


@ti.real_func
def swap(a: ti.ref(ti.i32), b: ti.ref(ti.i32)) -> ti.i32:
    t = a
    a = b
    b = t
    return a + b


@ti.kernel
def calls() -> ti.i32:
    add_to_total(40)
    add_to_total(2)
    r = bump_and_get(5)  # total 42 > 20: returns 1 and changes nothing
    return r


@ti.kernel
def recursion(n: ti.i32) -> ti.i32:
    return range_sum(f, 0, 99) + triangle(n) + is_even(7) * 1000 + is_odd(7) * 10000


@ti.kernel
def control() -> ti.i32:
    return first_over(20) * 10000 + count_down(10) * 100 + odd_below(9)


@ti.kernel
def values() -> ti.f64:
    v = corners(ti.math.mat2(1, 2, 3, 4), ti.math.vec2(1, 1))
    p = make_pair(5)
    q, r = divmod_of(17, 5)
    return halve(1, 2) + v[0] + v[1] + p.n + p.w + q * 100 + r * 1000


@ti.kernel
def refs() -> ti.f32:
    a = 5.0
    set_to(a, 7)
    b = 3.0
    double_it(b)
    i = 1
    j = 2
    s = swap(i, j)
    return a * 100 + b + i * 10000 + j * 100000 + s * 1000000


@ti.kernel
def in_parallel_loop() -> ti.i32:
    total[None] = 0
    for i in range(64):
        add_to_total(triangle(i % 5))
    return total[None]


@ti.real_func
def nd_sum(a: ti.types.ndarray(ndim=1), n: ti.i32) -> ti.f32:
    s = 0.0
    for i in range(n):
        s += a[i]
        a[i] = i * 2
    return s


@ti.real_func
def nd_pair(m: ti.types.ndarray(ndim=2)) -> ti.math.vec2:
    return m[1, 0] + m[0, 1]


@ti.kernel
def with_ndarrays(a: ti.types.ndarray(ndim=1), m: ti.types.ndarray(ndim=2)) -> ti.f32:
    v = nd_pair(m)
    return nd_sum(a, a.shape[0]) + v[0] * 10 + v[1] * 100


@ti.data_oriented
class Grid:
    def __init__(self, n):
        self.n = n
        self.val = ti.field(ti.f32, shape=(n, n))

    @ti.real_func
    def inc(self, i: ti.i32, j: ti.i32):
        self.val[i, j] += i * j

    @ti.real_func
    def mul(self, i: ti.i32, j: ti.i32) -> ti.i32:
        return i * j

    @ti.kernel
    def fill(self):
        for i, j in self.val:
            self.inc(i, j)
            self.val[i, j] += self.mul(i, j)


for i in range(100):
    f[i] = i
print(calls(), total[None])
print(recursion(100))
print(control())
print(values())
print(refs())
print(in_parallel_loop())
arr = ti.ndarray(ti.f32, shape=5)
arr.fill(1.5)
mat = ti.Vector.ndarray(2, ti.f32, shape=(2, 2))
mat.fill(1)
print(with_ndarrays(arr, mat), arr.to_numpy().tolist())
g = Grid(16)
g.fill()
print(g.val[3, 5], g.val[15, 15], g.val.to_numpy().sum())
