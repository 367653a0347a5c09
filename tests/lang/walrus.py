# Assignment expressions (`:=`) in kernels and ti.funcs, as Taichi's
# build_NamedExpr has them: `(x := v)` assigns x as `x = v` does (a new local
# of v's type, or a store into an existing one with its implicit cast) and
# yields x's value; `(n := ti.static(k))` binds a compile-time name.
import taichi as ti

ti.init(arch=ti.cpu)

samples = ti.Vector.field(2, ti.f32, shape=4)
mouse = ti.Vector.field(2, ti.f32, shape=())
counts = ti.field(ti.i32, shape=8)


@ti.kernel
def seed():
    # Taichi's poisson_disk_sampling: samples[0] = (p0 := iMouse[None])
    samples[0] = (p0 := mouse[None])
    samples[1] = p0 * 2.0
    total = 0
    for i in range(8):
        if (c := counts[i]) > 2:
            total += c
    print("total of counts above 2:", total)


@ti.func
def collatz_steps(n: ti.i32) -> ti.i32:
    steps = 0
    m = n
    while (m := m // 2 if m % 2 == 0 else 3 * m + 1) != 1:
        steps += 1
    return steps + 1


@ti.kernel
def steps(n: ti.i32) -> ti.i32:
    return collatz_steps(n)


@ti.kernel
def existing_local() -> ti.f32:
    y = 1.5
    z = (y := 7) + 0.25  # y stays f32: the 7 is stored into it
    return y + z


@ti.kernel
def static_name() -> ti.i32:
    s = (k := ti.static(3)) * 100
    for i in ti.static(range(k)):  # k is a compile-time name
        s += i * k
    for j in ti.static(range((m := k + 1))):  # bound inside ti.static too
        s += j * m
    return s


@ti.kernel
def in_parallel_loop():
    for i in range(8):
        counts[i] = (d := i * i) + d


mouse[None] = [0.25, 0.5]
for i in range(8):
    counts[i] = i
seed()
print(samples[0], samples[1])
print("collatz 27:", steps(27), "collatz 2:", steps(2))
print("existing:", existing_local())
print("static:", static_name())
in_parallel_loop()
print(counts.to_numpy())


# Python scope (the built-in host's evaluator runs this too): a `:=` in a
# comprehension binds in the function around it (PEP 572).
def doubled_above_two(xs):
    out = [y for x in xs if (y := x * 2) > 2]
    return out, y


print(doubled_above_two([1, 2, 3]))
if (n := len([z for z in range(5) if (last := z) % 2])) == 2:
    print("n:", n, "last:", last)
