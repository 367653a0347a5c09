"""Key and event names of ti.ui (those of Taichi's GGUI): ti.GUI's, but
for the caps lock key and the event types."""
from .._gui import GUI as _GUI

SHIFT, ALT, CTRL, ESCAPE, RETURN, TAB, BACKSPACE, SPACE, UP, DOWN, LEFT, RIGHT, LMB, MMB, RMB = (
    getattr(_GUI, n) for n in ("SHIFT", "ALT", "CTRL", "ESCAPE", "RETURN", "TAB", "BACKSPACE", "SPACE", "UP", "DOWN",
                               "LEFT", "RIGHT", "LMB", "MMB", "RMB"))
CAPSLOCK = "CapsLock"  # ti.GUI's is X11's "Caps_Lock"

PRESS = "Press"
RELEASE = "Release"

__all__ = ["SHIFT", "ALT", "CTRL", "ESCAPE", "RETURN", "TAB", "BACKSPACE", "SPACE", "UP", "DOWN", "LEFT", "RIGHT",
           "CAPSLOCK", "LMB", "MMB", "RMB", "PRESS", "RELEASE"]
