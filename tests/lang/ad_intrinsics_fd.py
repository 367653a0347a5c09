# Every differentiable intrinsic, reverse mode (kernel.grad) and forward mode
# (ti.ad.FwdMode), against central finite differences in f64. Each y[k]
# depends on x[k] (and z[k] for the two-argument ones) only, so one backward
# pass gives every partial and perturbing all inputs at once is a valid
# finite difference for each.
import taichi as ti

ti.init(arch=ti.cpu, default_fp=ti.f64)

names = ["sin", "cos", "tan", "asin", "acos", "atan", "tanh", "exp", "log",
         "sqrt", "rsqrt", "abs", "neg", "floor", "div", "mul", "sub", "pow",
         "atan2", "max", "min", "mod", "select", "cast"]
n = len(names)
x = ti.field(ti.f64, shape=n, needs_grad=True, needs_dual=True)
z = ti.field(ti.f64, shape=n, needs_grad=True, needs_dual=True)
y = ti.field(ti.f64, shape=n, needs_grad=True, needs_dual=True)


@ti.kernel
def compute():
    y[0] = ti.sin(x[0])
    y[1] = ti.cos(x[1])
    y[2] = ti.tan(x[2])
    y[3] = ti.asin(x[3])
    y[4] = ti.acos(x[4])
    y[5] = ti.atan2(x[5], 1.0)
    y[6] = ti.tanh(x[6])
    y[7] = ti.exp(x[7])
    y[8] = ti.log(x[8])
    y[9] = ti.sqrt(x[9])
    y[10] = ti.rsqrt(x[10])
    y[11] = ti.abs(x[11])
    y[12] = -x[12]
    y[13] = ti.floor(x[13]) + x[13] * 0.5
    y[14] = x[14] / z[14]
    y[15] = x[15] * z[15]
    y[16] = x[16] - 3.0 * z[16]
    y[17] = x[17] ** z[17]
    y[18] = ti.atan2(x[18], z[18])
    y[19] = ti.max(x[19], z[19])
    y[20] = ti.min(x[20], z[20])
    y[21] = x[21] % z[21]
    y[22] = ti.select(x[22] > z[22], x[22] * x[22], z[22] * 3.0)
    y[23] = ti.cast(ti.cast(x[23] * 4.0, ti.i32), ti.f64) * z[23] + x[23]


def reset_inputs():
    for k in range(n):
        x[k] = 0.3 + 0.37 * (k % 5) / 5.0 if k != 11 else -0.7
        z[k] = 1.3 + 0.1 * (k % 3)
    x[21] = 2.9  # x % z = x - 2 z
    x[22] = 2.0  # select takes its first branch


def central(field, h=1e-6):
    reset_inputs()
    for k in range(n):
        field[k] += h
    compute()
    plus = y.to_numpy()
    reset_inputs()
    for k in range(n):
        field[k] -= h
    compute()
    minus = y.to_numpy()
    return (plus - minus) / (2 * h)


fd_x = central(x)
fd_z = central(z)

reset_inputs()
compute()
y.grad.fill(1.0)
x.grad.fill(0.0)
z.grad.fill(0.0)
compute.grad()
rev_x = x.grad.to_numpy()
rev_z = z.grad.to_numpy()

reset_inputs()
with ti.ad.FwdMode(loss=y, param=x, seed=[1.0] * n):
    compute()
fwd_x = y.dual.to_numpy()
reset_inputs()
with ti.ad.FwdMode(loss=y, param=z, seed=[1.0] * n):
    compute()
fwd_z = y.dual.to_numpy()


def close(a, b):
    return abs(a - b) <= 1e-6 * (1.0 + abs(b))


for k, name in enumerate(names):
    ok = (close(rev_x[k], fd_x[k]) and close(rev_z[k], fd_z[k])
          and close(fwd_x[k], fd_x[k]) and close(fwd_z[k], fd_z[k]))
    if ok:
        print(name, "ok", f"{rev_x[k]:.6f}", f"{rev_z[k]:.6f}")
    else:
        print(name, "MISMATCH", "rev", rev_x[k], rev_z[k], "fwd", fwd_x[k], fwd_z[k],
              "fd", fd_x[k], fd_z[k])
