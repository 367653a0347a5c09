import taichi as ti
ti.init(arch=ti.cpu)
steps = ti.field(ti.i32, shape=8)

@ti.kernel
def collatz():
    for i in range(1, 8):
        n = i
        k = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            k += 1
        steps[i] = k

collatz()
print([steps[i] for i in range(8)])
