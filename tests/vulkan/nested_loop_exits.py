# Loops nested in ifs nested in loops, on lavapipe. (1) A serial task runs in
# one invocation of 8 SIMD lanes: the 7 lanes outside the workgroup must stay
# masked off inside such nests (they used to iterate on zeros until the
# driver's loop limiter ended every loop: these printed 1). (2) The driver
# counts one pass of a loop that sits in an untaken if on every pass of the
# loop around it: the kernel's count of passes includes them, so a kernel
# that needs more than 65535 in all stops with an error instead of returning
# a truncated result (capped_collatz in tests/lang/jit_loop_exits did).
import taichi as ti

ti.init(arch=ti.vulkan)


@ti.func
def pow2_steps(k):
    n = k
    steps = 0
    while n != 1:
        if (n & (n - 1)) == 0:  # a power of two: halve to the end, then stop
            while n != 1:
                n >>= 1
                steps += 1
            break
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@ti.kernel
def collatz_pow2(k: ti.i32) -> ti.i32:
    return pow2_steps(k)


@ti.kernel
def count_down_evens(k: ti.i32) -> ti.i32:
    n = k
    steps = 0
    while n != 1:
        if (n & 1) == 0:
            while n != 1:
                n = n - 1
                steps += 1
        else:
            n = 3 * n + 1
            steps += 1
    return steps


@ti.kernel
def sum_collatz(lo: ti.i32, hi: ti.i64) -> ti.i64:
    total = ti.i64(0)
    ti.loop_config(serialize=True)
    for k in range(lo, hi):
        total += pow2_steps(ti.i64(k))
    return total


# A loop beside an if (never taken) that holds a loop: two driver passes per
# iteration. (Inside an if: a top-level loop would resume in another
# dispatch before the limit, tests/vulkan/err_loop_limit.)
@ti.kernel
def beside(n: ti.i32, m: ti.i32) -> ti.i32:
    it = 0
    j = 0
    if n > 0:
        while it < n:
            it += 1
            if it == m:
                j = it
                while j > 0:
                    j -= 1
    return it + j


def py_collatz_pow2(n):
    steps = 0
    while n != 1:
        if n & (n - 1) == 0:
            return steps + n.bit_length() - 1
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


print([collatz_pow2(k) for k in (1, 3, 5, 7, 27)])
print([collatz_pow2(k) == py_collatz_pow2(k) for k in (1, 3, 5, 7, 27)])
print(count_down_evens(5), count_down_evens(7))
print(sum_collatz(1, 300), sum(py_collatz_pow2(k) for k in range(1, 300)))
print(beside(30000, -1))
print(beside(40000, -1))
