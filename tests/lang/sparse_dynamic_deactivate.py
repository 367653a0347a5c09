# ti.deactivate on a dynamic list empties it; appends start again at 0.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
lists = ti.root.dense(ti.i, 2).dynamic(ti.j, 16)
lists.place(x)

@ti.kernel
def push(i: ti.i32, n: ti.i32):
    ti.loop_config(serialize=True)
    for k in range(n):
        ti.append(lists, i, k + 1)

@ti.kernel
def clear(i: ti.i32):
    ti.deactivate(lists, i)

@ti.kernel
def report():
    print(ti.length(lists, 0), ti.length(lists, 1))

push(0, 5)
push(1, 3)
report()
clear(0)
report()
print(x[0, 2])
push(0, 2)
report()
print(x[0, 0], x[0, 1], x[0, 2])
