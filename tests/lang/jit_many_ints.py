# More integer values live at once than the JIT's 10 general registers: a
# particle's 27-point scatter into a grid (27 addresses made and read at
# once, an atomic's old value read for some of them, unused for the rest)
# beside sixteen hash values held across it and a call, a loop-carried
# count, and an exit taken by some particles between the hashes and their
# sum. The allocator then leaves the values worth least per position held
# in their stack slots; every engine prints the same.
import taichi as ti

ti.init(arch=ti.cpu)

n = 10
P = 300
g = ti.field(ti.i32, shape=(n, n, n))
gf = ti.field(ti.f32, shape=(n, n, n))
px = ti.Vector.field(3, ti.i32, shape=P)
w = ti.field(ti.i32, shape=P)
olds = ti.field(ti.i32, shape=P)
out = ti.field(ti.i64, shape=P)
count = ti.field(ti.i32, shape=())
skipped = ti.field(ti.i32, shape=())


@ti.kernel
def init():
    for p in range(P):
        px[p] = ti.Vector([(p * 7) % (n - 2), (p * 13 + 3) % (n - 2), (p * 29 + 5) % (n - 2)])
        w[p] = p % 11 - 3


@ti.kernel
def scatter():
    for _ in range(1):  # the inner loop runs in order: the atomics' old values are fixed
        c = 0
        for p in range(P):
            base = px[p]
            k = w[p]
            h = [(p * (2 * j + 3) + k * j) % (97 + j) for j in ti.static(range(16))]
            if (h[3] + h[11]) % 9 == 0:  # some particles leave here, the hashes live
                skipped[None] += h[0] ^ h[7]
                continue
            for o0, o1, o2 in ti.static(ti.ndrange(3, 3, 3)):
                idx = base + ti.Vector([o0, o1, o2])
                v = k * (o0 + 2 * o1 + 3 * o2 + 1)
                if ti.static(o0 == 1 and o2 == 2):
                    olds[p] += ti.atomic_add(g[idx], v)  # the old value, read
                else:
                    g[idx] += v
                gf[idx] += ti.cast(v, ti.f32) * 0.5
            # a call (exp) with the hashes and the scatter's values live: the
            # registers it may clobber (rsi and rdi hold values too) are saved
            s = ti.cast(ti.exp(ti.cast(h[5] % 7, ti.f32) * 0.25) * 1000.0, ti.i64)
            for j in ti.static(range(16)):
                s += ti.cast(h[j], ti.i64) << j
            out[p] = s + base[0] * 1000000 + base[1] * 1000 + base[2]
            c += 1
        count[None] = c


init()
scatter()
scatter()
print(count[None], skipped[None])
print(g.to_numpy().sum(), gf.to_numpy().sum())
for p in [0, 1, 2, 9, 100, 299]:
    b = px[p]
    print(p, olds[p], out[p], g[b[0], b[1], b[2]], gf[b[0], b[1], b[2]])
total = 0
for p in range(P):
    total += out[p] * (p + 1) + olds[p]
print(total)
