import taichi as ti
ti.init(arch=ti.cpu)
total = ti.field(ti.i32, shape=())

@ti.kernel
def sum_to(n: ti.i32):
    for i in range(n):
        total[None] += i

sum_to(100)
print(total[None])
sum_to(10)
print(total[None])
