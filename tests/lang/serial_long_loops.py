# Serial loops of hundreds of thousands of passes: a kernel-scope while, a
# serialized range loop around a while, two such loops in one kernel with
# code between them, prints and ti.random inside, and a parallel loop after
# them that reads what they wrote. On lavapipe (one counter of 65535 loop
# passes per invocation) the serial task stops before the limit and resumes
# in another dispatch (gpu/vulkan/codegen_resume.cpp); every engine prints
# the interpreter's output.
import taichi as ti

ti.init(arch=ti.cpu, random_seed=3)
acc = ti.field(ti.i64, shape=8)
out = ti.field(ti.i64, shape=8)


@ti.kernel
def long_serial(n: ti.i32, every: ti.i32) -> ti.i64:
    base = ti.i64(n) * 3  # computed before the loops, used after them
    total = ti.i64(0)
    k = 0
    while k < n:
        total += k % 7
        if k % every == 0:
            print("at", k, total)
        k += 1
    mid = total * 2 + base
    draws = 0.0
    ti.loop_config(serialize=True)
    for i in range(n // 4):
        m = i
        steps = 0
        while m > 1 and steps < 3:
            m //= 2
            steps += 1
        acc[i % 8] += steps
        if i % (every // 2) == 0:
            draws += ti.random()
    for j in range(8):
        out[j] = acc[j] + mid
    return mid + ti.cast(draws * 1000, ti.i64)


@ti.kernel
def after():
    for j in out:
        out[j] -= acc[j]


print(long_serial(300000, 100000))
after()
print(acc.to_numpy().tolist(), out.to_numpy().tolist())
