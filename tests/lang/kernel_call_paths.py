# A kernel call from Python runs in C (python/core/kernel_method.cpp) unless
# a tape, forward mode or the kernel profiler is on, when the Python method
# Kernel._call does: both give the same results, and the C way passes
# positional and keyword arguments, return values and errors through.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=4, needs_grad=True)
loss = ti.field(ti.f32, shape=(), needs_grad=True)


@ti.kernel
def fill(a: ti.f32, b: ti.i32):
    for i in x:
        x[i] = a * i + b


@ti.kernel
def total() -> ti.f32:
    s = 0.0
    for i in x:
        s += x[i]
    return s


@ti.kernel
def square_sum():
    for i in x:
        loss[None] += x[i] * x[i]


sums = []
for k in range(12):  # past CPython's warm-up of a function (8 calls)
    fill(1.5, k)
    sums.append(total())
print("positional", sums)
fill(b=2, a=0.5)
print("keywords", total())
f = fill
f(2.0, b=1)
print("alias", total())
try:
    fill(1.0)
except TypeError as e:
    print("TypeError", e)
try:
    fill(1.0, 2, c=3)
except TypeError as e:
    print("TypeError", e)
with ti.ad.Tape(loss=loss):
    square_sum()
print("tape", loss[None], [x.grad[i] for i in range(4)])


@ti.data_oriented
class Scaler:
    def __init__(self, s):
        self.s = s

    @ti.kernel
    def apply(self, add: ti.f32):
        for i in x:
            x[i] = x[i] * self.s + add


sc = Scaler(3.0)
sc.apply(1.0)
print("method", total())

ti.init(arch=ti.cpu, kernel_profiler=True)
y = ti.field(ti.i32, shape=3)


@ti.kernel
def count(n: ti.i32) -> ti.i32:
    for i in y:
        y[i] += n
    return y[0] + y[1] + y[2]


print("profiled", count(2), count(n=5))
