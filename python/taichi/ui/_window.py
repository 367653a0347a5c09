"""ti.ui's Window: a frame's canvas, scenes and widgets, shown in an SDL2
window when a display is there and show_window is true, offscreen otherwise
(save_image and get_image_buffer_as_numpy read the frame either way)."""
import numbers
import os
import time

from . import _imgui
from ._canvas import Canvas
from ._constants import PRESS, RELEASE
from ._imgui import Gui
from ._scene import Scene, _native
from .. import _gui

# The window's key names (X11's, as ti.GUI reports them) to GGUI's.
_KEYS = {"Shift_L": "Shift", "Shift_R": "Shift", "Control_L": "Control", "Control_R": "Control",
         "Alt_L": "Alt", "Alt_R": "Alt", "Caps_Lock": "CapsLock"}


_KEY_NAMES = {"Shift", "Alt", "Control", "Escape", "Return", "Tab", "BackSpace", " ", "Up", "Down", "Left", "Right",
              "CapsLock", "LMB", "MMB", "RMB"}


class Event:
    """An input event: type (ti.ui.PRESS or ti.ui.RELEASE) and key ("a",
    ti.ui.ESCAPE, ti.ui.LMB, ...)."""

    def __init__(self, type_, key):
        self.type = type_
        self.key = key

    def __repr__(self):
        return f"ti.ui.Event(type={self.type!r}, key={self.key!r})"


def _tag_filter(tag, what):
    if tag is None or tag == PRESS or tag == RELEASE:
        return tag
    raise ValueError(f"{what} takes ti.ui.PRESS, ti.ui.RELEASE or None, not {tag!r}")


class Window:
    def __init__(self, name, res, vsync=False, show_window=True, fps_limit=1000, pos=(100, 100)):
        if isinstance(res, numbers.Integral):
            res = (res, res)
        try:
            res = tuple(res)
        except TypeError:
            res = ()
        if len(res) != 2 or not all(isinstance(r, numbers.Integral) and 0 < r <= 32768 for r in res):
            raise ValueError(f"ti.ui.Window: res must be (width, height) in pixels, not {res!r}")
        if not isinstance(fps_limit, numbers.Real) or fps_limit <= 0:
            raise ValueError(f"ti.ui.Window: fps_limit must be a positive number, not {fps_limit!r}")
        self.name = str(name)
        self._res = (int(res[0]), int(res[1]))
        core = _native()
        self._frame = core.Frame(*self._res)
        self._painter = core.Painter()
        self._rendered = False
        self._scenes = set()
        self._canvas = Canvas(self)
        self._gui = Gui(self)
        self._widget_ops = []
        self._interval = 1 / min(float(fps_limit), 60.0 if vsync else float(fps_limit))
        self._last_show = 0.0
        self._frames = 0
        self._budget = _gui._env_int("KILN_GUI_FRAMES")
        self._save_dir = os.environ.get("KILN_GUI_SAVE") or None
        if self._save_dir:
            os.makedirs(self._save_dir, exist_ok=True)
        self._running = True
        self._events = []
        self._held = set()
        self._cursor = (0, 0)
        self._clicks, self._new_clicks = [], []
        self.event = None
        self._window = None
        if show_window:
            w = core.open_window(self.name, self._res[0], self._res[1], False)
            if isinstance(w, str):
                if os.environ.get("DISPLAY"):  # a display was there: say why no window came
                    import sys
                    print(f"[Kiln] ti.ui.Window: no window ({w}); rendering offscreen", file=sys.stderr)
            else:
                self._window = w

    # ---- what the frame holds ------------------------------------------

    def get_canvas(self):
        return self._canvas

    def get_scene(self):
        return Scene()

    def get_gui(self):
        return self._gui

    @property
    def GUI(self):
        return self._gui

    def get_window_shape(self):
        return self._res

    def _render(self):
        if not self._rendered:
            self._painter.render(self._frame)
            self._rendered = True
        return self._frame

    def get_image_buffer_as_numpy(self):
        """The frame so far as a (width, height, 4) float32 array in [0, 1]."""
        import numpy as np
        return self._render().canvas.image().astype(np.float32) * np.float32(1 / 255)

    def get_depth_buffer_as_numpy(self):
        """The frame's depth as a (width, height) float32 array (0 near, 1 far or nothing)."""
        import numpy as np
        return np.array(self._render().depth(), dtype=np.float32)

    def get_depth_buffer(self, depth):
        """Copies the frame's depth into a 2-D f32 field or ndarray of the window's size."""
        shape = tuple(getattr(depth, "shape", ()))
        if shape != self._res or str(getattr(depth, "dtype", "")) not in ("f32", "float32"):
            raise ValueError(f"window.get_depth_buffer takes an f32 field or ndarray of shape {self._res}, "
                             f"not {getattr(depth, 'dtype', type(depth).__name__)} of shape {shape}")
        depth.from_numpy(self.get_depth_buffer_as_numpy())

    def save_image(self, filename):
        """Writes the frame so far to an image file (PNG, JPEG, BMP or TGA by its extension)."""
        self._render().canvas.save(str(filename))

    # ---- frames ----------------------------------------------------------

    @property
    def running(self):
        """False once the window was closed, `running = False` was set, or
        KILN_GUI_FRAMES frames were shown."""
        if self._budget is not None and self._frames >= self._budget:
            return False
        return self._running

    @running.setter
    def running(self, value):
        self._running = bool(value)

    def show(self):
        """Ends the frame: renders it, puts it in the window (when there is
        one), then starts the next (drawings and scene declarations go)."""
        _gui.end_of_budget(self._frames, self._budget, "ti.ui.Window")
        frame = self._render()
        if self._gui._panel is not None:  # the default panel of widgets called outside a sub window
            self._gui.end()
        _imgui.draw(self._widget_ops, frame.canvas)
        if self._window is not None:
            wait = self._last_show + self._interval - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            self._last_show = time.perf_counter()
            self._window.present(frame.canvas)
        if self._save_dir:
            _gui.save_shown(frame.canvas, self._save_dir)
        self._frames += 1
        self._painter.next_frame()
        for s in self._scenes:
            s._scene.next_frame()
        self._scenes.clear()
        self._widget_ops = []
        self._rendered = False
        self._pump()
        self._clicks, self._new_clicks = self._new_clicks, []

    def destroy(self):
        """Closes the window (the frame stays usable offscreen)."""
        self._window = None

    # ---- input -----------------------------------------------------------

    def _pump(self):
        if self._window is None:
            return
        w, h = self._res
        for etype, key, x, y, _dx, _dy in self._window.poll():
            self._cursor = (x, y)
            if key == "WMClose":
                self._running = False
                continue
            if etype == 0:  # motion and the wheel: GGUI reports no events for them
                continue
            key = _KEYS.get(key, key)
            if etype == 1:
                self._held.add(key)
                if key == "LMB":
                    self._new_clicks.append((x, y))
            else:
                self._held.discard(key)
            self._events.append(Event(PRESS if etype == 1 else RELEASE, key))

    def get_events(self, tag=None):
        """The waiting events (those of type tag: ti.ui.PRESS or ti.ui.RELEASE); they are consumed."""
        tag = _tag_filter(tag, "window.get_events")
        self._pump()
        out = [e for e in self._events if tag is None or e.type == tag]
        self._events = [e for e in self._events if not (tag is None or e.type == tag)]
        return out

    def get_event(self, tag=None):
        """Whether an event (of type tag) was waiting; it is then window.event."""
        tag = _tag_filter(tag, "window.get_event")
        self._pump()
        for k, e in enumerate(self._events):
            if tag is None or e.type == tag:
                self.event = self._events.pop(k)
                return True
        return False

    def is_pressed(self, *keys):
        """Whether any of these keys (or mouse buttons) is held: "a" to "z"
        or a name of ti.ui (ti.ui.SHIFT, ti.ui.LMB, ...), as GGUI knows them."""
        for k in keys:
            if not (isinstance(k, str) and ((len(k) == 1 and "a" <= k <= "z") or k in _KEY_NAMES)):
                raise ValueError(f"window.is_pressed: unrecognized key name {k!r} (use 'a'-'z' or ti.ui's "
                                 "SHIFT, ALT, CTRL, ESCAPE, RETURN, TAB, BACKSPACE, SPACE, UP, DOWN, LEFT, RIGHT, "
                                 "CAPSLOCK, LMB, MMB, RMB)")
        self._pump()
        return any(k in self._held for k in keys)

    def get_cursor_pos(self):
        """The pointer in [0, 1]^2, y up."""
        self._pump()
        return self._cursor[0] / self._res[0], self._cursor[1] / self._res[1]
