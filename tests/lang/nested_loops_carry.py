# Nested loops whose inner loops change what the outer loop reads next:
# accumulators carried through inner loops, zero-trip inner loops, inner
# while loops with break, a branch inside the inner loop, three levels.
import taichi as ti

ti.init()

n = 12
a = ti.field(ti.i32, shape=n)
out = ti.field(ti.f32, shape=n)


@ti.kernel
def carry() -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i in range(n):
        s += i  # read before the inner loop, written inside it
        for j in range(i % 4):  # 0 to 3 trips, sometimes none
            s = s * 3 % 1000 + j
        a[i] = s
    return s


@ti.kernel
def inner_while():
    for i in range(n):
        x = ti.cast(i, ti.f32)
        k = 0
        while True:
            if x > 50.0:
                break
            if k % 3 == 2:
                x += 7.0  # a branch the inner trace leaves by
            else:
                x = x * 1.5 + 1.0
            k += 1
        out[i] = x + k


@ti.kernel
def three_levels() -> ti.i64:
    total = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(6):
        for j in range(i, 40):
            m = j
            while m > 1:
                total += m % 5
                m = m // 2
    return total


print(carry())
print(a.to_numpy())
inner_while()
print(out.to_numpy())
print(three_levels())
