# A first GUI program: a gradient computed by a kernel, a circle and a line,
# shown to a PNG and read back; prints pixels (column from the left, row from
# the bottom) that test_gui.py compares with first_gui.expected.
import os
import tempfile

import taichi as ti

ti.init(arch=ti.cpu)
W, H = 64, 32
img = ti.Vector.field(3, dtype=ti.f32, shape=(W, H))


@ti.kernel
def gradient():
    for i, j in img:
        img[i, j] = ti.Vector([i / (W - 1), j / (H - 1), 0.25])


gradient()
gui = ti.GUI("first", res=(W, H), show_gui=False)
gui.set_image(img)
gui.circle((0.25, 0.5), color=0xFFFFFF, radius=4)
gui.line((0.5, 4.5 / H), (0.9, 4.5 / H), radius=1, color=0x00FF00)
path = os.path.join(tempfile.mkdtemp(), "first.png")
gui.show(path)
back = ti.tools.imread(path)
print("shape", back.shape, back.dtype)
for i, j in [(0, 0), (W - 1, 0), (0, H - 1), (W - 1, H - 1), (16, 16), (16 + 3, 16), (16 + 4, 16), (40, 4), (40, 5)]:
    print((i, j), [int(c) for c in back[i, j]])
os.remove(path)
