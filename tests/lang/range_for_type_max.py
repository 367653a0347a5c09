# Parallel range-fors that end at their index type's maximum (or start at its
# minimum): each iteration runs once and no index wraps past the end, on every
# engine and backend (a GPU's grid-stride loop steps by the whole grid).
import taichi as ti

ti.init(arch=ti.cpu)
count = ti.field(ti.i64, shape=6)
total = ti.field(ti.i64, shape=6)


@ti.kernel
def loops(lo: ti.i32):
    for i in range(2147482000, 2147483647):
        count[0] += 1
        total[0] += i % 1000
    for i in range(2147483000, 2147483647):
        count[1] += 1
        total[1] += 2147483647 - i
    for i in range(lo, 2147483647):  # bounds known only at launch
        count[2] += 1
        total[2] += i % 7
    for i in range(-2147483648, -2147483000):
        count[3] += 1
        total[3] += i % 1000
    for i in range(ti.i64(9223372036854775000), ti.i64(9223372036854775807)):
        count[4] += 1
        total[4] += i % 1000
    for i in range(2147483646, 2147483647):
        count[5] += 1
        total[5] += i % 1000


loops(2147480000)
print(count.to_numpy().tolist())
print(total.to_numpy().tolist())
