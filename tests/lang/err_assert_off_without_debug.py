import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=4)

@ti.kernel
def check():
    for i in x:
        assert x[i] < 0, "never checked without debug=True"

check()
print("asserts are off")
