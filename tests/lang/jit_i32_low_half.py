# i32 arithmetic that wraps, its results read as the low half only (stores,
# further adds and multiplies, a floor `%` by a constant: the JIT leaves
# their upper half unextended) and as a whole value (a compare, a widening
# to i64, a loop-carried sum, an exit's frame): every reader must see the
# wrapped i32. Checked against Python's model of 32-bit wrapping.
import taichi as ti
ti.init(arch=ti.cpu)

N = 3000
a = ti.field(ti.i32, N)
out = ti.field(ti.i32, (4, N))


@ti.kernel
def chains() -> ti.i64:
    s = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(N):
        x = a[i] * 100003 + i * 7919      # wraps
        y = x * 3 + 1234567                # read low-half only by the store and the mod
        out[0, i] = y
        out[1, i] = y % 1001
        out[2, i] = (x - 2000000000) * 5   # wraps again
        if x < 0:                          # a compare of a wrapped value
            out[3, i] = 1
        s += ti.i64(y)                     # widened: its sign matters
    return s


def wrap(v):
    return (v + (1 << 31)) % (1 << 32) - (1 << 31)


for i in range(N):
    a[i] = (i * 2654435761) % 4294967291 - 2147483645
total = chains()
want_s, bad = 0, 0
for i in range(N):
    x = wrap(wrap(a[i] * 100003) + wrap(i * 7919))
    y = wrap(wrap(x * 3) + 1234567)
    want = [y, y % 1001, wrap(wrap(x - 2000000000) * 5), 1 if x < 0 else 0]
    for k in range(4):
        if out[k, i] != want[k]:
            bad += 1
    want_s += y
print("sum", total, total == want_s, "mismatches", bad)
