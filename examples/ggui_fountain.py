"""A 3-D fountain with ti.ui (GGUI): kernels throw 4096 particles up from
the middle of a floor, gravity brings them down and the floor and walls
bounce them; ti.ui draws the floor as a lit mesh and the particles as
spheres coloured by speed, with a camera you can move (w/a/s/d/e/q and the
right mouse button) and a panel with a gravity slider.

    PYTHONPATH=build/python python3 examples/ggui_fountain.py                  # a window
    KILN_GUI_FRAMES=60 KILN_GUI_SAVE=/tmp/frames python3 examples/ggui_fountain.py   # headless
"""
import taichi as ti

ti.init(arch=ti.cpu)

n = 4096
pos = ti.Vector.field(3, ti.f32, shape=n)
vel = ti.Vector.field(3, ti.f32, shape=n)
color = ti.Vector.field(3, ti.f32, shape=n)
floor = ti.Vector.field(3, ti.f32, shape=4)
floor_idx = ti.field(ti.i32, shape=6)
dt = 1 / 120


@ti.kernel
def launch(frame: ti.i32):
    for i in pos:
        # 24 particles leave the spout each step, in a cone of random directions.
        if i // 24 == frame % (n // 24):
            a = ti.random() * 6.2831853
            s = ti.random() * 0.35
            pos[i] = [0.0, 0.05, 0.0]
            vel[i] = [ti.cos(a) * s, 2.4 + ti.random() * 0.4, ti.sin(a) * s]


@ti.kernel
def step(gravity: ti.f32):
    for i in pos:
        if pos[i].y < -0.5:  # not launched yet
            continue
        v = vel[i] + ti.Vector([0.0, -gravity, 0.0]) * dt
        p = pos[i] + v * dt
        if p.y < 0.02 and ti.abs(p.x) < 1 and ti.abs(p.z) < 1:   # the floor bounces, losing energy
            p.y, v.y = 0.02, -v.y * 0.55
        for k in ti.static([0, 2]):
            if ti.abs(p[k]) > 1 and p.y > 0:                     # so do the walls
                v[k] = -v[k] * 0.8
                p[k] = ti.math.sign(p[k]) * 1.0
        pos[i], vel[i] = p, v
        speed = v.norm()
        color[i] = ti.math.mix(ti.Vector([0.1, 0.3, 0.9]), ti.Vector([1.0, 0.85, 0.3]), ti.min(speed / 3, 1.0))


@ti.kernel
def init():
    for i in pos:
        pos[i] = [0.0, -1.0, 0.0]   # below the floor: launched over the first frames
    for k in ti.static(range(4)):
        floor[k] = [(k % 2) * 2.0 - 1.0, 0.0, (k // 2) * 2.0 - 1.0]
    for k, v in ti.static(enumerate([0, 2, 1, 1, 2, 3])):
        floor_idx[k] = v


init()
window = ti.ui.Window("Kiln fountain (ti.ui)", (640, 480), vsync=True)
canvas = window.get_canvas()
canvas.set_background_color((0.06, 0.07, 0.1))
scene = window.get_scene()
gui = window.get_gui()
camera = ti.ui.Camera()
camera.position(2.2, 1.6, 2.6)
camera.lookat(0.0, 0.6, 0.0)
camera.fov(50)
gravity = 4.0
frame = 0
while window.running:
    if window.get_event(ti.ui.PRESS) and window.event.key == ti.ui.ESCAPE:
        break
    for _ in range(2):
        launch(frame)
        step(gravity)
        frame += 1
    camera.track_user_inputs(window, movement_speed=0.03, hold_key=ti.ui.RMB)
    scene.set_camera(camera)
    scene.ambient_light((0.25, 0.25, 0.25))
    scene.point_light(pos=(1.5, 3.0, 2.0), color=(0.9, 0.9, 0.9))
    scene.mesh(floor, indices=floor_idx, color=(0.55, 0.55, 0.6), two_sided=True)
    scene.particles(pos, radius=0.018, per_vertex_color=color)
    canvas.scene(scene)
    with gui.sub_window("Fountain", 0.02, 0.02, 0.3, 0.12) as w:
        gravity = w.slider_float("gravity", gravity, 0.5, 9.8)
        w.text(f"frame {frame}")
    window.show()
