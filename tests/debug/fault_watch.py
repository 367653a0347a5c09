import taichi as ti
ti.init(arch=ti.cpu, debug=True)

x = ti.field(ti.i32, shape=8)

@ti.kernel
def fill():
    for i in x:
        x[i] = i * i

@ti.kernel
def bad(k: ti.i32):
    for i in range(4):
        j = i + k
        x[j] = 1

def main():
    fill()
    s = 0
    for i in range(8):
        s += x[i]
    print("sum", s)
    bad(5)

main()
