"""A particle fountain: kernels move 8192 particles under gravity, bounce
them off the walls and fade their trails into an image; ti.GUI shows the
trails (set_image), the particles coloured by speed (circles with a
palette), a slider and a caption. Hold the left mouse button to pull the
particles toward the pointer; Escape quits.

    PYTHONPATH=build/python python3 examples/gui_particles.py
    KILN_GUI_FRAMES=30 KILN_GUI_SAVE=/tmp/frames python3 examples/gui_particles.py   # headless
"""
import taichi as ti

ti.init(arch=ti.cpu)

res = 512
n = 8192
dt = 2e-3
substeps = 4
palette = [0x3B4CC0, 0x7B9FF9, 0xC0D4F5, 0xF2CBB7, 0xEE8468, 0xB40426]  # slow .. fast

pos = ti.Vector.field(2, dtype=ti.f32, shape=n)
vel = ti.Vector.field(2, dtype=ti.f32, shape=n)
life = ti.field(dtype=ti.f32, shape=n)
speed_class = ti.field(dtype=ti.i32, shape=n)
trail = ti.Vector.field(3, dtype=ti.f32, shape=(res, res))
pointer = ti.Vector.field(2, dtype=ti.f32, shape=())


@ti.func
def launch(i, t):
    """Particle i leaves the nozzle, then flies for t seconds of free fall."""
    angle = 1.5708 + (ti.random() - 0.5) * 0.4
    speed = 3.0 + ti.random() * 0.6
    v0 = speed * ti.Vector([ti.cos(angle), ti.sin(angle)])
    g = ti.Vector([0.0, -9.8])
    pos[i] = ti.Vector([0.5 + (ti.random() - 0.5) * 0.02, 0.02]) + v0 * t + 0.5 * g * t * t
    vel[i] = v0 + g * t
    life[i] = 0.9 + ti.random() * 0.5 - t


@ti.kernel
def start():
    for i in range(n):
        launch(i, ti.random() * 0.6)  # a fountain already in full flow


@ti.kernel
def step(pull: ti.f32):
    for i in range(n):
        d = pointer[None] - pos[i]
        acc = ti.Vector([0.0, -9.8]) + pull * d / (d.norm_sqr() + 0.01)
        vel[i] += acc * dt
        pos[i] += vel[i] * dt
        for k in ti.static(range(2)):  # walls: bounce and lose some energy
            if pos[i][k] < 0.0:
                pos[i][k] = -pos[i][k]
                vel[i][k] = -0.6 * vel[i][k]
            if pos[i][k] > 1.0:
                pos[i][k] = 2.0 - pos[i][k]
                vel[i][k] = -0.6 * vel[i][k]
        life[i] -= dt
        if life[i] < 0.0:
            launch(i, 0.0)
        speed_class[i] = ti.min(ti.cast(vel[i].norm() * 1.8, ti.i32), 5)


@ti.kernel
def paint():
    for i, j in trail:
        trail[i, j] *= 0.9
    for p in range(n):
        x = ti.cast(pos[p][0] * res, ti.i32)
        y = ti.cast(pos[p][1] * res, ti.i32)
        if 0 <= x and x < res and 0 <= y and y < res:
            trail[x, y] += ti.Vector([0.25, 0.35, 0.6])


gui = ti.GUI("Kiln particles", res=res, background_color=0x000000)
strength = gui.slider("pull", 0.0, 4.0, step=0.5)
strength.value = 2.0
start()
while gui.running:
    for e in gui.get_events(ti.GUI.PRESS):
        if e.key in (ti.GUI.ESCAPE, ti.GUI.EXIT):
            gui.running = False
    mx, my = gui.get_cursor_pos()
    pointer[None] = [mx, my]
    pull = strength.value if gui.is_pressed(ti.GUI.LMB) else 0.0
    for _ in range(substeps):
        step(pull)
    paint()
    gui.set_image(trail)
    gui.circles(pos.to_numpy(), radius=1.5, palette=palette, palette_indices=speed_class.to_numpy())
    gui.text(f"{n} particles, frame {gui.frame}", pos=(0.02, 0.98), font_size=18, color=0xDDDDDD)
    gui.show()
