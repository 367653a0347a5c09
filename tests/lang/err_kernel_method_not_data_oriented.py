# As in Taichi: a kernel defined in a class runs only on instances of a class
# marked @ti.data_oriented (a subclass's mark counts).
import taichi as ti
ti.init(arch=ti.cpu)


class Counter:
    def __init__(self):
        self.total = ti.field(ti.i32, shape=())

    @ti.kernel
    def add(self, n: ti.i32):
        self.total[None] += n


@ti.data_oriented
class Marked(Counter):
    pass


m = Marked()
m.add(3)
print(m.total[None])
c = Counter()
c.add(1)
