import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run():
    for i in range(4)
        print(i)
