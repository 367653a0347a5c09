# Floor % and // by constants of a range-for's counter: over constant bounds
# from >= 0 the JIT knows the counter (and the counter + 1) is not negative
# and drops the sign fix; from a negative begin, up to the i32 maximum, or
# with a bound from an argument it must keep it. Every engine as Python.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=2)
out = ti.field(ti.i64, shape=8)

@ti.kernel
def sums(n: ti.i32):
    for k in range(0, 5000):
        ti.atomic_add(out[0], k % 1000 + (k + 1) % 997 * 3 + k // 7 + (k + 1) // 1000)
    for k in range(-2500, 2500):
        ti.atomic_add(out[1], k % 1000 + (k + 1) % 997 * 3 + k // 7 + (k + 1) // 1000)
    for k in range(2147482000, 2147483646):
        ti.atomic_add(out[2], k % 1000 + (k + 1) % 997 * 3 + k // 7 % 1000 + (k + 1) // 1000 % 1000)
    for k in range(2147482000, 2147483647):
        ti.atomic_add(out[3], k % 1000 + (k + 1) % 997 * 3 + k // 7 % 1000)
    for k in range(n - 3000, n):
        ti.atomic_add(out[4], k % 1000 + (k + 1) % 997 * 3 + k // 7)
    for k in range(0, 4096):
        ti.atomic_add(out[5], (k * 13) % 4096 + (k * 13 % 4096) % 1000 + (k & 255) % 7)

sums(1000)
print([out[i] for i in range(6)])

def py(lo, hi, f):
    return sum(f(k) for k in range(lo, hi))

f = lambda k: k % 1000 + (k + 1) % 997 * 3 + k // 7 + (k + 1) // 1000
print([py(0, 5000, f), py(-2500, 2500, f),
       py(2147482000, 2147483646, lambda k: k % 1000 + (k + 1) % 997 * 3 + k // 7 % 1000 + (k + 1) // 1000 % 1000),
       py(2147482000, 2147483647, lambda k: k % 1000 + (k + 1) % 997 * 3 + k // 7 % 1000),
       py(-2000, 1000, lambda k: k % 1000 + (k + 1) % 997 * 3 + k // 7),
       py(0, 4096, lambda k: (k * 13) % 4096 + (k * 13 % 4096) % 1000 + (k & 255) % 7)])
