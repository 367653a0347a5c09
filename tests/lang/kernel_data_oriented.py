import taichi as ti
ti.init(arch=ti.cpu)

@ti.data_oriented
class Counter:
    def __init__(self, n):
        self.n = n
        self.v = ti.field(ti.i32, shape=n)

    @ti.kernel
    def bump(self, k: ti.i32):
        for i in self.v:
            self.v[i] += i * k

    def total(self):
        return sum(self.v[i] for i in range(self.n))

c = Counter(5)
c.bump(2)
c.bump(1)
print(c.total())
