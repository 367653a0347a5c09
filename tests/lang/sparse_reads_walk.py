# Reads of sparse fields by index (no activation), in range-fors: the LLVM
# tier walks the tree inline (pointer, bitmasked, dynamic and dense levels,
# nested, with a field offset); inactive cells read 0; writes activate.
import taichi as ti

ti.init(arch=ti.cpu)

a = ti.field(ti.f32)
ptr = ti.root.pointer(ti.ij, (4, 3))
ptr.bitmasked(ti.ij, (2, 5)).place(a)
b = ti.field(ti.i64)
ti.root.dense(ti.i, 3).dynamic(ti.j, 40, chunk_size=8).place(b)
c = ti.field(ti.i16)
ti.root.bitmasked(ti.i, 12).place(c, offset=(-6,))
d = ti.field(ti.f64)
ti.root.pointer(ti.i, 5).dense(ti.i, 4).place(d)


@ti.kernel
def write():
    for i, j in ti.ndrange(8, 15):
        if (i * 7 + j * 3) % 5 == 0:
            a[i, j] = i * 100 + j + 0.5
    for i in range(3):
        for k in range(i * 9 + 3):
            ti.append(b.parent(), i, k * k - i)
    for i in range(-6, 6):
        if i % 4 != 1:
            c[i] = ti.i16(i * 3)
    d[9] = 2.25
    d[17] = -1.0


@ti.kernel
def read_a() -> ti.f64:
    s = ti.f64(0.0)
    for i, j in ti.ndrange(8, 15):
        s += a[i, j] * (i + 1) * (j + 2)
    return s


@ti.kernel
def read_b() -> ti.i64:
    s = ti.i64(0)
    for i, j in ti.ndrange(3, 40):
        s += b[i, j] * (j + 1) + i
    return s


@ti.kernel
def read_c() -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)  # s = s * 3 + ...: order matters
    for i in range(-6, 6):
        s = s * 3 + c[i]
    return s


@ti.kernel
def read_d() -> ti.f64:
    s = ti.f64(0.0)
    for i in range(20):
        s += d[i] * (i + 1)
    return s


write()
print(read_a(), read_b(), read_c(), read_d())


@ti.kernel
def active_blocks() -> ti.i32:
    n = 0
    ti.loop_config(serialize=True)
    for i, j in ti.ndrange(4, 3):
        n = n * 2 + ti.is_active(ptr, [i, j])
    return n


print(active_blocks())
