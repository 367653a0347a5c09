# ti.axes names axes 0..11 (Taichi's 12 indices at most); any other is a
# ValueError at the call, before the layout is built.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.dense(ti.axes(0, 4), (2, 3)).place(x)
print(x.shape)
y = ti.field(ti.i32)
ti.root.dense(ti.axes(0, 12), 2).place(y)
print("not reached")
