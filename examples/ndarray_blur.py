# A box blur of a small numpy "image" in a kernel: the image and the result
# are numpy arrays passed by reference (ti.types.ndarray()), and the same
# compiled kernel serves images of any size.
#   scripts/run examples/ndarray_blur.py
import taichi as ti
import numpy as np

ti.init(arch=ti.cpu)


@ti.kernel
def blur(src: ti.types.ndarray(dtype=ti.f32, ndim=2), dst: ti.types.ndarray(dtype=ti.f32, ndim=2)):
    h, w = src.shape[0], src.shape[1]
    for i, j in dst:
        s = 0.0
        n = 0
        for di in ti.static(range(-1, 2)):
            for dj in ti.static(range(-1, 2)):
                y, x = i + di, j + dj
                if 0 <= y < h and 0 <= x < w:
                    s += src[y, x]
                    n += 1
        dst[i, j] = s / n


img = np.zeros((6, 8), dtype=np.float32)
img[2:4, 3:5] = 9.0  # a bright square
out = np.zeros_like(img)
blur(img, out)
print(out)
big = np.ones((64, 64), dtype=np.float32)
big_out = np.zeros_like(big)
blur(big, big_out)  # same kernel, another shape: no recompilation
print("64x64 of ones stays ones:", np.allclose(big_out, 1.0), "mean", big_out.mean())
