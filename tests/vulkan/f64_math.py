# exp, log, sin, cos, tan, asin, acos, atan, tanh, atan2 and pow of f64 on the
# device (computed in SPIR-V arithmetic: GLSL.std.450 has them for f32 only)
# agree with the C library the CPU engines call to a few ulp, over wide
# random arguments, and exactly at the special values (zeros, infinities,
# NaN, domain edges).
import math
import random
import taichi as ti

ti.init(arch=ti.vulkan, default_fp=ti.f64)
N = 4000
x = ti.field(ti.f64, shape=N)
y = ti.field(ti.f64, shape=N)
out = ti.field(ti.f64, shape=(13, N))


@ti.kernel
def run():
    for i in x:
        a = x[i]
        out[0, i] = ti.exp(a * 0.75)
        out[1, i] = ti.log(ti.abs(a))
        out[2, i] = ti.sin(a)
        out[3, i] = ti.cos(a)
        out[4, i] = ti.tan(a)
        out[5, i] = ti.asin(y[i])
        out[6, i] = ti.acos(y[i])
        out[7, i] = ti.atan(a)
        out[8, i] = ti.tanh(a * 0.1)
        out[9, i] = ti.atan2(a, y[i])
        out[10, i] = ti.log(ti.abs(a) * 1e-300 * 1e-15)  # subnormal arguments
        out[11, i] = ti.abs(a) ** (y[i] * 8.0)
        out[12, i] = a ** ti.floor(y[i] * 5.0)  # negative bases, integer exponents


random.seed(7)
specials = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 0.5, 1e-310, 709.0, -745.0, math.pi]
xs = specials + [random.choice([-1, 1]) * math.exp(random.uniform(-30, 6.5)) for _ in range(N - len(specials))]
ys = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, math.nan, 1.5, 1e-300, math.inf, -math.inf, 0.25]
ys += [random.uniform(-1, 1) for _ in range(N - len(ys))]
for i in range(N):
    x[i] = xs[i]
    y[i] = ys[i]
run()
def c_pow(a, e):  # C's pow where Python's raises: 0 ** negative is +-inf
    if a == 0 and e < 0:
        return math.copysign(math.inf, a) if e % 2 else math.inf
    return math.pow(a, e)


host = [lambda a, b: math.exp(a * 0.75), lambda a, b: math.log(abs(a)) if a != 0 else -math.inf,
        lambda a, b: math.sin(a), lambda a, b: math.cos(a), lambda a, b: math.tan(a),
        lambda a, b: math.asin(b) if abs(b) <= 1 else math.nan,
        lambda a, b: math.acos(b) if abs(b) <= 1 else math.nan, lambda a, b: math.atan(a), lambda a, b: math.tanh(a * 0.1),
        math.atan2, lambda a, b: math.log(abs(a) * 1e-300 * 1e-15) if a * 1e-300 * 1e-15 != 0 else -math.inf,
        lambda a, b: math.pow(abs(a), b * 8.0), lambda a, b: c_pow(a, math.floor(b * 5.0) if math.isfinite(b) else b)]
names = ["exp", "log", "sin", "cos", "tan", "asin", "acos", "atan", "tanh", "atan2", "log_subnormal", "pow", "pow_neg"]


def ulps(got, want):
    if math.isnan(want) or math.isnan(got):
        return 0 if math.isnan(want) and math.isnan(got) else math.inf
    if math.isinf(want) or got == want:
        return 0 if got == want and math.copysign(1, got) == math.copysign(1, want) else math.inf
    return abs(got - want) / math.ulp(want)


for f in range(13):
    worst = 0.0
    for i in range(N):
        a, b = xs[i], ys[i]
        if f in (2, 3, 4) and (math.isinf(a) or math.isnan(a)):
            want = math.nan
        else:
            try:
                want = host[f](a, b)
            except ValueError:
                want = math.nan
            except OverflowError:
                want = math.inf
        worst = max(worst, ulps(out[f, i], want))
    print(names[f], "within 3 ulp:", worst <= 3)
