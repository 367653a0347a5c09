# ti.append in hot loops, where the engines fold the capacity check into the
# append (JIT: one guard whose exit gives the capacity; ORC: an unsigned
# compare) and know a range-for's counter from its constant bounds: lists
# filling up past their capacity (an IndexError at the first append past it),
# counters that run negative (floor % and // of negative values), and a
# user's atomic counter that passes -1, whose old values are not a list's
# length.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=2)
x = ti.field(ti.i32)
lists = ti.root.dense(ti.i, 4).dynamic(ti.j, 256, chunk_size=16)
lists.place(x)

@ti.kernel
def fill(n: ti.i32):
    ti.loop_config(serialize=True)
    for k in range(n):
        ti.append(lists, [k % 4], k * 3 % 1000)

lens = ti.field(ti.i32, shape=4)

@ti.kernel
def count_lengths():
    for i in range(4):
        lens[i] = ti.length(lists, [i])

def lengths():
    count_lengths()
    return [lens[i] for i in range(4)]

# Weighted by position: the serialized fills' order is the program's.
@ti.kernel
def weighted() -> ti.i64:
    s = ti.i64(0)
    for i, j in x:
        s += x[i, j] * (j + 1)
    return s

# Parallel appends land in any order: sums that do not depend on it.
@ti.kernel
def sums_of(i: ti.i32) -> ti.i64:
    s = ti.i64(0)
    for j in range(ti.length(lists, [i])):
        v = ti.i64(x[i, j])
        s += v + v * v * 1000
    return s

fill(800)
print(lengths(), weighted())
try:
    fill(400)  # 56 more fit in each list; k = 224 goes past list 0's end
except IndexError as e:
    print("IndexError", str(e).splitlines()[0])

# Counters from a negative begin: floor % and // of negative values, in a
# parallel loop of appends (2 threads) and into lists chosen by them.
lists.deactivate_all()

@ti.kernel
def fill_signed():
    for k in range(-500, 500):
        ti.append(lists, [k % 4], k // 4 + k % 1000 - (k % 7) * 100)

fill_signed()
print(lengths(), [sums_of(i) for i in range(4)])

@ti.kernel
def sums() -> ti.i64:
    s = 0
    for k in range(-3000, 3000):
        s += (k % 1000) * 3 + k // 7 + (k & 255) + k % 64
    return s

print(sums())

# A user's i64 counter from -600: its old values are negative, then pass -1
# and 0 (no list length: nothing may assume them below a later load).
cnt = ti.field(ti.i64, shape=())
hits = ti.field(ti.i32, shape=8)

@ti.kernel
def count():
    ti.loop_config(serialize=True)
    for k in range(1200):
        old = ti.atomic_add(cnt[None], 1)
        if old < cnt[None] and old >= 0:
            hits[old & 7] += 1
        if old < 0:
            hits[(old % 8) & 7] += 2

cnt[None] = -600
count()
print(cnt[None], [hits[i] for i in range(8)])
