import taichi as ti
ti.init(arch=ti.cpu, debug=True)
x = ti.field(ti.i32, shape=8)

@ti.kernel
def check():
    for i in x:
        assert x[i] < 5, "value too large"

for i in range(8):
    x[i] = i
x[5] = 0
x[6] = 3
x[7] = 4
check()
print("passed")
x[3] = 9
check()
