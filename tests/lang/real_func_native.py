# ti.real_func calls that every engine makes as calls (the LLVM tier lowers
# them to real calls, recursion included): the random stream a callee draws
# from (printed exactly: every engine draws the interpreter's numbers), calls
# inside a parallel loop whose arguments change per iteration (their draws
# keyed by the iteration, whichever thread runs it), recursion per
# element, prints inside a callee, f16 arguments and results.
import taichi as ti

ti.init(arch=ti.cpu, random_seed=7)


@ti.real_func
def noisy(n: ti.i32) -> ti.f32:
    if n < 0:
        return -1.0
    return ti.random() + n


@ti.kernel
def draws() -> ti.f64:
    a = noisy(1)
    b = ti.random()
    c = noisy(2)
    return a * 1000 + b * 10 + c


print(draws())

out = ti.field(ti.f32, shape=8)


@ti.kernel
def per_cell():
    for i in out:
        out[i] = noisy(i) + noisy(-1)


per_cell()
print(out.to_numpy().tolist())

# Over many cells (many CPU chunks, many GPU threads): each iteration's calls
# draw from that iteration's stream, so no two threads' first calls repeat
# each other's numbers and every engine draws the same ones.
many = ti.field(ti.f32, shape=1 << 16)


@ti.kernel
def per_cell_many():
    for i in many:
        many[i] = noisy(0)


per_cell_many()
vals = many.to_numpy().tolist()
ordered = sorted(vals)
distinct = 1
for i in range(1, len(ordered)):
    if ordered[i] != ordered[i - 1]:
        distinct += 1
print(sum(vals), vals[40000], distinct)


@ti.real_func
def fib(n: ti.i32) -> ti.i32:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


fibs = ti.field(ti.i32, shape=16)


@ti.kernel
def all_fibs():
    for i in fibs:
        fibs[i] = fib(i)


all_fibs()
print(fibs.to_numpy().tolist())


@ti.real_func
def say(n: ti.i32) -> ti.i32:
    if n < 0:
        return 0
    print("in say", n)
    return n * 2


@ti.kernel
def talk() -> ti.i32:
    s = 0
    for i in range(3):
        s += say(i)
    return s


print(talk())


@ti.real_func
def lerp16(a: ti.f16, b: ti.f16, t: ti.f16) -> ti.f16:
    if t <= 0:
        return a
    return a + (b - a) * t


@ti.kernel
def halves() -> ti.f32:
    return ti.cast(lerp16(ti.f16(1.0), ti.f16(3.0), ti.f16(0.3)), ti.f32)


print(halves())
