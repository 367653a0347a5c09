"""ti.ui (GGUI) on Kiln's CPU renderer (python/taichi/ui over vm/ggui):
2-D canvas drawings and 3-D scenes rendered headless and checked pixel by
pixel, image files, the frame budget, and the errors for bad arguments.
Run by ctest as python/ggui: PYTHONPATH=build/python pytest test_ggui.py."""
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import taichi as ti

W, H = 64, 48


@pytest.fixture(autouse=True)
def headless(monkeypatch):
    """Every test starts offscreen with no frame budget or save directory."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("KILN_GUI_FRAMES", raising=False)
    monkeypatch.delenv("KILN_GUI_SAVE", raising=False)
    ti.init(arch=ti.cpu)


def window(res=(W, H)):
    return ti.ui.Window("test", res, show_window=False)


def rgb(win):
    """The frame as (W, H, 3) bytes, [column, row from the bottom]."""
    return np.rint(win.get_image_buffer_as_numpy()[:, :, :3] * 255).astype(int)


def vec_field(rows, n=None):
    rows = np.asarray(rows, np.float32)
    f = ti.Vector.field(rows.shape[1], ti.f32, shape=len(rows))
    f.from_numpy(rows)
    return f


def test_background_and_triangle_coverage():
    win = window()
    canvas = win.get_canvas()
    canvas.set_background_color((0, 0, 1))
    assert win.get_window_shape() == (W, H)
    # The lower-left half of the window: pixel centres with x + y < 1 (in window units).
    canvas.triangles(vec_field([[0, 0], [1, 0], [0, 1]]), color=(1, 0, 0))
    px = rgb(win)
    assert list(px[2, 2]) == [255, 0, 0] and list(px[W - 3, H - 3]) == [0, 0, 255]
    inside = np.add.outer((np.arange(W) + 0.5) / W, (np.arange(H) + 0.5) / H) < 1 - 1e-3
    red = px[:, :, 0] == 255
    assert (red == inside).mean() > 0.97  # only the diagonal's pixels may differ
    assert red.sum() == pytest.approx(W * H / 2, rel=0.05)


def test_indexed_triangles_blend_per_vertex_colors():
    win = window()
    canvas = win.get_canvas()
    quad = vec_field([[0, 0], [1, 0], [1, 1], [0, 1]])
    colors = vec_field([[1, 0, 0], [1, 0, 0], [0, 0, 1], [0, 0, 1]])
    idx = ti.field(ti.i32, shape=6)
    idx.from_numpy(np.array([0, 1, 2, 0, 2, 3], np.int32))
    canvas.triangles(quad, indices=idx, per_vertex_color=colors)
    px = rgb(win)
    assert (px[:, :, 1] == 0).all()                 # the whole window, green nowhere
    assert px[10, 1, 0] > 240 and px[10, 1, 2] < 15  # red at the bottom
    assert px[10, H - 2, 2] > 240 and px[10, H - 2, 0] < 15  # blue at the top
    mid = px[20, H // 2]
    assert abs(mid[0] - mid[2]) < 12                 # blended half way
    # indices as a field of 3-vectors draw the same
    idx3 = ti.Vector.field(3, ti.i32, shape=2)
    idx3.from_numpy(np.array([[0, 1, 2], [0, 2, 3]], np.int32))
    win2 = window()
    win2.get_canvas().triangles(quad, indices=idx3, per_vertex_color=colors)
    assert (rgb(win2) == px).all()


def test_circle_center_color_and_radius_relative_to_height():
    win = window()
    canvas = win.get_canvas()
    centers = vec_field([[0.5, 0.5], [0.125, 0.25]])
    canvas.circles(centers, radius=0.1, color=(0, 1, 0))  # 4.8 pixels
    px = rgb(win)
    assert list(px[32, 24]) == [0, 255, 0] and list(px[8, 12]) == [0, 255, 0]
    assert list(px[32 + 4, 24]) == [0, 255, 0] and list(px[32 + 6, 24]) == [0, 0, 0]
    # per-vertex colours and radii
    win = window()
    radii = ti.field(ti.f32, shape=2)
    radii.from_numpy(np.array([0.2, 0.02], np.float32))
    win.get_canvas().circles(centers, per_vertex_radius=radii, per_vertex_color=vec_field([[1, 1, 0], [0, 1, 1]]))
    px = rgb(win)
    assert list(px[32 + 8, 24]) == [255, 255, 0] and list(px[8, 12]) == [0, 255, 255]
    assert list(px[8 + 2, 12]) == [0, 0, 0]


def test_lines_width_and_indices():
    win = window()
    canvas = win.get_canvas()
    # A horizontal line through row 12's centres, 0.125 * 48 = 6 pixels wide.
    canvas.lines(vec_field([[0.0, 12.5 / H], [0.5, 12.5 / H]]), width=0.125, color=(1, 1, 1))
    px = rgb(win)
    assert px[10, 12, 0] == 255 and px[10, 10, 0] == 255 and px[10, 14, 0] == 255
    assert px[10, 16, 0] == 0 and px[50, 12, 0] == 0
    # indices pair the vertices: a vertical line at x = 0.75 only
    win = window()
    idx = ti.field(ti.i32, shape=2)
    idx.from_numpy(np.array([1, 2], np.int32))
    win.get_canvas().lines(vec_field([[0, 0], [0.75, 0], [0.75, 1]]), 0.05, indices=idx, color=(1, 0, 0))
    px = rgb(win)
    assert px[48, 24, 0] == 255 and px[10, 1, 0] == 0


def test_set_image_orientation_stretch_and_round_trip():
    win = window()
    img = np.zeros((W, H, 3), np.float32)
    img[:W // 2, :H // 4] = (1, 0, 0)     # bottom-left corner: red
    win.get_canvas().set_image(img)
    px = rgb(win)
    assert list(px[0, 0]) == [255, 0, 0] and list(px[W - 1, H - 1]) == [0, 0, 0]
    buf = win.get_image_buffer_as_numpy()
    assert buf.shape == (W, H, 4) and buf.dtype == np.float32
    win2 = window()
    win2.get_canvas().set_image(buf)       # the doc's own round trip
    assert (rgb(win2) == px).all()
    # a smaller image is stretched over the window; a u8 grey field too
    small = ti.field(ti.u8, shape=(2, 2))
    small.from_numpy(np.array([[0, 255], [0, 0]], np.uint8))  # column 0, top row: white
    win3 = window()
    win3.get_canvas().set_image(small)
    px = rgb(win3)
    assert list(px[5, H - 5]) == [255, 255, 255] and list(px[W - 5, H - 5]) == [0, 0, 0]
    assert list(px[5, 5]) == [0, 0, 0]


def test_save_image_round_trip(tmp_path):
    win = window()
    canvas = win.get_canvas()
    canvas.set_background_color((0.2, 0.4, 0.6))
    canvas.circles(vec_field([[0.25, 0.75]]), radius=0.1, color=(1, 0.5, 0))
    path = str(tmp_path / "frame.png")
    win.save_image(path)
    back = ti.tools.imread(path)
    assert back.shape == (W, H, 3)
    assert (back.astype(int) == rgb(win)).all()
    assert list(back[16, 36]) == [255, 128, 0] and list(back[60, 5]) == [51, 102, 153]


def scene_window(res=(W, H)):
    win = window(res)
    scene = win.get_scene()
    camera = ti.ui.Camera()
    camera.position(0, 0, 3)
    camera.lookat(0, 0, 0)
    camera.up(0, 1, 0)
    camera.fov(60)
    scene.set_camera(camera)
    scene.ambient_light((1, 1, 1))  # unlit colours show as they are
    return win, scene


def test_mesh_depth_order_either_way_round():
    quad = vec_field([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, -1, 0], [1, 1, 0], [-1, 1, 0]])
    near = vec_field([[-0.3, -0.3, 1], [0.3, -0.3, 1], [0, 0.3, 1]])
    for near_first in (True, False):
        win, scene = scene_window()
        if near_first:
            scene.mesh(near, color=(1, 0, 0))
            scene.mesh(quad, color=(0, 0, 1))
        else:
            scene.mesh(quad, color=(0, 0, 1))
            scene.mesh(near, color=(1, 0, 0))
        win.get_canvas().scene(scene)
        px = rgb(win)
        assert list(px[32, 24]) == [255, 0, 0], near_first   # the nearer triangle wins
        assert list(px[22, 24]) == [0, 0, 255]              # the far quad around it
        assert list(px[1, 1]) == [0, 0, 0]                  # nothing in the corner
        d = win.get_depth_buffer_as_numpy()
        assert d.shape == (W, H) and 0 < d[32, 24] < d[22, 24] < 1 and d[1, 1] == 1


def test_mesh_lighting_two_sided_and_per_vertex_color():
    tri = vec_field([[-1, -1, 0], [1, -1, 0], [0, 1, 0]])     # counter-clockwise: faces +z, the camera
    back = vec_field([[-1, -1, 0], [0, 1, 0], [1, -1, 0]])    # faces away
    results = {}
    for name, verts, two in (("front", tri, False), ("back", back, False), ("back2", back, True)):
        win, scene = scene_window()
        scene.ambient_light((0, 0, 0))
        scene.point_light(pos=(0, 0, 10), color=(1, 1, 1))
        scene.mesh(verts, color=(0.8, 0.8, 0.8), two_sided=two)
        win.get_canvas().scene(scene)
        results[name] = rgb(win)[32, 20]
    assert 195 <= results["front"][0] <= 205         # 0.8 * cos(~0) * 1
    assert results["back"][0] == 0                    # lit from behind
    assert (results["back2"] == results["front"]).all()
    win, scene = scene_window()
    scene.mesh(tri, per_vertex_color=vec_field([[1, 0, 0], [0, 1, 0], [0, 0, 1]]))
    win.get_canvas().scene(scene)
    px = rgb(win)
    assert px[32, 34, 2] > px[32, 34, 0] and px[21, 12, 0] > px[21, 12, 2]  # near the top and left corners


def test_particles_are_spheres_and_scene_resets_each_frame():
    win, scene = scene_window()
    scene.ambient_light((0, 0, 0))
    scene.point_light(pos=(0, 0, 10), color=(1, 1, 1))
    scene.particles(vec_field([[0, 0, 0]]), radius=0.5, color=(1, 1, 1))
    canvas = win.get_canvas()
    canvas.scene(scene)
    px = rgb(win)
    # radius 0.5 at distance 3 with fov 60: 0.5 / 3 / tan(30 deg) * 24 = 6.9 pixels
    assert px[32, 24, 0] > 245 and px[32 + 5, 24, 0] > 0 and px[32 + 8, 24, 0] == 0
    assert px[32, 24, 0] > px[32 + 5, 24, 0]         # shaded: darker towards the rim
    d = win.get_depth_buffer_as_numpy()
    assert d[32, 24] < d[32 + 5, 24] < 1
    win.show()
    assert rgb(win).sum() == 0                      # drawings and declarations went with the frame
    canvas.scene(scene)
    assert rgb(win).sum() == 0                      # the scene was emptied too (lights as well)


def test_scene_lines_and_offsets():
    win, scene = scene_window()
    pts = vec_field([[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0]])
    scene.lines(pts, width=3, color=(0, 1, 0), vertex_offset=2, vertex_count=2)  # the vertical one only
    win.get_canvas().scene(scene)
    px = rgb(win)
    assert px[32, 35, 1] == 255 and px[45, 24, 1] == 0


def test_orthogonal_camera_and_matrices():
    cam = ti.ui.Camera()
    cam.position(0, 0, 5)
    cam.lookat(0, 0, 0)
    v = cam.get_view_matrix()
    assert np.allclose(v @ np.array([0, 0, 0, 1.0]), [0, 0, -5, 1])
    p = cam.get_projection_matrix(1.0)
    c = p @ np.array([0, 0, -0.1, 1.0])
    assert c[2] / c[3] == pytest.approx(0, abs=1e-5)   # the near plane at depth 0
    cam.projection_mode(ti.ui.ProjectionMode.Orthogonal)
    win, scene = scene_window((32, 32))
    scene.set_camera(cam)
    scene.mesh(vec_field([[-0.5, -1, 0], [0.5, -1, 0], [0.5, 1, 0], [-0.5, -1, 0], [0.5, 1, 0], [-0.5, 1, 0]]),
               color=(1, 1, 1))
    win.get_canvas().scene(scene)
    px = rgb(win)
    assert px[16, 16, 0] == 255 and px[6, 16, 0] == 0 and px[10, 16, 0] == 255   # x in [-0.5, 0.5] of [-1, 1]


def test_frame_budget_and_save_dir(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text("import taichi as ti\nti.init(arch=ti.cpu)\n"
                    "x = ti.Vector.field(2, ti.f32, shape=1)\nx[0] = [0.5, 0.5]\n"
                    "window = ti.ui.Window('t', (16, 16))\ncanvas = window.get_canvas()\nn = 0\n"
                    "while window.running:\n    canvas.circles(x, radius=0.3, color=(1, 0, 0))\n"
                    "    window.show()\n    n += 1\nprint('frames', n)\n")
    env = dict(os.environ, KILN_GUI_FRAMES="3", KILN_GUI_SAVE=str(tmp_path / "out"))
    env.pop("DISPLAY", None)
    r = subprocess.run([sys.executable, str(prog)], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "frames 3" in r.stdout
    saved = sorted(os.listdir(tmp_path / "out"))
    assert saved == ["frame_00000.png", "frame_00001.png", "frame_00002.png"]
    img = ti.tools.imread(str(tmp_path / "out" / saved[-1]))
    assert list(img[8, 8]) == [255, 0, 0]


def test_widgets_headless_return_old_values():
    win = window()
    gui = win.get_gui()
    with gui.sub_window("Options", 0.05, 0.05, 0.9, 0.9) as w:
        w.text("hello")
        assert w.button("go") is False
        assert w.checkbox("on", True) is True
        assert w.slider_float("s", 0.25, 0, 1) == 0.25
        assert w.slider_int("i", 3, 0, 10) == 3
        assert w.color_edit_3("c", (0.1, 0.2, 0.3)) == (0.1, 0.2, 0.3)
    assert gui.button("loose") is False  # outside a sub window: a default panel, closed by show()
    win.show()  # the panels draw over the frame without a window
    with gui.sub_window("again", 0, 0, 0.5, 0.1) as w:  # a panel grows to hold its rows
        for k in range(4):
            w.text(f"row {k}")
    ops = win._widget_ops
    assert ops[0][0] == "rect" and ops[0][2] <= H - 5 * 20  # the background, under the title and 4 rows
    win.show()


def test_events_headless():
    win = window()
    assert win.get_events(ti.ui.PRESS) == [] and win.get_event() is False and win.event is None
    assert not win.is_pressed(ti.ui.LMB, "a") and win.get_cursor_pos() == (0, 0)
    win.running = False
    assert not win.running


@pytest.mark.parametrize("call, kind, message", [
    (lambda w, s: ti.ui.Window("x", (0, 10)), ValueError, "res must be"),
    (lambda w, s: w.get_canvas().set_background_color(0xFF0000), TypeError, "(r, g, b)"),
    (lambda w, s: w.get_canvas().circles(vec_field([[0.5, 0.5]])), TypeError, "needs a radius"),
    (lambda w, s: w.get_canvas().triangles(vec_field([[0, 0, 0, 0]])), ValueError, "2-vectors"),
    (lambda w, s: w.get_canvas().triangles(vec_field([[0, 0], [1, 0], [0, 1]]), indices=np.array([0, 1, 7])),
     ValueError, "vertex index 7 is out of range for 3 vertices"),
    (lambda w, s: w.get_canvas().lines(vec_field([[0, 0], [1, 1]]), 0.1, per_vertex_color=vec_field([[1, 0, 0]])),
     ValueError, "per_vertex_color must be a field of 2"),
    (lambda w, s: w.get_canvas().set_image(np.zeros((4, 4), np.int32)), ValueError, "int32 is not supported"),
    (lambda w, s: w.get_canvas().scene(object()), TypeError, "ti.ui.Scene"),
    (lambda w, s: s.set_camera("camera"), TypeError, "ti.ui.Camera"),
    (lambda w, s: ti.ui.Camera().fov(200), ValueError, "(0, 180)"),
    (lambda w, s: s.particles(vec_field([[0, 0, 0]]), radius=0.1, per_vertex_radius=np.ones(3, np.float32)),
     ValueError, "field of 1 radii"),
    (lambda w, s: s.mesh(vec_field([[0, 0, 0]]), indices=np.array([0, 0, 1])), ValueError, "indices must lie in"),
    (lambda w, s: s.lines(vec_field([[0, 0, 0], [1, 1, 1]]), width=2, vertex_offset=-1), ValueError, "vertex_offset"),
    (lambda w, s: w.get_events("Motion"), ValueError, "ti.ui.PRESS"),
    (lambda w, s: w.is_pressed("A"), ValueError, "unrecognized key name 'A'"),
    (lambda w, s: w.get_depth_buffer(ti.field(ti.f32, shape=(3, 3))), ValueError, "shape (64, 48)"),
    (lambda w, s: w.get_gui().end(), RuntimeError, "no sub window"),
])
def test_errors_name_the_problem(call, kind, message):
    win = window()
    with pytest.raises(kind) as e:
        call(win, win.get_scene())
    assert message in str(e.value)


# ---- a real window under Xvfb (test_gui.py's display and synthetic input) ----

from test_gui import FakeInput, window_id, window_origin, xvfb  # noqa: E402,F401 (xvfb is a fixture)


def draw_demo(win):
    canvas = win.get_canvas()
    canvas.set_background_color((0.1, 0.2, 0.3))
    canvas.circles(vec_field([[0.3, 0.6]]), radius=0.1, color=(1, 1, 0))
    scene = win.get_scene()
    camera = ti.ui.Camera()
    camera.position(0, 0, 3)
    camera.lookat(0, 0, 0)
    scene.set_camera(camera)
    scene.point_light((0, 0, 5), (1, 1, 1))
    scene.particles(vec_field([[0.5, 0, 0]]), radius=0.4, color=(0.9, 0.3, 0.2))
    canvas.scene(scene)


def test_window_shows_the_offscreen_frame(xvfb):
    off = window((160, 120))
    draw_demo(off)
    want = rgb(off)
    win = ti.ui.Window("kiln_ggui_window", (160, 120), fps_limit=1000)
    assert win._window is not None
    for _ in range(4):  # a few frames: the window is mapped by the X server meanwhile
        draw_demo(win)
        win.show()
    got = win._window.read_back()[:, :, :3].astype(int)
    assert got.shape == want.shape and (got == want).all()
    win.destroy()


def test_window_events_and_widgets(xvfb):
    res = (200, 100)
    win = ti.ui.Window("kiln_ggui_events", res, fps_limit=1000)
    gui = win.get_gui()
    state = {"value": 0.0, "clicks": 0}

    def frame():
        with gui.sub_window("panel", 0, 0, 1, 1) as w:  # title: rows 0-19 from the top
            if w.button("go"):                           # rows 20-39
                state["clicks"] += 1
            state["value"] = w.slider_float("v", state["value"], 0, 10)  # rows 40-59, bar on the left half
        win.show()

    for _ in range(3):
        frame()
    time.sleep(0.2)
    wid = window_id("kiln_ggui_events", xvfb)
    ox, oy = window_origin(wid, xvfb)
    fake = FakeInput(xvfb)
    events = []

    def settle(until):
        for _ in range(200):
            frame()
            events.extend(win.get_events())
            if until():
                return
            time.sleep(0.01)

    fake.move(ox + 50, oy + 30)
    settle(lambda: win.get_cursor_pos() == (50 / 200, (99 - 30) / 100))
    fake.key("a", True)
    settle(lambda: win.is_pressed("a"))
    fake.key("Shift_L", True)
    settle(lambda: win.is_pressed(ti.ui.SHIFT))
    fake.key("a", False)
    fake.key("Shift_L", False)
    fake.button(1, True)
    fake.button(1, False)
    settle(lambda: state["clicks"] > 0)
    assert state["clicks"] == 1
    keys = [(e.type, e.key) for e in events]
    assert keys[:4] == [(ti.ui.PRESS, "a"), (ti.ui.PRESS, "Shift"), (ti.ui.RELEASE, "a"), (ti.ui.RELEASE, "Shift")]
    assert (ti.ui.PRESS, ti.ui.LMB) in keys and not win.is_pressed("a", ti.ui.SHIFT, ti.ui.LMB)
    fake.move(ox + 50, oy + 50)  # half way along the slider's bar ([4, 100) of the row)
    fake.button(1, True)
    settle(lambda: state["value"] != 0.0)
    fake.button(1, False)
    assert state["value"] == pytest.approx(10 * (50.5 - 4) / 96, abs=0.15)
    fake.close_window(int(wid, 16))
    for _ in range(200):
        if not win.running:
            break
        frame()
        time.sleep(0.01)
    fake.close()
    assert not win.running
    win.destroy()
