import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run(n: ti.i32):
    return n * 2

print("before")
print(run(3))
