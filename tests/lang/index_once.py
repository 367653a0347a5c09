# The index of a vector, matrix or struct field element is evaluated once,
# however many component fields the element has (Taichi evaluates a subscript's
# index once; an index with a side effect, such as a slot taken with
# ti.atomic_add, must take one slot). Loads, stores, augmented assignments,
# swizzles, component stores, atomics and struct members, serial and parallel;
# an augmented assignment to a swizzle or a struct member of a field element is
# atomic in a parallel loop, as for a whole element.
import taichi as ti

ti.init(arch=ti.cpu)

Edge = ti.types.struct(p0=ti.math.vec2, p1=ti.math.vec2, w=ti.f32)
edges = Edge.field(shape=64)
v = ti.Vector.field(3, ti.f32, shape=64)
m = ti.Matrix.field(2, 2, ti.i32, shape=64)
n = ti.field(ti.i32, shape=())
count = ti.field(ti.i32, shape=())


@ti.func
def slot() -> ti.i32:
    return ti.atomic_add(n[None], 1)


@ti.kernel
def serial():
    n[None] = 0
    v[slot()] = ti.math.vec3(1, 2, 3)  # a vector store: one slot
    print(n[None])
    v[slot()] += ti.math.vec3(1, 1, 1)  # load and store of three components
    print(n[None])
    v[slot()].yz = ti.math.vec2(7, 8)  # a swizzle store
    print(n[None])
    v[slot()][1] = 9.0  # one component
    print(n[None])
    v[slot()][2] += 1.0
    print(n[None])
    m[slot()] = ti.Matrix([[1, 2], [3, 4]])
    print(n[None])
    old = ti.atomic_add(m[slot()], ti.Matrix([[1, 1], [1, 1]]))
    print(n[None], old)
    edges[slot()] = Edge(ti.math.vec2(1, 2), ti.math.vec2(3, 4), 5.0)  # five component fields
    print(n[None])
    e = edges[slot()]  # a struct load
    print(n[None], e.w)
    x = v[slot()]  # a vector load
    print(n[None], x)
    v[slot()].x += 2.0  # a swizzle update
    print(n[None])
    edges[slot()].p1 += ti.math.vec2(1, 1)  # a vector member's update
    print(n[None])
    edges[slot()].w -= 1.0
    print(n[None])


@ti.kernel
def contended():
    for i in range(1000):
        v[i % 4].y += 1.0
        v[i % 4].xz += ti.math.vec2(1, 2)
        edges[i % 8].w += 1.0
        edges[i % 8].p0 += ti.math.vec2(0, 1)


@ti.kernel
def parallel():
    n[None] = 0
    for i in range(40):
        if i % 3 != 0:
            edges[slot()] = Edge(ti.math.vec2(i, 0), ti.math.vec2(0, i), ti.f32(i))
            count[None] += 1


@ti.kernel
def total() -> ti.f32:
    s = 0.0
    for k in range(n[None]):
        s += edges[k].w + edges[k].p0.x + edges[k].p1.y
    return s


serial()
parallel()
print(n[None], count[None], total())
v.fill(0)
edges.fill(0)
contended()
print(v[0], v[3], edges[0].w, edges[7].w, edges[5].p0)
