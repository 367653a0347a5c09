"""ti.GUI's widgets: sliders, labels and buttons stacked down the window's
top-right corner, 200 pixels wide, drawn onto the canvas at each show() and
driven by the left mouse button (as Taichi's GUI lays them out)."""

WIDTH = 200
ROW = 40
TEXT = 0x111111
BACKGROUND = 0xAAAAAA
HOVER = 0xCCCCCC
BAR = 0x333333
KNOB = 0x555555
PAD = 10


class Widget:
    def __init__(self, kind, text, x, y, h, value=0.0, minimum=0.0, maximum=1.0, step=1.0, event_name=None):
        self.kind, self.text = kind, text
        self.x, self.y, self.w, self.h = x, y, WIDTH, h  # pixels, y from the bottom
        self.value, self.minimum, self.maximum, self.step = value, minimum, maximum, step
        self.event_name = event_name

    def inside(self, px, py):
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h

    def caption(self):
        if self.kind == "button":
            return self.text
        return f"{self.text}: {self.value:.3f}"  # widget values are floats, as in Taichi

    def draw(self, canvas, hover):
        canvas.fill_rect(self.x + 1, self.y + 1, self.x + self.w - 1, self.y + self.h - 1, HOVER if hover else BACKGROUND)
        size = 32 if self.kind == "button" else 16
        top = (self.y + self.h - 2) / canvas.height
        canvas.text(self.caption(), (self.x + 2) / canvas.width, top, size, TEXT)
        if self.kind == "slider":
            canvas.fill_rect(self.x + PAD, self.y + PAD, self.x + self.w - PAD, self.y + PAD + 3, BAR)
            span = self.maximum - self.minimum
            alpha = (self.value - self.minimum) / span if span else 0.0
            kx = self.x + PAD + alpha * (self.w - 2 * PAD)
            canvas.circle(kx / canvas.width, (self.y + PAD + 1) / canvas.height, 5, KNOB)

    def drag(self, px):
        """The left button is down at column px: a slider takes the value there."""
        alpha = min(max((px - self.x - PAD) / (self.w - 2 * PAD), 0.0), 1.0)
        v = alpha * (self.maximum - self.minimum) + self.minimum
        if self.step:
            v = self.minimum + round((v - self.minimum) / self.step) * self.step
            v = min(max(v, self.minimum), self.maximum)
        self.value = float(v)


class Widgets:
    def __init__(self, res):
        self.res = res
        self.items = []
        self.used = 0  # height taken from the top so far

    def add(self, kind, text, h, **kw):
        self.used += h
        w = Widget(kind, text, self.res[0] - WIDTH, self.res[1] - self.used, h, **kw)
        self.items.append(w)
        return len(self.items) - 1

    def draw(self, canvas, cursor):
        for w in self.items:
            w.draw(canvas, w.inside(*cursor))

    def mouse(self, kind, px, py, left_down):
        """A pointer event in pixels; returns the button event names it fires."""
        fired = []
        for w in self.items:
            if not w.inside(px, py):
                continue
            if w.kind == "slider" and left_down and kind in ("press", "move"):
                w.drag(px)
            elif w.kind == "button" and kind == "release":
                fired.append(w.event_name)
        return fired
