import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run(k: ti.i32):
    v = ti.Vector([10, 20, 30, 40])
    print(v.x, v.w, v.xy, v.zyx)
    print(v[k], v[3 - k])
    v[k] = 99
    v.y = 7
    print(v)
    v.zw = ti.Vector([1, 2])
    print(v.rgba)

run(2)
