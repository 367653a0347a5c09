import taichi as ti
ti.init(arch=ti.cpu, print_ir=True)

@ti.kernel
def foo():
    for i in range(10):
        if i < 4:
            print(i)

foo()
