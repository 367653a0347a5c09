# Python's floor `//` and `%` of i32 and i64 values by constants: positive,
# negative, powers of two, 1, -1, near the type's limits, against edge
# dividends (INT_MIN, -1, 0, c - 1, c, ...). Each constant runs three ways:
# a serial loop storing through a permutation (the JIT's scalar forms), a
# loop over the values (its lane forms, where the loop vectorizes), and the
# same with a float division beside it (16 lanes on AVX-512 hosts); all are
# checked against plain Python, and every engine prints the same. (INT_MIN // -1 and INT_MIN % -1
# overflow and are left out: real Taichi's division traps there.)
import taichi as ti
ti.init(arch=ti.cpu)

LO32, HI32 = -2147483648, 2147483647
LO64, HI64 = -9223372036854775807 - 1, 9223372036854775807
I32 = [3, 7, 10, 1001, 65537, HI32, 1, 2, 16, 1 << 30, -1, -3, -7, -1001, -16, -HI32, LO32]
I64 = [3, 7, 1001, 1000000007, 4294967296, HI64, 1, 8, -1, -3, -1001, LO64]


# (Host arithmetic that stays within 64 bits: the built-in host's ints are.)
def edges(cs, lo, hi):
    v = [lo, lo + 1, hi, hi - 1, -1, 0, 1, 2, -2]
    for c in cs:
        ds = [c]
        if lo < c < hi:
            ds += [c - 1, c + 1, -c - 1, -c]
            if -(1 << 30) < c < (1 << 30):
                ds += [-c + 1, 2 * c, -2 * c, 3 * c + 1, -3 * c - 1]
        for d in ds:
            if lo <= d <= hi and d not in v:
                v.append(d)
    return sorted(v)


V32, V64 = edges(I32, LO32, HI32), edges(I64, LO64, HI64)
N32, N64 = len(V32), len(V64)
x32 = ti.field(ti.i32, N32)
q32 = ti.field(ti.i32, (3, len(I32), N32))
r32 = ti.field(ti.i32, (3, len(I32), N32))
x64 = ti.field(ti.i64, N64)
q64 = ti.field(ti.i64, (3, len(I64), N64))
r64 = ti.field(ti.i64, (3, len(I64), N64))
perm32 = ti.field(ti.i32, N32)
perm64 = ti.field(ti.i32, N64)
f32 = ti.field(ti.f32, N32)


@ti.kernel
def div32():
    for c in ti.static(range(len(I32))):
        ti.loop_config(serialize=True)
        for k in range(N32):
            x = x32[perm32[k]]
            if ti.static(I32[c] != -1) or x != LO32:
                q32[0, c, perm32[k]] = x // I32[c]
                r32[0, c, perm32[k]] = x % I32[c]
        for k in range(N32):
            x = x32[k]
            if ti.static(I32[c] != -1) or x != LO32:
                q32[1, c, k] = x // I32[c]
                r32[1, c, k] = x % I32[c]
        for k in range(N32):
            x = x32[k]
            if ti.static(I32[c] != -1) or x != LO32:
                q32[2, c, k] = x // I32[c]
                r32[2, c, k] = x % I32[c]
                f32[k] = ti.cast(x, ti.f32) / 3.0


@ti.kernel
def div64():
    for c in ti.static(range(len(I64))):
        ti.loop_config(serialize=True)
        for k in range(N64):
            x = x64[perm64[k]]
            if ti.static(I64[c] != -1) or x != ti.i64(LO64):
                q64[0, c, perm64[k]] = x // ti.i64(I64[c])
                r64[0, c, perm64[k]] = x % ti.i64(I64[c])
        for k in range(N64):
            x = x64[k]
            if ti.static(I64[c] != -1) or x != ti.i64(LO64):
                q64[2, c, k] = x // ti.i64(I64[c])
                r64[2, c, k] = x % ti.i64(I64[c])
        for k in range(N64):
            x = x64[k]
            if ti.static(I64[c] != -1) or x != ti.i64(LO64):
                q64[1, c, k] = x // ti.i64(I64[c])
                r64[1, c, k] = x % ti.i64(I64[c])


def check(name, cs, vs, lo, q, r):
    bad, qsum, rsum = 0, 0, 0
    for way in range(3):
        for ci, c in enumerate(cs):
            for k, x in enumerate(vs):
                if c == -1 and x == lo:
                    continue
                qv, rv = q[way, ci, k], r[way, ci, k]
                qsum, rsum = (qsum + qv % 1000003) % 1000003, (rsum + rv % 1000003) % 1000003
                if qv != x // c or rv != x % c:
                    bad += 1
                    if bad <= 5:
                        print(name, "way", way, x, "//", c, "->", qv, rv, "want", x // c, x % c)
    print(name, len(cs), "constants", len(vs), "values, mismatches:", bad)
    print(name, "sums", qsum, rsum)


for k in range(N32):
    perm32[k] = (k * 31 + 11) % N32  # (31 is prime to both sizes)
for k in range(N64):
    perm64[k] = (k * 31 + 11) % N64
for k, v in enumerate(V32):
    x32[k] = v
for k, v in enumerate(V64):
    x64[k] = v
div32()
div64()
check("i32", I32, V32, LO32, q32, r32)
check("i64", I64, V64, LO64, q64, r64)
