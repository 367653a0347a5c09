import taichi as ti
ti.init(arch=ti.cpu)


@ti.kernel
def show(u: ti.u32):
    print(f'{u + 1:d}')


show(7)
