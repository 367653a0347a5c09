# host print and kernel print share one stream, in program order
import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def say(k: ti.i32):
    print("kernel says", k)

for i in range(3):
    print("host", i)
    say(i)
print("end", end="")
print("!")
