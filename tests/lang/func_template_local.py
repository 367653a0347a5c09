# A caller's local variable given for a ti.template() parameter of a ti.func
# is that variable: the func's updates (swizzles, +=, plain assignment)
# change the caller's, as in Taichi's oit_renderer example (front-to-back
# blending into a local colour). Other arguments still pass by value.
import taichi as ti

ti.init(arch=ti.cpu)

vec4 = ti.math.vec4
background = ti.Vector.field(4, ti.f32, shape=())


@ti.func
def blend(color: ti.template(), base: ti.template()):
    color.rgb += (1 - color.a) * base.rgb * base.a
    color.a += (1 - color.a) * base.a


@ti.func
def bump(n: ti.template(), m):
    n += 10
    m += 10  # a copy: the caller's value stays


@ti.func
def reset(v: ti.template()):
    v = vec4(7)


@ti.kernel
def run():
    background[None] = [1, 0.5, 0.25, 1]
    c = vec4(0)
    c.rgb += 1.0
    blend(c, vec4(0.5, 0.5, 0.5, 0.5))
    blend(c, background[None])
    print(c)
    k, j = 1, 2
    bump(k, j)
    print(k, j)
    reset(c)
    print(c)


run()
