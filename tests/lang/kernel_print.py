import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def show(n: ti.i32):
    print("n =", n)
    a = 7
    print(a, a * 2, sep=", ")
    print(f"value {a * 3} and {n + 1}")
    print("no newline", end="")
    print("!")

show(5)
print("host after kernel")
