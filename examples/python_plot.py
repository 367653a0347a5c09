"""A Taichi program that lives in the Python ecosystem: argparse for its
options, a kernel for the work, numpy and matplotlib for the picture.

    PYTHONPATH=build/python python3 examples/python_plot.py --out julia.png

Computes the Julia set of z -> z^2 + c on a grid in a kernel, then plots the
escape counts with matplotlib (Agg: no display needed) and prints a summary."""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import taichi as ti  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--size", type=int, default=320, help="pixels per side")
parser.add_argument("--iters", type=int, default=100, help="iterations per pixel")
parser.add_argument("--out", default="julia.png", help="the PNG to write")
args = parser.parse_args()

ti.init(arch=ti.cpu)
n = args.size
counts = ti.field(ti.i32, shape=(n, n))


@ti.kernel
def julia(cr: ti.f32, ci: ti.f32, iters: ti.i32) -> ti.i32:
    inside = 0
    for i, j in counts:
        z = ti.Vector([i / n * 3.0 - 1.5, j / n * 3.0 - 1.5])
        k = 0
        while k < iters and z.norm_sqr() < 4.0:
            z = ti.Vector([z[0] * z[0] - z[1] * z[1] + cr, 2.0 * z[0] * z[1] + ci])
            k += 1
        counts[i, j] = k
        if k == iters:
            inside += 1
    return inside


inside = julia(-0.8, 0.156, args.iters)
img = counts.to_numpy()
fig, ax = plt.subplots(figsize=(4, 4), dpi=80)
ax.imshow(np.log1p(img.T), origin="lower", cmap="magma")
ax.set_axis_off()
fig.savefig(args.out, bbox_inches="tight")
print(f"{n}x{n} pixels, {inside} inside after {args.iters} iterations, mean escape {img.mean():.2f}")
print(f"wrote {args.out}")
