# Transcendentals on the JIT: sin, cos, tan, asin, acos, atan, tanh, exp, log,
# atan2 and float ** float are libm's functions on every CPU engine, called
# directly from a trace (jit/asm_float.cpp): each loop below runs hot, so its
# values come from machine code, and they must be the interpreter's bits,
# edge values included (NaN, infinities, zeros of both signs, tiny and huge
# arguments), in f32 and f64.
import math

import taichi as ti

ti.init(arch=ti.cpu)

vals = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, 1e-30, -1e-30, 1e-45, 3.0, -7.25, 100.0, 1e10,
        -1e10, 88.5, -104.0, 710.0, math.pi, math.inf, -math.inf, math.nan, 0.999999, 1.000001]
n = len(vals)
reps = 40  # the loop runs n * reps iterations: it is traced; the last n are printed
N = n * reps
ops = ["sin", "cos", "tan", "asin", "acos", "atan", "tanh", "exp", "log", "atan2", "pow"]


def run(dt):
    x = ti.field(dt, N)
    out = ti.field(dt, (len(ops), N))
    for k in range(N):
        x[k] = vals[k % n]

    @ti.kernel
    def calls():
        for k in range(N):
            a = x[k]
            b = x[(k * 7 + 3) % N]
            out[0, k] = ti.sin(a)
            out[1, k] = ti.cos(a)
            out[2, k] = ti.tan(a)
            out[3, k] = ti.asin(a)
            out[4, k] = ti.acos(a)
            out[5, k] = ti.atan(a)
            out[6, k] = ti.tanh(a)
            out[7, k] = ti.exp(a)
            out[8, k] = ti.log(a)
            out[9, k] = ti.atan2(a, b)
            out[10, k] = a ** b

    calls()
    for j, name in enumerate(ops):
        print(dt, name, [out[j, k] for k in range(N - n, N)])


run(ti.f32)
run(ti.f64)
