import taichi as ti
ti.init(arch=ti.cpu)


@ti.kernel
def show(k: ti.f32):
    print('{0} {1}'.format(1, 2, k))


show(1.5)
