# Recursion past one dispatch's loop budget: fib(24) makes 150049 calls, and
# on Vulkan (lavapipe: 65535 loop passes per invocation) the recursion
# machine of the serial task stops past half of it, leaving its frames on
# the stack, and the task goes on in the next dispatch; a deep walk (1500
# frames) and draws before and after the call keep their values across it.
import taichi as ti
ti.init(arch=ti.cpu)

@ti.real_func
def fib(n: ti.i32) -> ti.i32:
    r = n
    if n >= 2:
        r = fib(n - 1) + fib(n - 2)
    return r

@ti.real_func
def walk(n: ti.i32, acc: ti.i64) -> ti.i64:
    r = acc
    if n > 0:
        r = walk(n - 1, acc + n * n)
    return r

@ti.kernel
def run(n: ti.i32) -> ti.i64:
    a = ti.random(ti.i32) % 1000
    f = fib(n)
    print("fib", n, "=", f)
    w = walk(1500, 0)
    b = ti.random(ti.i32) % 1000
    print("a, b drawn:", a, b, "walk:", w)
    return ti.i64(f) * 1000 + b

print(run(24))
print(run(10))
