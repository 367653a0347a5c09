# ti.loop_config(block_dim=...) takes a positive integer known at compile time.
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=8)


@ti.kernel
def run():
    ti.loop_config(block_dim=0)
    for i in x:
        x[i] = i


run()
