"""ti.ui's Camera: where a scene is seen from (scene.set_camera(camera))."""
import math
import time

from . import _arrays as arr


class ProjectionMode:
    """Camera projection modes (camera.projection_mode(...))."""
    Perspective = 0
    Orthogonal = 1


def _vec(x, y, z):
    from .._matrix import Vector
    return Vector([float(x), float(y), float(z)])


class Camera:
    """Position, look-at point and up direction (curr_position, curr_lookat,
    curr_up), a vertical field of view in degrees (45), near and far planes
    (0.1, 1000), and the orthogonal projection's left/right/top/bottom."""

    def __init__(self):
        self.position(0.0, 0.0, 0.0)
        self.lookat(0.0, 0.0, 1.0)
        self.up(0.0, 1.0, 0.0)
        self._fov = 45.0
        self._near, self._far = 0.1, 1000.0
        self._mode = ProjectionMode.Perspective
        self._box = [-1.0, 1.0, -1.0, 1.0]  # left, right, top, bottom
        self.last_mouse_x = None
        self.last_mouse_y = None
        self.last_time = None

    def position(self, x, y, z):
        self.curr_position = _vec(x, y, z)

    def lookat(self, x, y, z):
        self.curr_lookat = _vec(x, y, z)

    def up(self, x, y, z):
        self.curr_up = _vec(x, y, z)

    def projection_mode(self, mode):
        if mode not in (ProjectionMode.Perspective, ProjectionMode.Orthogonal):
            raise ValueError("camera.projection_mode takes ti.ui.ProjectionMode.Perspective or .Orthogonal")
        self._mode = mode

    def fov(self, fov):
        fov = arr.scalar(fov, "camera.fov")
        if not 0 < fov < 180:
            raise ValueError(f"camera.fov is an angle in degrees in (0, 180), not {fov}")
        self._fov = fov

    def left(self, left):
        self._box[0] = arr.scalar(left, "camera.left")

    def right(self, right):
        self._box[1] = arr.scalar(right, "camera.right")

    def top(self, top):
        self._box[2] = arr.scalar(top, "camera.top")

    def bottom(self, bottom):
        self._box[3] = arr.scalar(bottom, "camera.bottom")

    def z_near(self, z_near):
        self._near = arr.scalar(z_near, "camera.z_near")

    def z_far(self, z_far):
        self._far = arr.scalar(z_far, "camera.z_far")

    def _apply(self, native_scene):
        if not 0 < self._near < self._far:
            raise ValueError(f"the camera's planes need 0 < z_near < z_far, not {self._near} and {self._far}")
        native_scene.set_camera(list(self.curr_position), list(self.curr_lookat), list(self.curr_up), self._fov,
                                self._near, self._far, self._mode == ProjectionMode.Orthogonal, *self._box)

    def get_view_matrix(self):
        """The 4x4 view matrix (numpy; applied to column vectors)."""
        from ._scene import _native
        s = _native().Scene()
        self._apply(s)
        return s.view_matrix()

    def get_projection_matrix(self, aspect):
        """The 4x4 projection matrix for width/height `aspect` (Vulkan depth: 0 near, 1 far)."""
        from ._scene import _native
        s = _native().Scene()
        self._apply(s)
        return s.projection_matrix(float(aspect))

    def track_user_inputs(self, window, movement_speed=1.0, yaw_speed=2.0, pitch_speed=2.0, hold_key=None):
        """Moves the camera from the window's input: w/s forward and back,
        a/d left and right, e/q up and down; the mouse turns it (while
        hold_key is held, when given). Speeds are per 1/60 s."""
        front = (self.curr_lookat - self.curr_position).normalized()
        left = self.curr_up.cross(front)
        up = self.curr_up
        now = time.perf_counter()
        elapsed = 0.0 if self.last_time is None else now - self.last_time
        self.last_time = now
        step = movement_speed * elapsed * 60.0
        change = _vec(0, 0, 0)
        for key, d in (("w", front), ("s", -front), ("a", left), ("d", -left), ("e", up), ("q", -up)):
            if window.is_pressed(key):
                change = change + d * step
        self.curr_position = self.curr_position + change
        mx, my = window.get_cursor_pos()
        if hold_key is None or window.is_pressed(hold_key):
            if self.last_mouse_x is None:
                self.last_mouse_x, self.last_mouse_y = mx, my
            dx, dy = mx - self.last_mouse_x, my - self.last_mouse_y
            pitch = math.asin(max(-1.0, min(1.0, float(front[1]))))
            yaw = math.atan2(float(front[0]), float(front[2]))
            yaw -= dx * yaw_speed * elapsed * 60.0
            pitch += dy * pitch_speed * elapsed * 60.0
            limit = math.pi / 2 * 0.99
            pitch = max(-limit, min(limit, pitch))
            front = _vec(math.sin(yaw) * math.cos(pitch), math.sin(pitch), math.cos(yaw) * math.cos(pitch))
        self.curr_lookat = self.curr_position + front
        self.last_mouse_x, self.last_mouse_y = mx, my


def make_camera():
    return Camera()
