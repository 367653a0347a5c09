# launch_overhead: what one kernel launch costs the host, per shape (issue 16).
#   small  : bench/small_launches' step (4096 f32, one f32 argument)
#   empty0 : an empty kernel, no arguments
#   empty1 : an empty kernel, one i32 argument
#   empty3 : an empty kernel, i32, f32, i32 arguments
#   ret    : a kernel returning its i32 argument plus one
#   method : an empty kernel method of a @ti.data_oriented object, one i32
#            argument (`self` is a template argument)
#   tmpl   : an empty kernel of a ti.template() field and an i32
#   kw     : empty3 called with keywords (`empty3(k, c=3, b=0.5)`)
#   dflt   : an empty kernel of an i32 and two defaulted arguments, called with one
# Prints "<shape> <us per launch>", the best of 5 rounds of N launches, so that
# bench/launch_overhead_run.py can take min/median over processes and builds.
# Runs on both hosts: PYTHONPATH=build/python python3 ... and build/kiln run ...
import taichi as ti
import time

ti.init()
N = 4096
ROUNDS = 5
LAUNCHES = 2000
x = ti.field(ti.f32, shape=N)


@ti.kernel
def init():
    for i in x:
        x[i] = (i % 10) * 0.1


@ti.kernel
def step(a: ti.f32):
    for i in x:
        x[i] = x[i] * a + 0.25


@ti.kernel
def empty0():
    pass


@ti.kernel
def empty1(a: ti.i32):
    pass


@ti.kernel
def empty3(a: ti.i32, b: ti.f32, c: ti.i32):
    pass


@ti.kernel
def ret(a: ti.i32) -> ti.i32:
    return a + 1


@ti.data_oriented
class Holder:
    def __init__(self):
        self.y = ti.field(ti.f32, shape=4)

    @ti.kernel
    def method(self, a: ti.i32):
        pass


holder = Holder()


@ti.kernel
def tmpl(f: ti.template(), a: ti.i32):
    pass


@ti.kernel
def dflt(a: ti.i32, b: ti.f32 = 0.5, c: ti.i32 = 3):
    pass


def best_us(run):
    run()  # compiles, and settles the launcher's serial/parallel choice
    best = 1e30
    for r in range(ROUNDS):
        t = time.perf_counter()
        run()
        dt = time.perf_counter() - t
        if dt < best:
            best = dt
    return best / LAUNCHES * 1e6


def run_small():
    for k in range(LAUNCHES):
        step(0.5)


def run_empty0():
    for k in range(LAUNCHES):
        empty0()


def run_empty1():
    for k in range(LAUNCHES):
        empty1(k)


def run_empty3():
    for k in range(LAUNCHES):
        empty3(k, 0.5, 3)


def run_ret():
    s = 0
    for k in range(LAUNCHES):
        s += ret(k)
    if s != LAUNCHES * (LAUNCHES + 1) // 2:
        print("wrong sum", s)

def run_method():
    for k in range(LAUNCHES):
        holder.method(k)


def run_tmpl():
    for k in range(LAUNCHES):
        tmpl(x, k)


def run_kw():
    for k in range(LAUNCHES):
        empty3(k, c=3, b=0.5)


def run_dflt():
    for k in range(LAUNCHES):
        dflt(k)


init()
print("small", best_us(run_small))
print("empty0", best_us(run_empty0))
print("empty1", best_us(run_empty1))
print("empty3", best_us(run_empty3))
print("ret", best_us(run_ret))
print("method", best_us(run_method))
print("tmpl", best_us(run_tmpl))
print("kw", best_us(run_kw))
print("dflt", best_us(run_dflt))
