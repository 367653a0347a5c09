# The runtime's sparse counters (ti.statistics): activations of bitmasked
# bits, pointer cells and dynamic chunks, deactivations (a dynamic list counts
# once), and the containers each struct-for's list generation lists; the
# Vulkan backend counts them on the device as the runtime does on the CPU.
import taichi as ti
ti.init(arch=ti.cpu)
a = ti.field(ti.f32)
ptr = ti.root.pointer(ti.ij, (4, 3))
ptr.bitmasked(ti.ij, (2, 5)).place(a)
b = ti.field(ti.i32)
dyn = ti.root.dense(ti.i, 3).dynamic(ti.j, 40, chunk_size=8)
dyn.place(b)
d = ti.field(ti.f64)
dp = ti.root.pointer(ti.i, 5)
dp.dense(ti.i, 4).place(d)
c = ti.field(ti.i32)
bm = ti.root.dense(ti.i, 4).bitmasked(ti.i, 8)
bm.place(c)

@ti.kernel
def write():
    for i, j in ti.ndrange(8, 15):
        if (i * 7 + j * 3) % 5 == 0:
            a[i, j] = i + j
    for i in range(3):
        for k in range(i * 9 + 3):
            ti.append(b.parent(), i, k)
    for i in range(32):
        if i % 3 == 0:
            c[i] = i
    for i in range(20):
        if i % 3 != 1:
            d[i] = i

@ti.kernel
def sums() -> ti.f64:
    s = ti.f64(0.0)
    for i, j in a:
        s += a[i, j]
    for i, j in b:
        s += b[i, j]
    for i in c:
        s += c[i]
    for i in d:
        s += d[i]
    return s

@ti.kernel
def drop():
    ti.deactivate(dp, [2])
    ti.deactivate(dp, [3])
    ti.deactivate(b.parent(), [1])
    for i in range(16):
        ti.deactivate(c.parent(), [i * 2])

def show():
    st = ti.statistics()
    print(st['snode_activations'], st['snode_deactivations'], st['listgen_elements'])


write()
show()
print(sums())
show()
drop()
show()
print(sums())
show()
