"""ti.ui's Scene: the 3-D declarations of a frame (window.get_scene(), or
ti.ui.Scene()), drawn by canvas.scene(scene). Geometry and point lights are
declared every frame; the camera and the ambient light stay."""
from . import _arrays as arr
from .._gui_image import as_numpy


def _native():
    from .. import _gui_core
    return _gui_core


def _normals(pos, indices):
    """Per-vertex normals: each vertex's average of its triangles' normals
    (consecutive triples without indices), as GGUI infers them."""
    import numpy as np
    n = len(pos)
    tri = (np.arange(n - n % 3) if indices is None else
           np.asarray(as_numpy(indices, "scene.mesh: indices", view=True)).reshape(-1).astype(np.int64))
    tri = tri[:len(tri) - len(tri) % 3].reshape(-1, 3)
    if len(tri) and (tri.min() < 0 or tri.max() >= n):
        raise ValueError(f"scene.mesh: indices must lie in [0, {n})")
    a, b, c = pos[tri[:, 0]], pos[tri[:, 1]], pos[tri[:, 2]]
    face = np.cross(b - a, c - a)
    face /= np.maximum(np.linalg.norm(face, axis=1, keepdims=True), 1e-20)
    out = np.zeros((n, 3), np.float64)
    for k in range(3):
        for comp in range(3):
            out[:, comp] += np.bincount(tri[:, k], weights=face[:, comp], minlength=n)
    out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-20)
    return out.astype(np.float32)


class Scene:
    def __init__(self):
        self._scene = _native().Scene()
        self._camera = None

    def set_camera(self, camera):
        """Views the scene through `camera` (its settings now are copied)."""
        from ._camera import Camera
        if not isinstance(camera, Camera):
            raise TypeError(f"scene.set_camera takes a ti.ui.Camera, not {type(camera).__name__}")
        camera._apply(self._scene)
        self._camera = camera

    def point_light(self, pos, color):
        """A point light at pos with colour (r, g, b), for this frame."""
        self._scene.point_light(arr.rgb(pos, "scene.point_light: pos"), arr.rgb(color, "scene.point_light: color"))

    def ambient_light(self, color):
        """The ambient light's colour (r, g, b) (0.1 grey until set)."""
        self._scene.ambient_light(arr.rgb(color, "scene.ambient_light: color"))

    def mesh(self, vertices, indices=None, normals=None, color=(0.5, 0.5, 0.5), per_vertex_color=None,
             two_sided=False, vertex_offset=0, vertex_count=None, index_offset=0, index_count=None,
             show_wireframe=False):
        """Triangles of 3-D vertices (three at a time, or numbered by indices),
        lit per fragment; normals are inferred when not given."""
        self._mesh("scene.mesh", vertices, indices, normals, color, per_vertex_color, two_sided, None, vertex_offset,
                   vertex_count, index_offset, index_count, show_wireframe)

    def mesh_instance(self, vertices, indices=None, normals=None, color=(0.5, 0.5, 0.5), per_vertex_color=None,
                      two_sided=False, transforms=None, instance_offset=0, instance_count=None, vertex_offset=0,
                      vertex_count=None, index_offset=0, index_count=None, show_wireframe=False):
        """The mesh once per 4x4 model matrix of transforms (a field of 4x4
        matrices), from instance_offset on, instance_count of them."""
        import numpy as np
        inst = None
        if transforms is not None:
            t = np.asarray(as_numpy(transforms, "scene.mesh_instance: transforms", view=True), dtype=np.float32)
            if t.ndim != 3 or t.shape[1:] != (4, 4):
                raise ValueError(f"scene.mesh_instance: transforms must be a field of 4x4 matrices, not shape {t.shape}")
            start = arr.count(instance_offset, "scene.mesh_instance: instance_offset")
            t = t[start:]
            if instance_count is not None:
                t = t[:arr.count(instance_count, "scene.mesh_instance: instance_count")]
            inst = np.ascontiguousarray(t)
            if len(inst) == 0:
                return
        self._mesh("scene.mesh_instance", vertices, indices, normals, color, per_vertex_color, two_sided, inst,
                   vertex_offset, vertex_count, index_offset, index_count, show_wireframe)

    def _mesh(self, what, vertices, indices, normals, color, per_vertex_color, two_sided, instances, vertex_offset,
              vertex_count, index_offset, index_count, show_wireframe):
        pos = arr.positions(vertices, 3, f"{what}: vertices")
        if normals is None:
            nrm = _normals(pos, indices)
        else:
            nrm = arr.positions(normals, 3, f"{what}: normals")
        self._scene.mesh(pos, arr.order(len(pos), indices, 3, what, vertex_offset, vertex_count, index_offset,
                                        index_count),
                         arr.colors(per_vertex_color, len(pos), f"{what}: per_vertex_color"),
                         arr.rgb(color, f"{what}: color"), nrm, bool(two_sided), bool(show_wireframe), instances)

    def particles(self, centers, radius=None, color=(0.5, 0.5, 0.5), per_vertex_color=None, per_vertex_radius=None,
                  index_offset=0, index_count=None):
        """Spheres at centers (a field of 3-vectors) of radius (world units),
        or one radius each (per_vertex_radius)."""
        pos = arr.positions(centers, 3, "scene.particles: centers")
        if radius is None and per_vertex_radius is None:
            raise TypeError("scene.particles needs a radius (or per_vertex_radius)")
        self._scene.particles(pos, arr.order(len(pos), None, 1, "scene.particles", index_offset, index_count),
                              arr.colors(per_vertex_color, len(pos), "scene.particles: per_vertex_color"),
                              arr.rgb(color, "scene.particles: color"),
                              arr.radii(per_vertex_radius, len(pos), "scene.particles: per_vertex_radius"),
                              0.0 if radius is None else arr.scalar(radius, "scene.particles: radius"))

    def lines(self, vertices, width=1, indices=None, color=(0.5, 0.5, 0.5), per_vertex_color=None, vertex_offset=0,
              vertex_count=None, index_offset=0, index_count=None):
        """Segments between 3-D vertices two at a time (or as indices pair
        them), `width` pixels wide."""
        pos = arr.positions(vertices, 3, "scene.lines: vertices")
        self._scene.lines(pos, arr.order(len(pos), indices, 2, "scene.lines", vertex_offset, vertex_count,
                                         index_offset, index_count),
                          arr.colors(per_vertex_color, len(pos), "scene.lines: per_vertex_color"),
                          arr.rgb(color, "scene.lines: color"), arr.scalar(width, "scene.lines: width"))
