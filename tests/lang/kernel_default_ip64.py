import taichi as ti
ti.init(arch=ti.cpu, default_ip=ti.i64)

@ti.kernel
def big() -> int:
    a = 1
    ti.loop_config(serialize=True)
    for i in range(40):
        a *= 2
    return a

print(big())
