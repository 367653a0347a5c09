"""ti.tools.PLYWriter: point clouds and meshes as PLY files (binary or
ASCII), with Taichi's API: add named per-vertex and per-face channels of
numpy data, then export(path), export_ascii(path) or export_frame(n, prefix)
for a numbered series (prefix_000000.ply, ...)."""
import sys

# PLY's scalar types and the numpy types that hold them.
_TYPES = {"char": "i1", "uchar": "u1", "short": "i2", "ushort": "u2", "int": "i4", "uint": "u4", "float": "f4",
          "double": "f8"}


class PLYWriter:
    """A PLY file of num_vertices vertices and num_faces faces ("tri" or "quad")."""

    def __init__(self, num_vertices: int, num_faces=0, face_type="tri", comment="created by PLYWriter"):
        import numpy as np
        if num_vertices <= 0:
            raise ValueError(f"PLYWriter: num_vertices must be positive, not {num_vertices}")
        if num_faces < 0:
            raise ValueError(f"PLYWriter: num_faces must not be negative, not {num_faces}")
        if face_type not in ("tri", "quad"):
            raise ValueError(f"PLYWriter: face_type must be 'tri' or 'quad', not {face_type!r}")
        self.num_vertices = num_vertices
        self.num_faces = num_faces
        self.face_type = face_type
        self.comment = comment
        self.vertex_channels = []  # (name, PLY type, 1-D array)
        self.face_channels = []
        self.face_indices = -np.ones((num_faces, 3 if face_type == "tri" else 4), dtype=np.int32)

    def _add(self, channels, count, what, key, data_type, data):
        import numpy as np
        if data_type not in _TYPES:  # Taichi's writer skips such a channel and goes on; so does this one
            print(f"PLYWriter: unknown type {data_type!r} (one of {', '.join(_TYPES)}); channel {key!r} skipped",
                  file=sys.stderr)
            return
        data = np.asarray(data)
        if data.size % count or (data.ndim == 1 and data.size != count):
            raise ValueError(f"PLYWriter: channel {key!r} has {data.size} values for {count} {what}")
        cols = data.reshape(count, -1)
        names = [key] if data.ndim == 1 else [f"{key}_{c + 1}" for c in range(cols.shape[1])]
        taken = {name for name, _, _ in channels}
        for c, name in enumerate(names):
            if name in taken:  # a second property of one name would make the file unreadable
                print(f"PLYWriter: {what} channel {name!r} was already added; the new one is skipped",
                      file=sys.stderr)
                continue
            channels.append((name, data_type, cols[:, c].astype(_TYPES[data_type])))

    def add_vertex_channel(self, key: str, data_type: str, data):
        """A named per-vertex property; an (n, k) array adds key_1 .. key_k."""
        self._add(self.vertex_channels, self.num_vertices, "vertices", key, data_type, data)

    def add_face_channel(self, key: str, data_type: str, data):
        """A named per-face property; an (n, k) array adds key_1 .. key_k."""
        self._add(self.face_channels, self.num_faces, "faces", key, data_type, data)

    def add_vertex_pos(self, x, y, z):
        for k, v in zip("xyz", (x, y, z)):
            self.add_vertex_channel(k, "float", v)

    def add_vertex_normal(self, nx, ny, nz):
        for k, v in zip(("nx", "ny", "nz"), (nx, ny, nz)):
            self.add_vertex_channel(k, "float", v)

    def add_vertex_vel(self, vx, vy, vz):
        for k, v in zip(("vx", "vy", "vz"), (vx, vy, vz)):
            self.add_vertex_channel(k, "float", v)

    def add_vertex_color(self, r, g, b):
        for k, v in zip(("red", "green", "blue"), (r, g, b)):
            self.add_vertex_channel(k, "float", v)

    def add_vertex_alpha(self, alpha):
        self.add_vertex_channel("Alpha", "float", alpha)

    def add_vertex_rgba(self, r, g, b, a):
        self.add_vertex_color(r, g, b)
        self.add_vertex_alpha(a)

    def add_vertex_id(self):
        import numpy as np
        self.add_vertex_channel("id", "int", np.arange(self.num_vertices))

    def add_vertex_piece(self, piece):
        self.add_vertex_channel("piece", "int", piece)

    def add_face_id(self):
        import numpy as np
        self.add_face_channel("id", "int", np.arange(self.num_faces))

    def add_face_piece(self, piece):
        self.add_face_channel("piece", "int", piece)

    def add_faces(self, indices):
        """Vertex indices of every face: num_faces * 3 (or 4) integers."""
        import numpy as np
        indices = np.asarray(indices)
        if indices.size != self.face_indices.size:
            raise ValueError(f"PLYWriter: {self.num_faces} {self.face_type} faces need {self.face_indices.size} "
                             f"indices, not {indices.size}")
        self.face_indices = indices.reshape(self.face_indices.shape).astype(np.int32)

    def _check(self):
        names = [name for name, _, _ in self.vertex_channels]
        if not all(k in names for k in "xyz"):
            raise ValueError("PLYWriter: add the vertex positions (add_vertex_pos) before exporting")
        bad = (self.face_indices < 0) | (self.face_indices >= self.num_vertices)
        if self.num_faces and bad.any():
            raise ValueError(f"PLYWriter: face indices must lie in [0, {self.num_vertices}) (add_faces)")

    def _header(self, fmt):
        lines = ["ply", f"format {fmt} 1.0", f"comment {self.comment}", f"element vertex {self.num_vertices}"]
        lines += [f"property {t} {name}" for name, t, _ in self.vertex_channels]
        if self.num_faces:
            lines += [f"element face {self.num_faces}", "property list uchar int vertex_indices"]
            lines += [f"property {t} {name}" for name, t, _ in self.face_channels]
        return "\n".join(lines + ["end_header"]) + "\n"

    @staticmethod
    def _records(channels, n, lead=()):
        """n rows as one packed numpy structured array, in this machine's byte order."""
        import numpy as np
        fields = list(lead) + [(name, _TYPES[t]) for name, t, _ in channels]
        rec = np.empty(n, dtype=fields)
        for name, _, col in channels:
            rec[name] = col
        return rec

    def export(self, path):
        """Writes a binary PLY file (this machine's byte order)."""
        self._check()
        with open(path, "wb") as f:
            f.write(self._header(f"binary_{sys.byteorder}_endian").encode())
            f.write(self._records(self.vertex_channels, self.num_vertices).tobytes())
            if self.num_faces:
                k = self.face_indices.shape[1]
                faces = self._records(self.face_channels, self.num_faces, [("n", "u1"), ("v", "i4", (k,))])
                faces["n"] = k
                faces["v"] = self.face_indices
                f.write(faces.tobytes())

    def export_ascii(self, path):
        """Writes an ASCII PLY file."""
        self._check()
        with open(path, "w") as f:
            f.write(self._header("ascii"))
            cols = [c for _, _, c in self.vertex_channels]
            for i in range(self.num_vertices):
                f.write(" ".join(str(c[i]) for c in cols) + "\n")
            fcols = [c for _, _, c in self.face_channels]
            for i in range(self.num_faces):
                row = [str(self.face_indices.shape[1])] + [str(v) for v in self.face_indices[i]]
                f.write(" ".join(row + [str(c[i]) for c in fcols]) + "\n")

    @staticmethod
    def _series_path(series_num, path):
        stem = path[:-4] if path.endswith(".ply") else path
        return f"{stem}_{series_num:06d}.ply"

    def export_frame(self, series_num: int, path: str):
        """export() to path_000042.ply for series_num 42 (a trailing .ply is moved)."""
        self.export(self._series_path(series_num, path))

    def export_frame_ascii(self, series_num: int, path: str):
        self.export_ascii(self._series_path(series_num, path))
