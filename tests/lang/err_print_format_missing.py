import taichi as ti
ti.init(arch=ti.cpu)


@ti.kernel
def show():
    print('{0} {1} {2}'.format(1, 2))


show()
