import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def show():
    a = 2.5
    print(f"a={a:.3f} b={7:4d}|")

show()
