# A program that needs CPython: argparse, numpy and command-line arguments
# (py_args.args), debugged into its kernel.
import argparse

import numpy as np
import taichi as ti

parser = argparse.ArgumentParser()
parser.add_argument("--n", type=int, default=4)
parser.add_argument("--scale", type=float, default=1.0)
args = parser.parse_args()

ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=args.n)


@ti.func
def bump(v):
    w = v + 1
    return w


@ti.kernel
def fill(k: ti.f32):
    for i in x:
        a = i * k
        x[i] = bump(a)


def main():
    weights = np.linspace(0.0, 1.0, args.n)
    fill(args.scale)
    total = float(x.to_numpy() @ weights)
    print(f"n={args.n} total={total:.3f}")


main()
