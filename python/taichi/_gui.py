"""ti.GUI: Taichi's immediate-mode 2-D GUI over Kiln's canvas (vm/gui,
through taichi._gui_core).

Each frame the program draws (set_image, circles, lines, text, ...) and
calls show(), which puts the frame in a window (SDL2, when a display is
there and show_gui is true) or keeps it offscreen, then clears the canvas.
Positions are in [0, 1]^2 with y up; radii and widths are in pixels.

For tests and batch runs: KILN_GUI_FRAMES=N makes `running` false after N
shown frames (and a further show() ends the program), and KILN_GUI_SAVE=DIR writes every shown frame as
DIR/frame_00000.png, DIR/frame_00001.png, ... (one count per process)."""
import math
import numbers
import os
import time

from ._gui_image import as_numpy, bilinear, displayable, plasma
from ._gui_widgets import ROW, Widgets

def _native():
    """taichi._gui_core, loaded at the first GUI (it brings SDL2 and X11's
    libraries: `import taichi` stays fast for programs without a GUI)."""
    from . import _gui_core
    return _gui_core


_saved_frames = 0  # KILN_GUI_SAVE numbers frames across every GUI of the process (ti.ui's too)


def save_shown(canvas, save_dir):
    """Writes a shown frame as save_dir/frame_NNNNN.png (KILN_GUI_SAVE)."""
    global _saved_frames
    canvas.save(os.path.join(save_dir, f"frame_{_saved_frames:05d}.png"))
    _saved_frames += 1


def end_of_budget(frame, budget, who):
    """Ends the program at a show() after KILN_GUI_FRAMES frames: a loop that
    never asks `running` (`while not gui.get_event(...)`, `for i in
    range(10**6)`) ends here, so batch runs always finish."""
    if budget is not None and frame >= budget:
        import sys
        print(f"[Kiln] {who}: KILN_GUI_FRAMES={budget} frames shown; exiting", file=sys.stderr)
        raise SystemExit(0)


def _env_int(key):
    v = os.environ.get(key, "")
    if not v:
        return None
    try:
        return int(v)
    except ValueError:
        raise ValueError(f"{key} must be an integer, not {v!r}") from None


def _env_bool(key, default):
    v = os.environ.get(key)
    return default if v is None or v == "" else bool(int(v))


def _color(c, what="color"):
    if isinstance(c, numbers.Integral):
        return int(c) & 0xFFFFFF
    raise TypeError(f"{what} must be an int such as 0xFF8800, not {type(c).__name__}")


def _xy(p, what):
    try:
        return float(p[0]), float(p[1])
    except (TypeError, IndexError, ValueError):
        raise TypeError(f"{what} must be a 2-D position such as (0.5, 0.5), not {p!r}") from None


class GUI:
    """A window (or an offscreen canvas) of res pixels; see the module's doc."""

    class Event:
        """One input event: type (PRESS, RELEASE, MOTION), key, pos in [0, 1]^2,
        modifier (the held "Shift"/"Alt"/"Control"), delta (wheel)."""

        def __init__(self):
            self.type = None
            self.modifier = None
            self.pos = None
            self.key = None
            self.delta = None

        def __repr__(self):
            return f"GUI.Event(type={self.type}, key={self.key!r}, pos={self.pos})"

    SHIFT = "Shift"
    ALT = "Alt"
    CTRL = "Control"
    ESCAPE = "Escape"
    RETURN = "Return"
    TAB = "Tab"
    BACKSPACE = "BackSpace"
    SPACE = " "
    UP = "Up"
    DOWN = "Down"
    LEFT = "Left"
    RIGHT = "Right"
    CAPSLOCK = "Caps_Lock"
    LMB = "LMB"
    MMB = "MMB"
    RMB = "RMB"
    EXIT = "WMClose"
    WHEEL = "Wheel"
    MOVE = "Motion"

    MOTION = 0
    PRESS = 1
    RELEASE = 2

    class WidgetValue:
        """The value of a slider or label; assignable."""

        def __init__(self, gui, wid):
            self.gui = gui
            self.wid = wid

        @property
        def value(self):
            return self.gui._widgets.items[self.wid].value

        @value.setter
        def value(self, v):
            self.gui._widgets.items[self.wid].value = float(v)

    class EventFilter:
        """Matches events by type, by key, or by (type, key) pairs."""

        def __init__(self, *e_filter):
            self.filter = set()
            for ent in e_filter:
                self.filter.add(tuple(ent) if isinstance(ent, (list, tuple)) else ent)

        def match(self, e):
            return (e.type, e.key) in self.filter or e.type in self.filter or e.key in self.filter

    def __init__(self, name="Taichi", res=512, background_color=0x0, show_gui=True, fullscreen=False, fast_gui=False):
        show_gui = _env_bool("TI_GUI_SHOW", show_gui)
        fullscreen = _env_bool("TI_GUI_FULLSCREEN", fullscreen)
        fast_gui = _env_bool("TI_GUI_FAST", fast_gui)
        if isinstance(res, numbers.Number):
            res = (int(res), int(res))
        res = tuple(int(r) for r in res)
        if len(res) != 2:
            raise ValueError(f"GUI res must be a size or (width, height), not {res}")
        self.name = name
        self.res = res
        self.fast_gui = fast_gui
        self.background_color = _color(background_color, "background_color")
        self.canvas = _native().Canvas(res[0], res[1], self.background_color)
        self.frame = 0
        self.key_pressed = set()
        self.event = None
        self._events = []
        self._should_close = 0
        self._frame_delta_limit = 1 / 60
        self._last_frame = 0.0
        self._intervals = []  # the last 30 frame times, for the title's FPS
        self._frame_budget = _env_int("KILN_GUI_FRAMES")
        self._save_dir = os.environ.get("KILN_GUI_SAVE") or None
        if self._save_dir:
            os.makedirs(self._save_dir, exist_ok=True)
        self._widgets = Widgets(res)
        self._left_down = False
        self._cursor = (0, 0)
        self.window = None
        self.headless_reason = "show_gui=False" if not show_gui else None
        if show_gui:
            w = _native().open_window(name, res[0], res[1], fullscreen)
            if isinstance(w, str):
                self.headless_reason = w
                if os.environ.get("DISPLAY"):  # a display was there: say why no window came
                    import sys
                    print(f"[Kiln] ti.GUI: no window ({w}); drawing offscreen", file=sys.stderr)
            else:
                self.window = w

    def __enter__(self):
        return self

    def __exit__(self, e_type, val, tb):
        self.close()

    def __del__(self):
        self.close()

    def close(self):
        """Closes the window (the canvas stays usable offscreen)."""
        self.window = None

    # ---- widgets ---------------------------------------------------------

    def slider(self, text, minimum, maximum, step=1):
        """A slider in the top-right corner; its WidgetValue starts at minimum."""
        wid = self._widgets.add("slider", text, ROW, value=float(minimum), minimum=float(minimum),
                                maximum=float(maximum), step=float(step))
        return GUI.WidgetValue(self, wid)

    def label(self, text):
        """A label showing `text: value`; its WidgetValue starts at 0."""
        return GUI.WidgetValue(self, self._widgets.add("label", text, ROW // 2, value=0.0))

    def button(self, text, event_name=None):
        """A button; clicking it sends a PRESS event whose key is the returned name."""
        event_name = event_name or f"WidgetButton_{text}"
        self._widgets.add("button", text, ROW, event_name=event_name)
        return event_name

    # ---- drawing ---------------------------------------------------------

    def clear(self, color=None):
        """Fills the canvas with `color` (the background colour by default)."""
        self.canvas.clear(self.background_color if color is None else _color(color))

    def set_image(self, img):
        """Shows an image of the GUI's size: a field (scalar or vector), an
        ndarray or a numpy array; (w, h) grey, or (w, h, 2/3/4) channels;
        floats in [0, 1] or unsigned integers. img[i, j] is column i from the
        left and row j from the bottom."""
        a = displayable(img, "GUI.set_image")
        if a.shape[:2] != self.res:
            raise ValueError(f"GUI.set_image: the image is {a.shape[0]}x{a.shape[1]} but the GUI is "
                             f"{self.res[0]}x{self.res[1]}")
        self.canvas.set_image(a)

    def get_image(self):
        """The canvas as a (width, height, 4) float32 array in [0, 1]."""
        import numpy as np
        return self.canvas.image().astype(np.float32) * (1 / 255)

    def cook_image(self, img):
        """An image as the (width, height, 4) float32 array set_image would show."""
        import numpy as np
        a = displayable(img, "GUI.cook_image")
        a = a.astype(np.float32) / (255 if a.dtype == np.uint8 else 1)
        if a.ndim == 2:
            a = a[..., None]
        if a.shape[2] == 1:
            a = np.repeat(a, 4, axis=2)
        elif a.shape[2] < 4:
            a = np.concatenate([a, np.zeros(a.shape[:2] + (4 - a.shape[2],), np.float32)], axis=2)
        return np.ascontiguousarray(a)

    def contour(self, scalar_field, normalize=False):
        """Shows a scalar field through the plasma colour map, resampled
        bilinearly to the GUI's size when the sizes differ."""
        import numpy as np
        a = as_numpy(scalar_field, "GUI.contour", view=True).astype(np.float64)
        if a.ndim != 2:
            raise ValueError(f"GUI.contour takes a 2-D scalar field, not shape {a.shape}")
        if a.shape != self.res:
            a = bilinear(a, self.res)
        if normalize:
            lo, hi = np.min(a), np.max(a)
            a = (a - lo) / (hi - lo) if hi > lo else np.zeros_like(a)
        self.canvas.set_image(plasma(a))

    def circle(self, pos, color=0xFFFFFF, radius=1):
        """A disc of `radius` pixels centred at pos."""
        x, y = _xy(pos, "GUI.circle pos")
        self.canvas.circle(x, y, float(radius), _color(color))

    def circles(self, pos, radius=1, color=0xFFFFFF, palette=None, palette_indices=None):
        """Many discs: pos is (n, 2); radius and color are one value or n values;
        or colours palette[palette_indices[k]]."""
        import numpy as np
        pos = as_numpy(pos, "GUI.circles pos", view=True)
        if palette is not None:
            if palette_indices is None:
                raise ValueError("GUI.circles: palette must be used together with palette_indices")
            ind = np.asarray(as_numpy(palette_indices, "palette_indices", view=True))
            if not np.issubdtype(ind.dtype, np.integer):
                raise TypeError("GUI.circles: palette_indices must be an integer array")
            if ind.shape != (len(pos),):
                raise ValueError(f"GUI.circles: palette_indices must have shape ({len(pos)},), not {ind.shape}")
            if len(ind) and (ind.min() < 0 or ind.max() >= len(palette)):
                raise ValueError(f"GUI.circles: palette_indices must lie in [0, {len(palette)})")
            color = np.asarray(palette, dtype=np.uint32)[ind]
        elif not isinstance(color, numbers.Integral):
            color = as_numpy(color, "GUI.circles color", view=True)
        if not isinstance(radius, numbers.Number):
            radius = as_numpy(radius, "GUI.circles radius", view=True)
        self.canvas.circles(pos, radius, color)

    def line(self, begin, end, radius=1, color=0xFFFFFF):
        """A segment from begin to end, `radius` pixels either side of it."""
        (x0, y0), (x1, y1) = _xy(begin, "GUI.line begin"), _xy(end, "GUI.line end")
        self.canvas.line(x0, y0, x1, y1, float(radius), _color(color))

    def lines(self, begin, end, radius=1, color=0xFFFFFF):
        """Many segments: begin and end are (n, 2); radius and color one or n values."""
        begin, end = as_numpy(begin, "GUI.lines begin", view=True), as_numpy(end, "GUI.lines end", view=True)
        if begin.shape != end.shape:
            raise ValueError(f"GUI.lines: begin {begin.shape} and end {end.shape} differ in shape")
        if not isinstance(color, numbers.Integral):
            color = as_numpy(color, "GUI.lines color", view=True)
        if not isinstance(radius, numbers.Number):
            radius = as_numpy(radius, "GUI.lines radius", view=True)
        self.canvas.lines(begin, end, radius, color)

    def triangle(self, a, b, c, color=0xFFFFFF):
        """A filled triangle."""
        (ax, ay), (bx, by), (cx, cy) = _xy(a, "GUI.triangle a"), _xy(b, "GUI.triangle b"), _xy(c, "GUI.triangle c")
        self.canvas.triangle(ax, ay, bx, by, cx, cy, _color(color))

    def triangles(self, a, b, c, color=0xFFFFFF):
        """Many filled triangles: a, b and c are (n, 2); color one or n values."""
        a, b, c = (as_numpy(v, "GUI.triangles", view=True) for v in (a, b, c))
        if not a.shape == b.shape == c.shape:
            raise ValueError(f"GUI.triangles: a {a.shape}, b {b.shape} and c {c.shape} differ in shape")
        if not isinstance(color, numbers.Integral):
            color = as_numpy(color, "GUI.triangles color", view=True)
        self.canvas.triangles(a, b, c, color)

    def rect(self, topleft, bottomright, radius=1, color=0xFFFFFF):
        """The outline of the rectangle with these corners."""
        (x0, y0), (x1, y1) = _xy(topleft, "GUI.rect topleft"), _xy(bottomright, "GUI.rect bottomright")
        corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        for k in range(4):
            self.line(corners[k], corners[(k + 1) % 4], radius, color)

    @staticmethod
    def _arrow_to_lines(orig, major, tip_scale=0.2, angle=45):
        """The shaft and the two head strokes of arrows as (begin, end) pairs."""
        import numpy as np
        turn = math.radians(180 - angle)
        c, s = math.cos(turn), math.sin(turn)
        left = np.stack([major[:, 0] * c - major[:, 1] * s, major[:, 0] * s + major[:, 1] * c], axis=1)
        right = np.stack([major[:, 0] * c + major[:, 1] * s, -major[:, 0] * s + major[:, 1] * c], axis=1)
        tip = orig + major
        return [(orig, tip), (tip, tip + left * tip_scale), (tip, tip + right * tip_scale)]

    def arrows(self, orig, direction, radius=1, color=0xFFFFFF, **kwargs):
        """Arrows from orig (n, 2) along direction (n, 2); tip_scale, angle."""
        import numpy as np
        orig = np.asarray(as_numpy(orig, "GUI.arrows orig"), dtype=np.float64).reshape(-1, 2)
        direction = np.asarray(as_numpy(direction, "GUI.arrows direction"), dtype=np.float64).reshape(-1, 2)
        for begin, end in self._arrow_to_lines(orig, direction, **kwargs):
            self.lines(begin, end, radius, color)

    def arrow(self, orig, direction, radius=1, color=0xFFFFFF, **kwargs):
        """One arrow from orig along direction."""
        self.arrows([_xy(orig, "GUI.arrow orig")], [_xy(direction, "GUI.arrow direction")], radius,
                    _color(color), **kwargs)

    @staticmethod
    def _make_field_base(w, h, bound):
        import numpy as np
        x = np.linspace(bound / w, 1 - bound / w, w)
        y = np.linspace(bound / h, 1 - bound / h, h)
        gx, gy = np.meshgrid(x, y, indexing="ij")
        return np.stack([gx.ravel(), gy.ravel()], axis=1)

    def point_field(self, radius, color=0xFFFFFF, bound=0.5):
        """A grid of discs, one per element of the 2-D array radius (their radii)."""
        radius = as_numpy(radius, "GUI.point_field radius", view=True)
        if radius.ndim != 2:
            raise ValueError(f"GUI.point_field takes a 2-D array of radii, not shape {radius.shape}")
        base = self._make_field_base(radius.shape[0], radius.shape[1], bound)
        self.circles(base, radius=radius.reshape(-1), color=color)

    def arrow_field(self, direction, radius=1, color=0xFFFFFF, bound=0.5, **kwargs):
        """A grid of arrows, one per element of direction (w, h, 2)."""
        direction = as_numpy(direction, "GUI.arrow_field direction", view=True)
        if direction.ndim != 3 or direction.shape[2] != 2:
            raise ValueError(f"GUI.arrow_field takes a (w, h, 2) array, not shape {direction.shape}")
        base = self._make_field_base(direction.shape[0], direction.shape[1], bound)
        self.arrows(base, direction.reshape(-1, 2), radius=radius, color=color, **kwargs)

    def vector_field(self, vector_field, arrow_spacing=5, color=0xFFFFFF):
        """Arrows for every arrow_spacing-th vector of a 2-D vector field,
        the longest one a tenth of the window."""
        import numpy as np
        v = np.asarray(as_numpy(vector_field, "GUI.vector_field", view=True), dtype=np.float64)
        if v.ndim != 3 or v.shape[2] != 2:
            raise ValueError(f"GUI.vector_field takes a 2-D field of 2-vectors, not shape {v.shape}")
        nx, ny = v.shape[:2]
        scale = 0.1 / (np.max(np.linalg.norm(v, axis=-1)) + 1e-16)
        xs = np.arange(0, nx, arrow_spacing)
        ys = np.arange(0, ny, arrow_spacing)
        gx, gy = np.meshgrid(xs / nx, ys / ny, indexing="ij")
        begin = np.stack([gx.ravel(), gy.ravel()], axis=1)
        self.arrows(begin, v[::arrow_spacing, ::arrow_spacing].reshape(-1, 2) * scale, radius=1, color=color)

    def text(self, content, pos, font_size=15, color=0xFFFFFF):
        """Text whose top-left corner is at pos, font_size pixels tall."""
        x, y = _xy(pos, "GUI.text pos")
        self.canvas.text(str(content), x, y, float(font_size), _color(color))

    # ---- frames ----------------------------------------------------------

    def show(self, file=None):
        """Ends the frame: draws the widgets, puts the frame in the window (or
        keeps it offscreen), writes it to `file` if given, then clears."""
        end_of_budget(self.frame, self._frame_budget, "ti.GUI")
        self._widgets.draw(self.canvas, self._cursor)
        if self.window is not None:
            if self._frame_delta_limit:
                wait = self._last_frame + self._frame_delta_limit - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
            now = time.perf_counter()
            if self._last_frame:
                self._intervals = (self._intervals + [now - self._last_frame])[-30:]
            self._last_frame = now
            self.window.present(self.canvas)
            self._pump()
            if self.frame % 10 == 0 and self._intervals:  # the title shows the frame rate, as Taichi's does
                self.window.set_title(f"{self.name} ({len(self._intervals) / sum(self._intervals):.2f} FPS)")
            if self._should_close:
                self._should_close += 1
                if self._should_close > 5:
                    raise RuntimeError("Window close button clicked, exiting... (use `while gui.running` "
                                       "to exit gracefully)")
        if file:
            self.canvas.save(str(file))
        if self._save_dir:
            save_shown(self.canvas, self._save_dir)
        self.frame += 1
        self.clear()

    @property
    def running(self):
        """False once the window was closed, `running = False` was set, or
        KILN_GUI_FRAMES frames were shown."""
        if self._frame_budget is not None and self.frame >= self._frame_budget:
            return False
        return not self._should_close

    @running.setter
    def running(self, value):
        if value:
            self._should_close = 0
        elif not self._should_close:
            self._should_close = 1

    @property
    def fps_limit(self):
        """Most frames a second show() lets through with a window (None: no limit)."""
        return None if not self._frame_delta_limit else 1 / self._frame_delta_limit

    @fps_limit.setter
    def fps_limit(self, value):
        self._frame_delta_limit = 0 if value is None else 1 / value

    # ---- events ----------------------------------------------------------

    def _pump(self):
        """Moves the window's new events into the queue (widgets see them first)."""
        if self.window is None:
            return
        w, h = self.res
        for etype, key, x, y, dx, dy in self.window.poll():
            self._cursor = (x, y)
            if key == "LMB":
                self._left_down = etype == GUI.PRESS
            kind = {GUI.PRESS: "press", GUI.RELEASE: "release"}.get(etype, "move")
            if key in ("LMB", "Motion"):
                for name in self._widgets.mouse(kind, x, y, self._left_down):
                    self._push(GUI.PRESS, name, x, y, 0, 0)
            if key == GUI.EXIT and not self._should_close:
                self._should_close = 1
            self._push(etype, key, x, y, dx, dy)

    def _push(self, etype, key, x, y, dx, dy):
        e = GUI.Event()
        e.type, e.key = etype, key
        e.pos = (x / self.res[0], y / self.res[1])
        e.delta = (dx, dy) if key == GUI.WHEEL else (0, 0)
        self._events.append(e)

    def has_key_event(self):
        """Whether an event is waiting."""
        if not self._events:
            self._pump()
        return bool(self._events)

    def get_key_event(self):
        """The next event (waiting for one with a window; None headless)."""
        while not self._events:
            if self.window is None:
                return None
            self._pump()
            if not self._events:
                time.sleep(0.005)
        e = self._events.pop(0)
        e.modifier = [m for m in ("Shift", "Alt", "Control") if self.is_pressed(m)]
        if e.type == GUI.PRESS:
            self.key_pressed.add(e.key)
        else:
            self.key_pressed.discard(e.key)
        return e

    def get_events(self, *e_filter):
        """The waiting events (those matching the filter: types, keys or pairs)."""
        flt = GUI.EventFilter(*e_filter) if e_filter else None
        while self.has_key_event():
            e = self.get_key_event()
            if flt is None or flt.match(e):
                yield e

    def get_event(self, *e_filter):
        """Whether a waiting event matches; it is then in gui.event."""
        for e in self.get_events(*e_filter):
            self.event = e
            return True
        return False

    def is_pressed(self, *keys):
        """Whether any of these keys is held ("Shift" matches Shift_L and Shift_R)."""
        for key in keys:
            if key in ("Shift", "Alt", "Control") and (key + "_L" in self.key_pressed or
                                                        key + "_R" in self.key_pressed):
                return True
            if key in self.key_pressed:
                return True
        return False

    def get_cursor_pos(self):
        """The pointer in [0, 1]^2, y up."""
        self._pump()
        return self._cursor[0] / self.res[0], self._cursor[1] / self.res[1]


def rgb_to_hex(c):
    """(r, g, b) in [0, 1] (scalars or arrays) to 0xRRGGBB."""
    import numpy as np

    def to255(x):
        return np.clip(np.int32(np.asarray(x) * 255), 0, 255)

    return (to255(c[0]) << 16) + (to255(c[1]) << 8) + to255(c[2])


def hex_to_rgb(color):
    """0xRRGGBB to (r, g, b) in [0, 1]."""
    return ((color >> 16) & 0xFF) / 255, ((color >> 8) & 0xFF) / 255, (color & 0xFF) / 255
