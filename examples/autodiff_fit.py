# Differentiable programming: fit a curve by gradient descent.
# ti.ad.Tape records the kernels launched in its block and, on leaving it,
# runs their adjoints (reverse mode) so that every field created with
# needs_grad=True holds d(loss)/d(field). ti.ad.FwdMode computes one
# directional derivative (forward mode) in the same launch as the values.
#
#   python3 examples/autodiff_fit.py
import math

import taichi as ti

ti.init(arch=ti.cpu, default_fp=ti.f64)

n = 64
xs = ti.field(float, shape=n)
ys = ti.field(float, shape=n)
coef = ti.field(float, shape=3, needs_grad=True, needs_dual=True)  # a * sin(b * x) + c
loss = ti.field(float, shape=(), needs_grad=True, needs_dual=True)


@ti.kernel
def make_data():
    for i in xs:
        x = i / n * 4.0
        xs[i] = x
        ys[i] = 1.5 * ti.sin(2.0 * x) + 0.25


@ti.func
def model(x):
    return coef[0] * ti.sin(coef[1] * x) + coef[2]


@ti.kernel
def compute_loss():
    for i in xs:
        r = model(xs[i]) - ys[i]
        loss[None] += r * r / n


@ti.kernel
def step(lr: float):
    for k in coef:
        coef[k] -= lr * coef.grad[k]


make_data()
coef[0], coef[1], coef[2] = 1.0, 1.8, 0.0

# forward mode: d(loss)/d(b) at the starting point, against a central difference
with ti.ad.FwdMode(loss=loss, param=coef, seed=[0.0, 1.0, 0.0]):
    loss[None] = 0.0
    compute_loss()
dual = loss.dual[None]
h = 1e-6
b = coef[1]
vals = []
for v in (b + h, b - h):
    coef[1] = v
    loss[None] = 0.0
    compute_loss()
    vals.append(loss[None])
coef[1] = b
print(f"d loss / d b: forward mode {dual:.6e}, finite difference {(vals[0] - vals[1]) / (2 * h):.6e}")

for it in range(400):
    with ti.ad.Tape(loss=loss):
        compute_loss()
    step(0.05)
    if it % 100 == 0:
        print(f"step {it:3d}  loss {loss[None]:.6f}")

print(f"fit: a={coef[0]:.3f} b={coef[1]:.3f} c={coef[2]:.3f}  loss {loss[None]:.2e}")

