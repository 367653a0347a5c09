"""ti.GUI, image files and videos (python/taichi/_gui.py, _tools.py over
vm/gui). Pictures are drawn headless and checked pixel by pixel; a real
window is opened under Xvfb and its screenshot compared with the canvas.
Run by ctest as python/gui: PYTHONPATH=build/python pytest test_gui.py."""
import os
import re
import shutil
import struct
import subprocess
import sys
import time

import numpy as np
import pytest

import taichi as ti
from taichi import _gui_core
from taichi._gui import GUI
from taichi._tools import VideoManager, imread, imresize, imwrite

W, H = 64, 48


@pytest.fixture(autouse=True)
def headless(monkeypatch):
    """Every test starts offscreen with no frame budget or save directory."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("KILN_GUI_FRAMES", raising=False)
    monkeypatch.delenv("KILN_GUI_SAVE", raising=False)


def pixels(gui):
    return gui.canvas.image()[:, :, :3].astype(int)


def test_shapes_land_on_the_right_pixels():
    gui = GUI("shapes", res=(W, H), background_color=0x000000)
    assert gui.window is None and gui.headless_reason
    gui.circle((0.5, 0.5), color=0xFF0000, radius=5)
    px = pixels(gui)
    assert list(px[32, 24]) == [255, 0, 0]          # the centre
    assert list(px[32 + 6, 24]) == [0, 0, 0]        # outside the radius
    assert 0 < px[32, 24 + 5, 0] < 255 or px[32, 24 + 4, 0] == 255  # the soft edge
    assert px[32, 24 + 4, 0] == 255 and px[32, 24 + 5, 0] == 0       # clamp(5 - 4) = 1, clamp(5 - 5) = 0
    gui.clear()
    # A horizontal line at y = 0.25 (pixel row 12), half-width 2, left half only.
    gui.line((0.0, 12.5 / H), (0.5, 12.5 / H), radius=2, color=0x00FF00)
    px = pixels(gui)
    assert list(px[10, 12]) == [0, 255, 0] and list(px[10, 13]) == [0, 255, 0]
    assert list(px[10, 16]) == [0, 0, 0] and list(px[50, 12]) == [0, 0, 0]
    gui.clear(0x0000FF)
    assert list(pixels(gui)[5, 5]) == [0, 0, 255]
    gui.clear()
    gui.triangle((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), color=0xFFFFFF)
    px = pixels(gui)
    assert list(px[2, 2]) == [255, 255, 255] and list(px[W - 3, H - 3]) == [0, 0, 0]
    gui.clear()
    gui.rect((0.25, 36.5 / H), (0.75, 12.5 / H), radius=1, color=0xFFFF00)
    px = pixels(gui)
    assert list(px[32, 36]) == [255, 255, 0]       # the top side through pixel row 36's centres
    assert list(px[32, 37]) == [0, 0, 0]           # one pixel away: coverage clamp(1 - 1) = 0
    assert list(px[32, 24]) == [0, 0, 0]           # the inside stays empty


def test_batched_circles_lines_and_palette():
    gui = GUI("batch", res=(W, H))
    pos = np.array([[0.25, 0.5], [0.75, 0.5]], dtype=np.float64)
    gui.circles(pos, radius=np.array([3.0, 6.0]), palette=[0x00FF00, 0x0000FF], palette_indices=[1, 0])
    px = pixels(gui)
    assert list(px[16, 24]) == [0, 0, 255] and list(px[48, 24]) == [0, 255, 0]
    assert px[16 + 4, 24].sum() == 0 and px[48 + 5, 24, 1] == 255   # radii 3 and 6
    gui.clear()
    y0, y1 = 4.5 / H, 40.5 / H  # through pixel centres: full coverage on rows 4 and 40
    gui.lines(np.array([[0.1, y0], [0.1, y1]]), np.array([[0.9, y0], [0.9, y1]]), radius=1,
              color=np.array([0xFF0000, 0x00FF00]))
    px = pixels(gui)
    assert list(px[32, 4]) == [255, 0, 0] and list(px[32, 40]) == [0, 255, 0]
    gui.clear()
    gui.line((0.1, 0.1), (0.9, 0.1), radius=1)  # y = 4.8: rows 4 and 5 share it as Taichi's canvas does
    px = pixels(gui)
    assert abs(px[32, 4, 0] - 255 * 0.7) <= 1 and abs(px[32, 5, 0] - 255 * 0.3) <= 1 and px[32, 6, 0] == 0
    with pytest.raises(ValueError, match="palette_indices"):
        gui.circles(pos, palette=[0xFF0000], palette_indices=[0, 1])
    with pytest.raises(ValueError, match="one value or an array of 2"):
        gui.circles(pos, radius=np.ones(3))
    with pytest.raises(TypeError, match="color must be an int"):
        gui.circle((0.5, 0.5), color="red")


def test_arrows_text_and_fields_draw_where_they_should():
    gui = GUI("misc", res=(W, H))
    gui.arrow((0.1, 24.5 / H), (0.8, 0.0), radius=1, color=0xFFFFFF)
    px = pixels(gui)
    assert px[32, 24].sum() == 3 * 255                       # on the shaft
    assert px[int(0.9 * W) - 3, 24 + 3].sum() > 0           # a head stroke goes back and up
    assert px[32, 40].sum() == 0
    gui.clear()
    gui.text("Kiln", (0.0, 1.0), font_size=20, color=0xFFFFFF)
    px = pixels(gui)
    assert px[:, H - 20:].sum() > 0 and px[:, :H - 22].sum() == 0   # text hangs below its top-left pos
    gui.clear()
    gui.point_field(np.full((4, 3), 2.0), color=0xFF0000)
    assert pixels(gui)[int(W * 0.5 / 4), int(H * 0.5 / 3), 0] == 255
    gui.clear()
    gui.contour(np.linspace(0, 1, W)[:, None] * np.ones((1, H)))
    px = pixels(gui)
    assert px[0, 0, 2] > px[0, 0, 0] and px[W - 1, 0, 1] > 200       # plasma: blue-violet to yellow
    gui.clear()
    v = np.zeros((W, H, 2))
    v[..., 0] = 1.0
    gui.vector_field(v, arrow_spacing=16)
    assert pixels(gui).sum() > 0


def test_set_image_orientation_and_types():
    gui = GUI("image", res=(W, H))
    img = np.zeros((W, H, 3), np.uint8)
    img[0, 0] = (255, 0, 0)           # column 0 from the left, row 0 from the bottom
    img[W - 1, H - 1] = (0, 255, 0)   # the top-right corner
    gui.set_image(img)
    rows = gui.canvas.image()          # the canvas's own bytes (top row first) seen in Taichi's frame
    assert list(rows[0, 0, :3]) == [255, 0, 0] and list(rows[W - 1, H - 1, :3]) == [0, 255, 0]
    f = np.zeros((W, H), np.float32)
    f[3, 5] = 0.5
    gui.set_image(f)
    assert list(pixels(gui)[3, 5]) == [127, 127, 127]         # grey, truncated as Taichi does
    rgba = np.zeros((W, H, 4), np.float64)
    rgba[..., 2] = 1.0
    gui.set_image(rgba)
    assert list(pixels(gui)[9, 9]) == [0, 0, 255]
    u16 = np.full((W, H, 2), 65535, np.uint16)
    gui.set_image(u16)
    assert list(pixels(gui)[1, 1]) == [255, 255, 0]
    t = np.zeros((H, W, 3), np.uint8)
    t[0, W - 1] = 200
    gui.set_image(t.transpose(1, 0, 2))                         # strided, read in place
    assert pixels(gui)[W - 1, 0, 0] == 200
    with pytest.raises(ValueError, match="is 10x10 but the GUI is 64x48"):
        gui.set_image(np.zeros((10, 10)))
    with pytest.raises(ValueError, match="int32 is not supported"):
        gui.set_image(np.zeros((W, H), np.int32))
    with pytest.raises(ValueError, match="1-4 channels"):
        gui.set_image(np.zeros((W, H, 5), np.float32))


def test_set_image_from_fields_and_ndarrays():
    ti.init(arch=ti.cpu)
    gray = ti.field(ti.f32, shape=(W, H))
    color = ti.Vector.field(3, ti.f32, shape=(W, H))
    arr = ti.ndarray(ti.u8, shape=(W, H))

    @ti.kernel
    def paint():
        for i, j in gray:
            gray[i, j] = i / (W - 1)
            color[i, j] = ti.Vector([0.0, j / (H - 1), 1.0])

    paint()
    gui = GUI("fields", res=(W, H))
    gui.set_image(gray)
    px = pixels(gui)
    assert px[0, 7, 0] == 0 and px[W - 1, 7, 0] == 255
    gui.set_image(color)
    px = pixels(gui)
    assert px[4, 0, 1] == 0 and px[4, H - 1, 1] == 255 and px[4, 3, 2] == 255
    a = np.zeros((W, H), np.uint8)
    a[2, 3] = 77
    arr.from_numpy(a)
    gui.set_image(arr)
    assert list(pixels(gui)[2, 3]) == [77, 77, 77]


def test_show_writes_file_and_clears(tmp_path):
    gui = GUI("show", res=(W, H), background_color=0x203040)
    gui.circle((0.25, 0.75), color=0xFF8000, radius=4)
    before = gui.canvas.image()[:, :, :3].copy()
    out = tmp_path / "shot.png"
    gui.show(str(out))
    assert gui.frame == 1
    assert list(pixels(gui)[16, 36]) == [0x20, 0x30, 0x40]   # cleared to the background
    back = imread(out)
    assert back.shape == (W, H, 3)
    assert (back == before).all()
    assert list(back[16, 36]) == [255, 128, 0]


def test_png_orientation_read_by_another_decoder(tmp_path):
    Image = pytest.importorskip("PIL.Image", reason="Pillow (python3-pil) gives an independent PNG decoder")
    img = np.zeros((W, H, 3), np.uint8)
    img[0, 0] = (255, 0, 0)
    imwrite(img, tmp_path / "o.png")
    rows = np.asarray(Image.open(tmp_path / "o.png"))   # rows top first
    assert rows.shape == (H, W, 3)
    assert list(rows[H - 1, 0]) == [255, 0, 0]        # Taichi's (0, 0) is the bottom-left pixel


def test_imwrite_imread_round_trip(tmp_path):
    rng = np.random.default_rng(7)
    for shape in [(W, H), (W, H, 1), (W, H, 3), (W, H, 4)]:
        a = rng.integers(0, 256, size=shape, dtype=np.uint8)
        imwrite(a, tmp_path / "a.png")
        b = imread(tmp_path / "a.png")
        assert b.shape == (W, H, 1 if len(shape) == 2 else shape[2])
        assert (b.reshape(a.shape) == a).all()
    f = np.linspace(-0.5, 1.5, W * H, dtype=np.float32).reshape(W, H)
    imwrite(f, tmp_path / "f.png")
    assert (imread(tmp_path / "f.png")[..., 0] == (np.clip(f, 0, 1) * 255).astype(np.uint8)).all()
    imwrite(np.full((W, H, 3), 0.5), tmp_path / "g.jpg")
    j = imread(tmp_path / "g.jpg", channels=3)
    assert j.shape == (W, H, 3) and abs(int(j[5, 5, 0]) - 127) <= 2
    assert imread(tmp_path / "g.jpg", channels=1).shape == (W, H, 1)
    assert imresize(np.arange(16).reshape(4, 4), 2).tolist() == [[0, 2], [8, 10]]
    with pytest.raises(ValueError, match="cannot open"):
        imread(tmp_path / "missing.png")
    (tmp_path / "junk.png").write_bytes(b"not an image")
    with pytest.raises(ValueError, match="cannot decode"):
        imread(tmp_path / "junk.png")
    with pytest.raises(ValueError, match="unknown image format"):
        imwrite(np.zeros((4, 4)), tmp_path / "x.webp")
    with pytest.raises(ValueError, match="int64 is not supported"):
        imwrite(np.zeros((4, 4), np.int64), tmp_path / "x.png")


def test_widgets_draw_and_report_values():
    gui = GUI("widgets", res=(300, 200))
    speed = gui.slider("speed", 1, 5)
    info = gui.label("info")
    name = gui.button("go")
    assert speed.value == 1.0 and info.value == 0.0 and name == "WidgetButton_go"
    info.value = 2
    gui.show()
    px = gui.canvas.image()
    assert px[150, 100, :3].sum() == 0  # the widgets are drawn, then cleared with the frame
    gui._widgets.draw(gui.canvas, (0, 0))
    px = gui.canvas.image()[:, :, :3].astype(int)
    assert list(px[299 - 100, 199 - 38]) != [0, 0, 0] and list(px[50, 150]) == [0, 0, 0]


SCRIPT = """
import numpy as np, taichi
from taichi._gui import GUI
gui = GUI("budget", res=(32, 16))
while gui.running:
    gui.circle((0.5, 0.5), radius=gui.frame + 1)
    gui.show()
print(gui.frame)
"""


FONT_SCRIPT = """
from taichi import _gui_core
from taichi._gui import GUI
gui = GUI("font", res=(64, 32))
gui.text("Kiln", (0.0, 1.0), font_size=24, color=0xFFFFFF)
px = gui.canvas.image()[:, :, 0]
print(repr(_gui_core.text_font()), int((px[:, 32 - 22:] > 0).sum()), int((px[:, :32 - 26] > 0).sum()))
"""


@pytest.mark.parametrize("font", ["builtin", ""])
def test_text_with_the_builtin_and_the_system_font(font):
    env = dict(os.environ, KILN_GUI_FONT=font)
    r = subprocess.run([sys.executable, "-c", FONT_SCRIPT], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    name, lit_inside, lit_below = r.stdout.split()
    if font == "builtin":
        assert name == "''"
    else:
        assert name.endswith(".ttf'") or name == "''"  # a system font when one is installed
    assert int(lit_inside) > 20 and int(lit_below) == 0


def test_frame_budget_and_save_dir(tmp_path):
    env = dict(os.environ, KILN_GUI_FRAMES="3", KILN_GUI_SAVE=str(tmp_path / "frames"))
    env.pop("DISPLAY", None)
    r = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "3"
    names = sorted(os.listdir(tmp_path / "frames"))
    assert names == ["frame_00000.png", "frame_00001.png", "frame_00002.png"]
    last = imread(tmp_path / "frames" / "frame_00002.png")
    assert last[16 + 2, 8, 0] == 255 and last[16 + 3, 8, 0] < 255  # radius 3 on the third frame
    endless = "from taichi._gui import GUI\ngui = GUI('endless', res=8)\nwhile True:\n    gui.show()\n"
    r = subprocess.run([sys.executable, "-c", endless], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "KILN_GUI_FRAMES=3 frames shown; exiting" in r.stderr
    env["KILN_GUI_FRAMES"] = "many"
    r = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "KILN_GUI_FRAMES must be an integer" in r.stderr


def test_video_manager_frames_and_ffmpeg(tmp_path, monkeypatch):
    vm = VideoManager(tmp_path / "v", framerate=10, automatic_build=False)
    for k in range(4):
        img = np.zeros((33, 20, 3), np.float32)
        img[k * 4:k * 4 + 4] = 1.0
        vm.write_frame(img)
    frames = sorted(os.listdir(vm.get_frame_directory()))
    assert frames == ["000000.png", "000001.png", "000002.png", "000003.png"]
    assert imread(os.path.join(vm.get_frame_directory(), frames[1])).shape == (32, 20, 3)  # even width
    if shutil.which("ffmpeg"):
        made = vm.make_video(mp4=True, gif=True)
        assert [os.path.basename(m) for m in made] == ["video.mp4", "video.gif"]
        for m in made:  # decode each video's second frame: its white band is columns 4-7
            png = str(tmp_path / (os.path.basename(m) + ".png"))
            subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", m, "-vf", "select=eq(n\\,1)", "-vframes", "1",
                            png], check=True)
            f = imread(png).astype(int)
            assert f.shape[:2] == (32, 20)
            assert f[4:8, :, 0].min() > 180 and f[12:, :, 0].max() < 70 and f[:3, :, 0].max() < 70
    monkeypatch.setenv("PATH", str(tmp_path))  # no ffmpeg here
    with pytest.raises(RuntimeError, match="needs ffmpeg"):
        vm.make_video()


# ---- a real window under Xvfb ------------------------------------------


def read_xwd(data):
    """An XWD screenshot (ZPixmap, 24/32 bits a pixel) as (width, height, 3) in Taichi's frame."""
    f = struct.unpack(">25I", data[:100])
    header_size, fmt, depth, width, height = f[0], f[2], f[3], f[4], f[5]
    byte_order, bpp, bpl, ncolors = f[7], f[11], f[12], f[19]
    rmask, gmask, bmask = f[14], f[15], f[16]
    assert fmt == 2 and bpp == 32, f"unexpected XWD layout: format {fmt}, {bpp} bits a pixel"
    start = header_size + 12 * ncolors
    raw = np.frombuffer(data[start:start + bpl * height], dtype="<u4" if byte_order == 0 else ">u4")
    raw = raw.reshape(height, bpl // 4)[:, :width]

    def channel(mask):
        shift = (mask & -mask).bit_length() - 1
        return ((raw & mask) >> shift).astype(np.uint8)

    rgb = np.stack([channel(rmask), channel(gmask), channel(bmask)], axis=-1)
    return rgb[::-1].transpose(1, 0, 2)


def window_id(title, display):
    out = subprocess.run(["xwininfo", "-root", "-tree"], env=dict(os.environ, DISPLAY=display), capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        if f'"{title}' in line:  # the title gains " (60.00 FPS)" every ten frames
            return line.split()[0]
    return None


@pytest.fixture
def xvfb(monkeypatch):
    if not _gui_core.windows_supported():
        pytest.skip("this build has no SDL2 (apt install libsdl2-dev and rebuild)")
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt install xvfb)")
    for n in range(91, 120):
        if not os.path.exists(f"/tmp/.X{n}-lock"):
            break
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "640x480x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    display = f":{n}"
    for _ in range(100):
        if os.path.exists(f"/tmp/.X11-unix/X{n}"):
            break
        time.sleep(0.05)
    monkeypatch.setenv("DISPLAY", display)
    yield display
    proc.terminate()
    proc.wait(timeout=10)


def test_window_matches_headless_canvas(xvfb):
    def draw(gui):
        img = np.zeros((160, 120, 3), np.float32)
        img[..., 0] = np.linspace(0, 1, 160)[:, None]
        img[..., 2] = np.linspace(0, 1, 120)[None, :]
        gui.set_image(img)
        gui.circle((0.3, 0.6), color=0xFFFF00, radius=12)
        gui.line((0.1, 0.1), (0.9, 0.3), radius=2, color=0x00FF00)
        gui.text("Kiln", (0.55, 0.95), font_size=24)

    offscreen = GUI("kiln_offscreen", res=(160, 120), show_gui=False)
    draw(offscreen)
    want = offscreen.canvas.image()[:, :, :3].copy()

    gui = GUI("kiln_window_test", res=(160, 120))
    assert gui.window is not None, gui.headless_reason
    gui.fps_limit = None
    for _ in range(3):  # a few frames: the window is mapped by the X server meanwhile
        draw(gui)
        gui.show()
    time.sleep(0.2)
    draw(gui)
    gui.show()
    got = gui.window.read_back()[:, :, :3]
    assert got.shape == want.shape and (got == want).all()
    wid = window_id("kiln_window_test", xvfb) if shutil.which("xwininfo") else None
    if shutil.which("xwd") and wid:  # the X server's own copy of the window
        shot = subprocess.run(["xwd", "-silent", "-id", wid], capture_output=True, check=True).stdout
        screen = read_xwd(shot)
        assert screen.shape == want.shape
        assert (screen == want).all(), f"{(screen != want).any(axis=-1).sum()} pixels differ"
    assert gui.running
    assert gui.get_cursor_pos() == (0.0, 0.0) or all(0 <= c <= 1 for c in gui.get_cursor_pos())
    gui.close()


class FakeInput:
    """Synthetic keyboard and mouse input through the XTEST extension (libXtst)."""

    def __init__(self, display):
        import ctypes
        from ctypes import c_char_p, c_int, c_ubyte, c_ulong, c_void_p
        self.x11 = ctypes.CDLL("libX11.so.6")
        self.xtst = ctypes.CDLL("libXtst.so.6")
        self.x11.XOpenDisplay.restype = c_void_p
        self.x11.XOpenDisplay.argtypes = [c_char_p]
        self.x11.XStringToKeysym.restype = c_ulong
        self.x11.XStringToKeysym.argtypes = [c_char_p]
        self.x11.XKeysymToKeycode.restype = c_ubyte
        self.x11.XKeysymToKeycode.argtypes = [c_void_p, c_ulong]
        self.x11.XFlush.argtypes = [c_void_p]
        self.x11.XCloseDisplay.argtypes = [c_void_p]
        self.xtst.XTestFakeMotionEvent.argtypes = [c_void_p, c_int, c_int, c_int, c_ulong]
        self.xtst.XTestFakeButtonEvent.argtypes = [c_void_p, ctypes.c_uint, c_int, c_ulong]
        self.xtst.XTestFakeKeyEvent.argtypes = [c_void_p, ctypes.c_uint, c_int, c_ulong]
        self.dpy = self.x11.XOpenDisplay(display.encode())
        assert self.dpy, f"cannot connect to {display}"

    def move(self, x, y):
        self.xtst.XTestFakeMotionEvent(self.dpy, -1, x, y, 0)
        self.x11.XFlush(self.dpy)

    def button(self, b, down):
        self.xtst.XTestFakeButtonEvent(self.dpy, b, int(down), 0)
        self.x11.XFlush(self.dpy)

    def key(self, name, down):
        code = self.x11.XKeysymToKeycode(self.dpy, self.x11.XStringToKeysym(name.encode()))
        self.xtst.XTestFakeKeyEvent(self.dpy, code, int(down), 0)
        self.x11.XFlush(self.dpy)

    def close_window(self, wid):
        """What a window manager sends for the close button: WM_PROTOCOLS / WM_DELETE_WINDOW."""
        import ctypes
        self.x11.XInternAtom.restype = ctypes.c_ulong
        self.x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        self.x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
        ev = (ctypes.c_ubyte * 192)()  # an XEvent holding an XClientMessageEvent (LP64 layout)
        ctypes.c_int.from_buffer(ev, 0).value = 33  # ClientMessage
        ctypes.c_ulong.from_buffer(ev, 32).value = wid
        ctypes.c_ulong.from_buffer(ev, 40).value = self.x11.XInternAtom(self.dpy, b"WM_PROTOCOLS", 0)
        ctypes.c_int.from_buffer(ev, 48).value = 32
        ctypes.c_long.from_buffer(ev, 56).value = self.x11.XInternAtom(self.dpy, b"WM_DELETE_WINDOW", 0)
        self.x11.XSendEvent(self.dpy, wid, 0, 0, ev)
        self.x11.XFlush(self.dpy)

    def close(self):
        self.x11.XCloseDisplay(self.dpy)


def window_origin(wid, display):
    out = subprocess.run(["xwininfo", "-id", wid], env=dict(os.environ, DISPLAY=display), capture_output=True,
                         text=True).stdout
    x = int(out.split("Absolute upper-left X:")[1].split()[0])
    y = int(out.split("Absolute upper-left Y:")[1].split()[0])
    return x, y


def test_window_events_keys_mouse_and_widgets(xvfb):
    res = (300, 150)
    gui = GUI("kiln_events_test", res=res)
    assert gui.window is not None, gui.headless_reason
    gui.fps_limit = None
    speed = gui.slider("speed", 0, 10, step=1)
    go = gui.button("go")
    for _ in range(3):
        gui.show()
    time.sleep(0.2)
    wid = window_id("kiln_events_test", xvfb)
    ox, oy = window_origin(wid, xvfb)
    fake = FakeInput(xvfb)
    events = []

    def settle(until):
        for _ in range(200):
            gui.show()
            events.extend(gui.get_events())
            if until():
                return
            time.sleep(0.01)

    fake.move(ox + 50, oy + 25)  # window pixel (50, 25) from the top-left
    settle(lambda: gui.get_cursor_pos() == (50 / 300, (149 - 25) / 150))
    assert gui.get_cursor_pos() == (50 / 300, 124 / 150)
    fake.key("a", True)
    settle(lambda: gui.is_pressed("a"))
    assert gui.is_pressed("a")
    fake.key("Shift_L", True)
    settle(lambda: gui.is_pressed(GUI.SHIFT))
    fake.key("a", False)
    fake.key("Shift_L", False)
    fake.key("Escape", True)
    fake.key("Escape", False)
    fake.button(1, True)
    fake.button(1, False)
    settle(lambda: any(e.key == GUI.LMB and e.type == GUI.RELEASE for e in events))
    keys = [(e.type, e.key) for e in events if e.key != GUI.MOVE]
    assert keys[:6] == [(GUI.PRESS, "a"), (GUI.PRESS, "Shift_L"), (GUI.RELEASE, "a"), (GUI.RELEASE, "Shift_L"),
                        (GUI.PRESS, GUI.ESCAPE), (GUI.RELEASE, GUI.ESCAPE)]
    release_a = [e for e in events if e.key == "a" and e.type == GUI.RELEASE][0]
    assert release_a.modifier == ["Shift"]  # Shift_L was held when the release was read
    lmb = [e for e in events if e.key == GUI.LMB][0]
    assert lmb.type == GUI.PRESS and lmb.pos == (50 / 300, 124 / 150)
    assert not gui.is_pressed("a", GUI.ESCAPE, GUI.LMB)
    # The widgets: the slider is the top 40 rows of the right 200 columns, the button the next 40.
    fake.move(ox + 300 - 100, oy + 20)  # the slider's middle: 0.5 of [0, 10]
    fake.button(1, True)
    fake.button(1, False)
    settle(lambda: speed.value != 0.0)
    assert speed.value == 5.0
    events.clear()
    fake.move(ox + 300 - 100, oy + 60)
    fake.button(1, True)
    fake.button(1, False)
    settle(lambda: any(e.key == go for e in events))
    assert [e.type for e in events if e.key == go] == [GUI.PRESS]
    assert gui.running
    for _ in range(20):  # ten more frames: the title is renewed every ten
        gui.show()
    title = subprocess.run(["xwininfo", "-id", wid], env=dict(os.environ, DISPLAY=xvfb), capture_output=True,
                           text=True).stdout
    assert re.search(r'"kiln_events_test \(\d+\.\d\d FPS\)"', title), title  # Taichi's title with the frame rate
    fake.close_window(int(wid, 16))  # the close button
    for _ in range(200):
        if not gui.running:
            break
        gui.show()
        time.sleep(0.01)
    fake.close()
    assert not gui.running
    assert gui.get_event(GUI.EXIT) and gui.event.type == GUI.PRESS
    with pytest.raises(RuntimeError, match="Window close button clicked"):
        for _ in range(6):  # a program that ignores the close keeps going for five frames
            gui.show()


HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def test_first_gui_program_through_ti_gui():
    """The first program of issue 20, as a user writes it (ti.GUI, ti.tools.imread).
    The expected pixels follow from the drawing: the gradient (i/63, j/31, 0.25)
    truncated to bytes, a white disc of radius 4 at (16, 16), a green line on row 4."""
    r = subprocess.run([sys.executable, os.path.join(HERE, "gui", "first_gui.py")], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(HERE, "gui", "first_gui.expected")) as f:
        assert r.stdout == f.read()


def test_example_gui_particles_runs_headless(tmp_path):
    env = dict(os.environ, KILN_GUI_FRAMES="30", KILN_GUI_SAVE=str(tmp_path))
    env.pop("DISPLAY", None)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "gui_particles.py")], env=env,
                       capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr
    names = sorted(os.listdir(tmp_path))
    assert len(names) == 30 and names[-1] == "frame_00029.png"
    last = imread(tmp_path / names[-1])
    assert last.shape == (512, 512, 3)
    lit = (last.sum(axis=2) > 0).mean()
    assert 0.2 < lit < 0.95  # particles and trails over a black background
    assert last[:, 300:].sum() < last[:, :300].sum()  # a fountain: more below than high up


def test_bad_arguments_say_what_is_wrong(tmp_path):
    with pytest.raises(ValueError, match="GUI resolution must be positive"):
        GUI("zero", res=0)
    with pytest.raises(ValueError, match=r"res must be a size or \(width, height\)"):
        GUI("three", res=(4, 4, 4))
    with pytest.raises(TypeError, match="background_color must be an int"):
        GUI("bg", res=8, background_color=(1, 0, 0))
    gui = GUI("args", res=(8, 4))
    with pytest.raises(TypeError, match="takes a Taichi field, an ndarray or a numpy array, not str"):
        gui.set_image("picture.png")
    with pytest.raises(TypeError, match=r"GUI.circle pos must be a 2-D position such as \(0.5, 0.5\)"):
        gui.circle(0.5)
    with pytest.raises(ValueError, match=r"must have shape \(n, 2\)"):
        gui.circles(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="palette must be used together with palette_indices"):
        gui.circles(np.zeros((1, 2)), palette=[0xFF0000])
    with pytest.raises(ValueError, match="begin and end must hold as many points"):
        gui.canvas.lines(np.zeros((2, 2)), np.zeros((3, 2)), 1, 0)
    with pytest.raises(ValueError, match=r"takes a 2-D scalar field, not shape \(8, 4, 3\)"):
        gui.contour(np.zeros((8, 4, 3)))
    with pytest.raises(ValueError, match="give both width and height"):
        VideoManager(tmp_path, width=4)
    with pytest.raises(RuntimeError, match="no frames were written"):
        VideoManager(tmp_path).make_video()
    with pytest.raises(ValueError, match="channels must be 0"):
        imread(tmp_path / "x.png", channels=9)


def test_get_image_and_cook_image():
    gui = GUI("get", res=(4, 2), background_color=0xFF0000)
    got = gui.get_image()
    assert got.shape == (4, 2, 4) and got.dtype == np.float32
    assert got[0, 0].tolist() == [1.0, 0.0, 0.0, 1.0]
    cooked = gui.cook_image(np.full((4, 2), 128, np.uint8))
    assert cooked.shape == (4, 2, 4) and abs(cooked[1, 1, 2] - 128 / 255) < 1e-6


def parse_ply(path):
    """A PLY file's header lines and its body bytes."""
    data = open(path, "rb").read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    return data[:end].decode().splitlines(), data[end:]


def test_ply_writer_binary_and_ascii(tmp_path, capsys):
    from taichi.tools import PLYWriter
    n = 4
    pos = np.arange(12, dtype=np.float64).reshape(n, 3) / 10
    w = PLYWriter(num_vertices=n, num_faces=2, face_type="tri")
    w.add_vertex_pos(pos[:, 0], pos[:, 1], pos[:, 2])
    w.add_vertex_channel("rgb", "uchar", np.array([[1, 2, 3]] * n))
    w.add_faces(np.array([0, 1, 2, 0, 2, 3]))
    w.add_face_id()
    w.export_frame(7, str(tmp_path / "mesh.ply"))
    header, body = parse_ply(tmp_path / "mesh_000007.ply")
    assert header == ["ply", f"format binary_{sys.byteorder}_endian 1.0", "comment created by PLYWriter",
                      "element vertex 4", "property float x", "property float y", "property float z",
                      "property uchar rgb_1", "property uchar rgb_2", "property uchar rgb_3", "element face 2",
                      "property list uchar int vertex_indices", "property int id", "end_header"]
    order = "<" if sys.byteorder == "little" else ">"
    verts = np.frombuffer(body[:n * 15], dtype=[("p", order + "f4", (3,)), ("c", "u1", (3,))])
    assert np.allclose(verts["p"], pos) and (verts["c"] == [1, 2, 3]).all()
    faces = np.frombuffer(body[n * 15:], dtype=[("k", "u1"), ("v", order + "i4", (3,)), ("id", order + "i4")])
    assert faces["k"].tolist() == [3, 3] and faces["v"].tolist() == [[0, 1, 2], [0, 2, 3]]
    assert faces["id"].tolist() == [0, 1]
    w.export_ascii(tmp_path / "mesh.txt.ply")
    header, body = parse_ply(tmp_path / "mesh.txt.ply")
    assert header[1] == "format ascii 1.0"
    rows = body.decode().splitlines()
    assert rows[1].split() == ["0.3", "0.4", "0.5", "1", "2", "3"] and rows[4:] == ["3 0 1 2 0", "3 0 2 3 1"]
    w.add_vertex_channel("x", "float", np.zeros(n))
    w.add_vertex_channel("h", "half", np.zeros(n))
    err = capsys.readouterr().err
    assert "channel 'x' was already added; the new one is skipped" in err
    assert "unknown type 'half' (one of char, uchar, short, ushort, int, uint, float, double); channel 'h' skipped" in err
    assert [name for name, _, _ in w.vertex_channels] == ["x", "y", "z", "rgb_1", "rgb_2", "rgb_3"]
    with pytest.raises(ValueError, match="has 3 values for 4 vertices"):
        w.add_vertex_channel("bad", "float", np.zeros(3))
    bare = PLYWriter(num_vertices=2)
    with pytest.raises(ValueError, match="add the vertex positions"):
        bare.export(tmp_path / "bare.ply")
    assert ti.tools.PLYWriter is PLYWriter
