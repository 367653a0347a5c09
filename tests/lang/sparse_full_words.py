# Struct-fors over bitmasked and dynamic leaves whose 64-cell words are
# full, partly full and empty. The LLVM tier runs a full word's cells as a
# counted loop of 64 (vectorized where the body allows: jit/llvm/lower_rows.cpp
# word_rows_loop) and the others bit by bit, in the same order: every engine
# prints the interpreter's bits. A `continue` in the body, a sum over the
# cells, a write to another field at the cell's index,
# a list of 130 values (two full words and two cells) next to lists of 64, 1
# and none, and a sweep that reads a neighbour list.
import taichi as ti

ti.init(arch=ti.cpu)
N = 320
x = ti.field(ti.f32)
blk = ti.root.pointer(ti.i, 2).bitmasked(ti.i, N // 2)
blk.place(x)
seen = ti.field(ti.i32, shape=N)
total = ti.field(ti.i32, shape=())
M = 4
val = ti.field(ti.i32)
lists = ti.root.dense(ti.i, M).dynamic(ti.j, 256, chunk_size=64)
lists.place(val)


@ti.kernel
def activate():
    for i in range(N):
        if i < 128 or (150 <= i < 170) or i == 200 or i >= 256:
            x[i] = ti.f32(i) * 0.1 + 1.0 / (i + 3)


@ti.kernel
def visit():
    for i in x:
        if i % 7 == 3:
            continue
        x[i] = x[i] * 1.5 + 0.25
        seen[i] += i + 1
        total[None] += i % 5


@ti.kernel
def fill():
    ti.loop_config(serialize=True)  # (the lists' order is the appends' order)
    for k in range(130 + 64 + 1):
        if k < 130:
            ti.append(lists, [0], k * 7 % 101)
        elif k < 194:
            ti.append(lists, [1], k % 13 - 6)
        else:
            ti.append(lists, [2], -5)


@ti.kernel
def sweep():
    for i, j in val:
        v = val[i, j] * 3 + i
        if v % 4 == 1:
            continue
        val[i, j] = v % 1001 - ti.length(lists, [(i + 1) % M])


activate()
visit()
visit()
print([x[i] for i in [0, 3, 63, 64, 127, 128, 150, 169, 200, 255, 256, 319]])
print(sum(seen[i] for i in range(N)), seen[10], seen[130], seen[300], total[None])
fill()
sweep()
sweep()
print([val[0, j] for j in [0, 1, 63, 64, 127, 128, 129]])
print([val[1, j] for j in range(0, 64, 9)], val[2, 0], sum(val[0, j] for j in range(130)))
