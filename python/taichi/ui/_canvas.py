"""ti.ui's Canvas: the 2-D drawing surface of a window (window.get_canvas())."""
from . import _arrays as arr
from .._gui_image import as_numpy, displayable, plasma


class Canvas:
    """Drawings of the current frame; positions in [0, 1]^2 with y up,
    circle radii and line widths as fractions of the window's height."""

    def __init__(self, window):
        self._window = window
        self._painter = window._painter

    def _changed(self):
        self._window._rendered = False

    def set_background_color(self, color):
        """The colour the frame starts from, (r, g, b) in [0, 1]; it stays for later frames."""
        self._painter.set_background(arr.rgb(color, "canvas.set_background_color: color"))
        self._changed()

    def set_image(self, img):
        """Fills the canvas with an image (a field, an ndarray or a numpy
        array; (w, h) grey or (w, h, 1-4 channels); floats in [0, 1] or u8),
        stretched to the window; img[i, j] is column i, row j from the bottom."""
        self._painter.set_image(displayable(img, "canvas.set_image"))
        self._changed()

    def contour(self, scalar_field, cmap_name="plasma", normalize=False):
        """A 2-D scalar field through the plasma colour map (the only one here)."""
        import numpy as np
        if cmap_name != "plasma":
            raise ValueError(f"canvas.contour: only the 'plasma' colour map is available, not {cmap_name!r}")
        a = np.asarray(as_numpy(scalar_field, "canvas.contour", view=True), dtype=np.float64)
        if a.ndim != 2:
            raise ValueError(f"canvas.contour takes a 2-D scalar field, not shape {a.shape}")
        if normalize:
            lo, hi = np.min(a), np.max(a)
            a = (a - lo) / (hi - lo + 1e-16)
        self.set_image(plasma(a))

    def triangles(self, vertices, color=(0.5, 0.5, 0.5), indices=None, per_vertex_color=None):
        """Filled triangles: vertices (a field of 2-vectors) three at a time,
        or as indices (3 per triangle) number them; colours per vertex blend."""
        pos = arr.positions(vertices, 2, "canvas.triangles: vertices")
        self._painter.triangles(pos, arr.order(len(pos), indices, 3, "canvas.triangles"),
                                arr.colors(per_vertex_color, len(pos), "canvas.triangles: per_vertex_color"),
                                arr.rgb(color, "canvas.triangles: color"))
        self._changed()

    def lines(self, vertices, width, indices=None, color=(0.5, 0.5, 0.5), per_vertex_color=None):
        """Segments between vertices two at a time (or as indices pair them),
        `width` a fraction of the window's height."""
        pos = arr.positions(vertices, 2, "canvas.lines: vertices")
        self._painter.lines(pos, arr.order(len(pos), indices, 2, "canvas.lines"),
                            arr.colors(per_vertex_color, len(pos), "canvas.lines: per_vertex_color"),
                            arr.rgb(color, "canvas.lines: color"), arr.scalar(width, "canvas.lines: width"))
        self._changed()

    def circles(self, centers, radius=None, color=(0.5, 0.5, 0.5), per_vertex_color=None, per_vertex_radius=None):
        """Discs at centers (a field of 2-vectors), radius a fraction of the
        window's height (or one per circle: per_vertex_radius)."""
        pos = arr.positions(centers, 2, "canvas.circles: centers")
        if radius is None and per_vertex_radius is None:
            raise TypeError("canvas.circles needs a radius (or per_vertex_radius)")
        self._painter.circles(pos, arr.order(len(pos), None, 1, "canvas.circles"),
                              arr.colors(per_vertex_color, len(pos), "canvas.circles: per_vertex_color"),
                              arr.rgb(color, "canvas.circles: color"),
                              arr.radii(per_vertex_radius, len(pos), "canvas.circles: per_vertex_radius"),
                              0.0 if radius is None else arr.scalar(radius, "canvas.circles: radius"))
        self._changed()

    def vector_field(self, vector_field, arrow_spacing=5, scale=0.1, width=0.002, color=(0, 0, 0)):
        """Arrows for every arrow_spacing-th vector of a 2-D field of 2-vectors,
        the longest `scale` of the canvas."""
        import numpy as np
        v = np.asarray(as_numpy(vector_field, "canvas.vector_field", view=True), dtype=np.float64)
        if v.ndim != 3 or v.shape[2] != 2:
            raise ValueError(f"canvas.vector_field takes a 2-D field of 2-vectors, not shape {v.shape}")
        nx, ny = v.shape[:2]
        s = scale / (np.max(np.linalg.norm(v, axis=-1)) + 1e-16)
        xs = np.minimum(np.arange(0, nx + arrow_spacing, arrow_spacing), nx - 1)
        ys = np.minimum(np.arange(0, ny + arrow_spacing, arrow_spacing), ny - 1)
        gi, gj = np.meshgrid(np.unique(xs), np.unique(ys), indexing="ij")
        base = np.stack([gi.ravel() / max(nx - 1, 1), gj.ravel() / max(ny - 1, 1)], axis=1)
        d = v[gi.ravel(), gj.ravel()] * s
        tip = base + d
        ang = np.arctan2(d[:, 1], d[:, 0])
        length = np.linalg.norm(d, axis=1) * 0.2
        heads = [tip + length[:, None] * np.stack([np.cos(ang + sgn * (np.pi - np.pi / 6)),
                                                    np.sin(ang + sgn * (np.pi - np.pi / 6))], axis=1)
                 for sgn in (1, -1)]
        pts = np.stack([base, tip, tip, heads[0], tip, heads[1]], axis=1).reshape(-1, 2)
        self.lines(pts.astype(np.float32), width=width, color=color)

    def scene(self, scene):
        """Renders the scene as it is now (camera, lights, geometry) over the canvas."""
        from ._scene import Scene
        if not isinstance(scene, Scene):
            raise TypeError(f"canvas.scene takes a ti.ui.Scene (window.get_scene()), not {type(scene).__name__}")
        self._painter.scene(scene._scene)
        self._window._scenes.add(scene)
        self._changed()
