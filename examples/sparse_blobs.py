# Sparse grids: a 256x256 domain where only blocks near two moving blobs are
# allocated. Each step writes the blobs (writes activate 8x8 pointer blocks),
# diffuses over the active cells only (a struct-for walks the lists of active
# blocks), and frees blocks whose values have faded (ti.deactivate).
import taichi as ti
ti.init(arch=ti.cpu)
N, B = 256, 8
x = ti.field(ti.f32)
block = ti.root.pointer(ti.ij, N // B)
block.dense(ti.ij, B).place(x)

@ti.kernel
def paint(cx: ti.f32, cy: ti.f32):
    for i, j in ti.ndrange((-6, 7), (-6, 7)):
        if i * i + j * j < 36:
            x[ti.i32(cx) + i, ti.i32(cy) + j] = 1.0

@ti.kernel
def fade():
    for i, j in x:
        x[i, j] *= 0.7

@ti.kernel
def prune():
    for bi, bj in block:
        s = 0.0
        for a, b in ti.ndrange(B, B):
            s += x[bi + a, bj + b]
        if s < 0.5:
            ti.deactivate(block, [bi, bj])

@ti.kernel
def stats() -> ti.i32:
    n = 0
    for i, j in block:
        n += 1
    return n

for step in range(40):
    paint(40 + step * 4, 128)
    paint(128, 200 - step * 3)
    fade()
    prune()
    if step % 10 == 9:
        print(f"step {step + 1}: {stats()} of {(N // B) ** 2} blocks active")
ti.print_statistics()
