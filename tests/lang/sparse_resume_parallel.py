# A parallel loop that activates pointer cells and appends to dynamic lists
# over a long range, with inner loops and a thread-local sum. On Vulkan
# (lavapipe) its invocations stride over many iterations each and pass half
# of the driver's loop budget (128 invocations of ~1600 iterations of ~40
# passes): they stop, save their variables (loop index, the sum) and go on
# in the next dispatch, and a wait for a slot being filled stops the same
# way; every engine prints the same counts.
import taichi as ti
ti.init(arch=ti.cpu)
N = 200000
x = ti.field(ti.i32)
blocks = ti.root.pointer(ti.i, 4096)
blocks.dense(ti.i, 64).place(x)
v = ti.field(ti.i32)
lists = ti.root.pointer(ti.i, 16).dynamic(ti.j, 1 << 15, chunk_size=64)
lists.place(v)

@ti.kernel
def fill() -> ti.i64:
    total = 0
    ti.loop_config(block_dim=16)
    for k in range(N):
        s = 0
        for j in range(k % 61):
            s += j
        x[(k * 31) % 262144] += 1 + s
        if k % 3 == 0:
            n = ti.append(lists, [k % 16], k)
            if n < 0:
                s -= 1000000
        total += s
    return total

@ti.kernel
def sums() -> ti.i64:
    t = ti.i64(0)
    for i in x:
        t += x[i]
    return t

@ti.kernel
def appended() -> ti.i64:
    t = ti.i64(0)
    for i, j in v:
        t += v[i, j]
    return t

@ti.kernel
def lengths() -> ti.i32:
    n = 0
    for i in range(16):
        n += ti.length(lists, [i])
    return n

@ti.kernel
def active() -> ti.i32:
    n = 0
    for b in blocks:
        n += 1
    return n

print("inner sums:", fill())
print("cells:", sums(), "active blocks:", active())
print("appended:", lengths(), "values:", appended(), "expected values:", sum(range(0, N, 3)))
