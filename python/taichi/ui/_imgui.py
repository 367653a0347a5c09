"""ti.ui's immediate-mode widgets (window.get_gui()), after Dear ImGui's
API: sub_window / begin / end, text, button, checkbox, slider_int,
slider_float, color_edit_3. Each call returns the widget's value for this
frame: the old value unless the left mouse button changed it (a click on a
button or a checkbox, dragging a slider). Headless there is no mouse and
the old values come back. The panels are drawn over the frame at show()."""
from contextlib import contextmanager

from . import _arrays as arr

ROW = 20       # pixels a widget takes
FONT = 14
PANEL = 0x2E2E33
TITLE = 0x29467A
FILL = 0x3C5C99
HOVER = 0x5577BB
TEXT = 0xFFFFFF


def _hex(c):
    r, g, b = (max(0, min(255, int(round(x * 255)))) for x in c)
    return (r << 16) | (g << 8) | b


class Gui:
    def __init__(self, window):
        self._window = window
        self._panel = None  # [x0, top, x1, bottom, next row's top] in pixels, y up

    @contextmanager
    def sub_window(self, name, x, y, width, height):
        """A panel whose top-left corner is at (x, y) and of the given size,
        all fractions of the window (y down from the top, as ImGui's)."""
        self.begin(name, x, y, width, height)
        try:
            yield self
        finally:
            self.end()

    def begin(self, name, x, y, width, height):
        if self._panel is not None:
            raise RuntimeError("gui.begin: the previous sub window was not ended (gui.end())")
        W, H = self._window._res
        x0 = arr.scalar(x, "gui.begin: x") * W
        top = (1 - arr.scalar(y, "gui.begin: y")) * H
        x1 = x0 + arr.scalar(width, "gui.begin: width") * W
        bottom = top - arr.scalar(height, "gui.begin: height") * H
        # [x0, top, x1, bottom, next row's top, where the background goes in the drawing]
        self._panel = [x0, top, x1, bottom, top - ROW, len(self._window._widget_ops)]
        self._draw("rect", x0, top - ROW, x1, top, TITLE)
        self._draw("text", str(name), x0 + 4, top - 3, TEXT)

    def end(self):
        if self._panel is None:
            raise RuntimeError("gui.end: no sub window was begun")
        x0, top, x1, bottom, next_top, at = self._panel
        # The background goes under the title and widgets; it grows to hold them all.
        self._window._widget_ops.insert(at, ("rect", x0, min(bottom, next_top - 2), x1, top, PANEL))
        self._panel = None

    def _row(self):
        """The next row's [x0, bottom, x1, top] (a widget outside any sub
        window opens a default panel at the top left, ended at show())."""
        if self._panel is None:
            self.begin("Debug", 0.02, 0.02, 0.3, 0.3)
        p = self._panel
        top = p[4]
        p[4] -= ROW
        return p[0] + 4, top - ROW + 2, p[2] - 4, top

    def _draw(self, *op):
        self._window._widget_ops.append(op)

    def _clicked(self, x0, y0, x1, y1):
        return any(x0 <= cx < x1 and y0 <= cy < y1 for cx, cy in self._window._clicks)

    def _dragging(self, x0, y0, x1, y1):
        w = self._window
        if not w.is_pressed("LMB"):
            return None
        cx, cy = w._cursor
        return (cx - x0) / max(x1 - x0, 1) if x0 <= cx < x1 and y0 <= cy < y1 else None

    def text(self, text, color=None):
        x0, y0, x1, y1 = self._row()
        self._draw("text", str(text), x0, y1 - 2, TEXT if color is None else _hex(arr.rgb(color, "gui.text: color")))

    def button(self, text):
        """True in the frame after the button was clicked."""
        x0, y0, x1, y1 = self._row()
        hit = self._clicked(x0, y0, x1, y1)
        self._draw("rect", x0, y0, x1, y1, HOVER if hit else FILL)
        self._draw("text", str(text), x0 + 4, y1 - 2, TEXT)
        return hit

    def checkbox(self, text, old_value):
        x0, y0, x1, y1 = self._row()
        value = bool(old_value) != self._clicked(x0, y0, x1, y1)
        self._draw("rect", x0, y0, x0 + ROW - 4, y1, FILL)
        if value:
            self._draw("rect", x0 + 4, y0 + 4, x0 + ROW - 8, y1 - 4, TEXT)
        self._draw("text", str(text), x0 + ROW, y1 - 2, TEXT)
        return value

    def _slider(self, text, value, minimum, maximum, as_int):
        x0, y0, x1, y1 = self._row()
        xm = (x0 + x1) / 2
        frac = self._dragging(x0, y0, xm, y1)
        if frac is not None:
            value = minimum + min(max(frac, 0.0), 1.0) * (maximum - minimum)
            value = int(round(value)) if as_int else float(value)
        span = maximum - minimum
        t = min(max((value - minimum) / span, 0.0), 1.0) if span else 0.0
        self._draw("rect", x0, y0, xm, y1, FILL)
        self._draw("rect", x0 + t * (xm - x0 - 6), y0, x0 + t * (xm - x0 - 6) + 6, y1, HOVER)
        shown = f"{value}" if as_int else f"{value:.3f}"
        self._draw("text", shown, x0 + 4, y1 - 2, TEXT)
        self._draw("text", str(text), xm + 4, y1 - 2, TEXT)
        return value

    def slider_int(self, text, old_value, minimum, maximum):
        return self._slider(text, int(old_value), int(minimum), int(maximum), True)

    def slider_float(self, text, old_value, minimum, maximum):
        return self._slider(text, float(old_value), float(minimum), float(maximum), False)

    def color_edit_3(self, text, old_value):
        """A colour swatch; dragging across it sets the brightness of the colour's hue."""
        c = arr.rgb(old_value, "gui.color_edit_3: old_value")
        x0, y0, x1, y1 = self._row()
        xm = (x0 + x1) / 2
        frac = self._dragging(x0, y0, xm, y1)
        if frac is not None:
            peak = max(max(c), 1e-6)
            c = tuple(min(1.0, x / peak * min(max(frac, 0.0), 1.0)) for x in c)
        self._draw("rect", x0, y0, xm, y1, _hex(c))
        self._draw("text", str(text), xm + 4, y1 - 2, TEXT)
        return c


def draw(ops, canvas):
    """The frame's widget drawing (rect x0 y0 x1 y1 colour / text s x top colour) over the canvas."""
    W, H = canvas.width, canvas.height
    for op in ops:
        if op[0] == "rect":
            _, x0, y0, x1, y1, col = op
            canvas.fill_rect(int(x0), int(y0), int(x1), int(y1), col)
        else:
            _, s, x, top, col = op
            canvas.text(s, x / W, top / H, FONT, col)
