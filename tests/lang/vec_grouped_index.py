import taichi as ti
ti.init(arch=ti.cpu)
img = ti.field(ti.i32, shape=(3, 4))
grad = ti.Vector.field(2, ti.i32, shape=(3, 4))


@ti.kernel
def fill():
    for I in ti.grouped(img):
        img[I] = I.sum() * 10 + I[0]
        grad[I] = I * 2 + ti.Vector([1, 0])


@ti.kernel
def show():
    for I in ti.grouped(ti.ndrange(2, 2)):
        print(I, img[I], grad[I])


fill()
show()
print([img[2, j] for j in range(4)], grad[2, 3][0], grad[2, 3][1])
