import taichi as ti

ti.init(arch=ti.cpu)
vec3f = ti.types.vector(3, float)
line3f = ti.types.struct(linedir=vec3f, length=float)
item = ti.types.struct(line=line3f, idx=int)
x = item.field(shape=2)


@ti.kernel
def build():
    # a scalar for a struct fills its first member (recursively); the rest are zero
    x[0] = item(1)
    # a tuple is a vector member's value
    x[1] = item(line=line3f((0.5, 1.5, 2.5), 4), idx=7)


build()
print(x[0].line.linedir, x[0].line.length, x[0].idx)
print(x[1].line.linedir, x[1].line.length, x[1].idx)
