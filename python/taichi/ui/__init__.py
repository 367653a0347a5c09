"""ti.ui: Taichi's GGUI (windows, 2-D canvases, 3-D scenes, widgets) on
Kiln's CPU renderer (vm/ggui, through taichi._gui_core).

Frames show in the SDL2 window that ti.GUI uses when a display is there and
show_window is true; otherwise they render offscreen, where save_image and
get_image_buffer_as_numpy read them. KILN_GUI_FRAMES=N and KILN_GUI_SAVE=DIR
work as for ti.GUI (see taichi._gui)."""
from ._camera import Camera, ProjectionMode, make_camera
from ._canvas import Canvas
from ._constants import *  # noqa: F401,F403 (the key and event names)
from ._imgui import Gui
from ._scene import Scene
from ._window import Event, Window

SceneV2 = Scene
