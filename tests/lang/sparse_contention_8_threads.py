# Issue 17: 8 threads, 10^6 appends and 10^6 activating updates at once. Every
# append gets its own slot (exact lengths, each value once) and no update or
# activation is lost, on every engine.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=8)
N = 10**6
L = 64
x = ti.field(ti.i32)
lists = ti.root.pointer(ti.i, L).dynamic(ti.j, 1 << 15, chunk_size=32)
lists.place(x)
seen = ti.field(ti.i32, shape=N)
y = ti.field(ti.i32)
blocks = ti.root.pointer(ti.i, 1024)
blocks.dense(ti.i, 64).place(y)

@ti.kernel
def push():
    for k in range(N):
        ti.append(lists, [k % L], k)
        y[(k * 7919) % 65536] += 1

@ti.kernel
def check() -> ti.i32:
    for i, j in x:
        seen[x[i, j]] += 1
    bad = 0
    for k in range(N):
        if seen[k] != 1:
            bad += 1
    return bad

@ti.kernel
def lengths() -> ti.i64:
    short = 0
    total = 0
    for i in range(L):
        n = ti.length(lists, [i])
        total += n
        if n != N // L:
            short += 1
    return total * 1000 + short

@ti.kernel
def updates() -> ti.i64:
    s = 0
    for i in y:
        s += y[i]
    return s

@ti.kernel
def active_blocks() -> ti.i32:
    n = 0
    for b in blocks:
        n += 1
    return n

push()
print("appends:", lengths() // 1000, "lists not of", N // L, ":", lengths() % 1000, "values not seen once:", check())
print("updates:", updates(), "active blocks:", active_blocks())
