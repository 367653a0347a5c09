# print_ir shows seed 001's list generation: clear_list/listgen per level, then struct_for.
import taichi as ti
ti.init(arch=ti.cpu, print_ir=True)
x = ti.field(ti.i32)
S0 = ti.root
S1 = S0.dense(ti.i, 4)
S2 = S1.bitmasked(ti.i, 4)
S2.place(x)

@ti.kernel
def func():
    for i in x:
        print(i)

x[6] = 1
func()
