# ti.append returns the old length; ti.length counts the list.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.dense(ti.i, 3).dynamic(ti.j, 32, chunk_size=4).place(x)

@ti.kernel
def build():
    for i in range(3):
        for k in range(i * 5):
            old = ti.append(x.parent(), i, k * 10)
            if old != k:
                print("wrong slot", i, k, old)

@ti.kernel
def lengths():
    print(ti.length(x.parent(), 0), ti.length(x.parent(), 1), ti.length(x.parent(), 2))

build()
lengths()
print(x[1, 4], x[2, 9], x[2, 10])
