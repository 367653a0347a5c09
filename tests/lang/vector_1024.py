# Vectors of more than 255 components: a kernel returns one of 1024 (set with
# constant indices), a parallel loop sets the elements of a 260-component local
# of the kernel's top level with a runtime index (each thread stores only the
# element it sets), and a 300-component local is summed.
import taichi as ti
ti.init(arch=ti.cpu)

vec1024 = ti.types.vector(1024, ti.i32)
vec260 = ti.types.vector(260, ti.i32)
vec300 = ti.types.vector(300, ti.f32)


@ti.kernel
def ramp() -> vec1024:
    ret = vec1024(0)
    for i in ti.static(range(1024)):
        ret[i] = i * 3
    return ret


@ti.kernel
def parallel_ramp() -> vec260:
    ret = vec260(0)
    for i in range(260):
        ret[i] = i * 5 + 1
    return ret


@ti.kernel
def total() -> ti.f32:
    w = vec300(0.5)
    w[299] = 100.0
    return w.sum()


r = ramp()
print(len(r), r[0], r[1], r[255], r[256], r[1023], sum(r))
p = parallel_ramp()
print(len(p), p[0], p[259], sum(p))
print(total())
