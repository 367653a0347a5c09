"""ti.GUI's per-frame costs against numpy doing comparable work in the same run.

    PYTHONPATH=build/python python3 bench/gui_canvas.py

set_image of a 512x512 RGB f32 field (read in place through DLPack, converted
to bytes by vm/gui) against numpy's clip*255->uint8 of the same array; 10k
circles through GUI.circles against numpy computing their pixel centres."""
import time

import numpy as np

import taichi as ti
from taichi._gui import GUI


def best(fn, reps=20):
    fn()
    t = []
    for _ in range(reps):
        s = time.perf_counter()
        fn()
        t.append(time.perf_counter() - s)
    return min(t) * 1e3


ti.init(arch=ti.cpu)
res = 512
img = ti.Vector.field(3, ti.f32, shape=(res, res))


@ti.kernel
def paint():
    for i, j in img:
        img[i, j] = ti.Vector([i / res, j / res, 0.5])


paint()
gui = GUI("bench", res=res, show_gui=False)
a = img.to_numpy()
t_field = best(lambda: gui.set_image(img))
t_array = best(lambda: gui.set_image(a))
t_copy = best(lambda: img.to_numpy())
t_numpy = best(lambda: (np.clip(a, 0, 1) * 255).astype(np.uint8))
print(f"set_image(512x512x3 f32 field) {t_field:.2f} ms, of a numpy array {t_array:.2f} ms; "
      f"field.to_numpy() alone {t_copy:.2f} ms; numpy clip*255->u8 {t_numpy:.2f} ms "
      f"(set_image/numpy = {t_field / t_numpy:.2f})")
pos = np.random.default_rng(1).random((10000, 2)).astype(np.float32)
t_circles = best(lambda: gui.circles(pos, radius=2, color=0xFFAA00))
t_np = best(lambda: (pos * res).astype(np.int32))
print(f"circles(10000, radius 2) {t_circles:.2f} ms; numpy positions->pixels {t_np:.3f} ms")
t_show = best(lambda: gui.show())
print(f"show() headless (widgets, clear) {t_show:.3f} ms")
