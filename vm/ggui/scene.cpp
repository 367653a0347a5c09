// Rendering a GGUI scene (scene.h): meshes through the triangle
// rasteriser with near-plane clipping, particles as sphere impostors,
// lines as screen-space quads.
#include "vm/ggui/scene.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace kiln::ggui {

namespace {

RGB lambert(const Scene& s, const PointLight* lights, Vec3 p, Vec3 n, RGB albedo) {
  RGB sum = s.ambient;
  for (size_t k = 0; k < s.lights.size(); k++) {
    float d = dot(normalized(lights[k].pos - p), n);
    if (d > 0) sum.r += d * lights[k].color.r, sum.g += d * lights[k].color.g, sum.b += d * lights[k].color.b;
  }
  return RGB{std::min(1.0f, albedo.r * sum.r), std::min(1.0f, albedo.g * sum.g), std::min(1.0f, albedo.b * sum.b)};
}

// What every drawing of one render shares: the matrices and the screen.
struct View {
  const Scene& s;
  Mat4 v, p, vp;
  float w, h;
  View(const Scene& sc, float width, float height) : s(sc), w(width), h(height) {
    v = sc.camera.view();
    p = sc.camera.projection(width / height);
    vp = p * v;
  }
  ScreenVertex to_screen(Vec4 c) const {
    float iw = 1.0f / c.w;
    return {(c.x * iw * 0.5f + 0.5f) * w, (c.y * iw * 0.5f + 0.5f) * h, c.z * iw, iw};
  }
};

// Mesh fragments: attributes are world position, normal and colour.
struct MeshShader final : FragmentShader {
  const Scene& s;
  bool two_sided;
  MeshShader(const Scene& sc, bool ts) : s(sc), two_sided(ts) {}
  bool shade(const Attrs& a, RGB& out) const override {
    Vec3 p{a.v[0], a.v[1], a.v[2]};
    Vec3 n = normalized(Vec3{a.v[3], a.v[4], a.v[5]});
    if (two_sided && dot(n, s.camera.position - p) < 0) n = -n;
    out = lambert(s, s.lights.data(), p, n, RGB{a.v[6], a.v[7], a.v[8]});
    return true;
  }
};

struct ClipVertex {
  Vec4 c;
  Attrs a;
};

ClipVertex lerp(const ClipVertex& x, const ClipVertex& y, float t) {
  ClipVertex r;
  r.c = {x.c.x + (y.c.x - x.c.x) * t, x.c.y + (y.c.y - x.c.y) * t, x.c.z + (y.c.z - x.c.z) * t,
         x.c.w + (y.c.w - x.c.w) * t};
  for (int k = 0; k < kMaxAttrs; k++) r.a.v[k] = x.a.v[k] + (y.a.v[k] - x.a.v[k]) * t;
  return r;
}

// Cuts the polygon to the near plane's front (clip z >= 0) and draws it
// as a fan of triangles.
void draw_clipped(Frame& f, const View& view, const ClipVertex in[3], const FragmentShader& shader, Rows rows) {
  ClipVertex poly[4];
  int n = 0;
  for (int k = 0; k < 3; k++) {
    const ClipVertex &a = in[k], &b = in[(k + 1) % 3];
    bool ina = a.c.z >= 0, inb = b.c.z >= 0;
    if (ina) poly[n++] = a;
    if (ina != inb) poly[n++] = lerp(a, b, a.c.z / (a.c.z - b.c.z));
  }
  for (int k = 1; k + 1 < n; k++) {
    ScreenVertex sv[3] = {view.to_screen(poly[0].c), view.to_screen(poly[k].c), view.to_screen(poly[k + 1].c)};
    Attrs at[3] = {poly[0].a, poly[k].a, poly[k + 1].a};
    raster_triangle(f, sv, at, kMaxAttrs, true, shader, rows);
  }
}

// A world-space segment clipped to the near plane, then drawn on screen.
void draw_segment(Frame& f, const View& view, Vec3 a, Vec3 b, RGB ca, RGB cb, float width, Rows rows) {
  Vec4 pa = view.vp * Vec4{a.x, a.y, a.z, 1}, pb = view.vp * Vec4{b.x, b.y, b.z, 1};
  if (pa.z < 0 && pb.z < 0) return;
  if (pa.z < 0 || pb.z < 0) {
    float t = pa.z / (pa.z - pb.z);
    Vec4 m{pa.x + (pb.x - pa.x) * t, pa.y + (pb.y - pa.y) * t, 0, pa.w + (pb.w - pa.w) * t};
    RGB cm{ca.r + (cb.r - ca.r) * t, ca.g + (cb.g - ca.g) * t, ca.b + (cb.b - ca.b) * t};
    if (pa.z < 0) pa = m, ca = cm;
    else pb = m, cb = cm;
  }
  raster_segment(f, view.to_screen(pa), view.to_screen(pb), width, ca, cb, true, rows);
}

void draw_mesh(Frame& f, const View& view, const MeshDraw& m, Rows rows) {
  const Geometry& g = m.g;
  MeshShader shader(view.s, m.two_sided);
  std::vector<Mat4> once(1);
  const std::vector<Mat4>& models = m.instances.empty() ? once : m.instances;
  for (const Mat4& model : models) {
    Mat4 mvp = view.vp * model;
    for (size_t t = 0; t + 3 <= g.order.size(); t += 3) {
      int32_t idx[3] = {g.order[t], g.order[t + 1], g.order[t + 2]};
      Vec3 w[3];
      for (int k = 0; k < 3; k++) w[k] = model.point(g.at(idx[k]));
      if (m.wireframe) {
        for (int k = 0; k < 3; k++)
          draw_segment(f, view, w[k], w[(k + 1) % 3], g.color_of(idx[k]), g.color_of(idx[(k + 1) % 3]), 1, rows);
        continue;
      }
      Vec3 face = cross(w[1] - w[0], w[2] - w[0]);
      ClipVertex cv[3];
      for (int k = 0; k < 3; k++) {
        Vec3 p = g.at(idx[k]);
        cv[k].c = mvp * Vec4{p.x, p.y, p.z, 1};
        Vec3 n = m.normals.empty() ? face
                                   : model.direction(Vec3{m.normals[3 * idx[k]], m.normals[3 * idx[k] + 1],
                                                          m.normals[3 * idx[k] + 2]});
        RGB c = g.color_of(idx[k]);
        float attrs[kMaxAttrs] = {w[k].x, w[k].y, w[k].z, n.x, n.y, n.z, c.r, c.g, c.b};
        std::copy(attrs, attrs + kMaxAttrs, cv[k].a.v);
      }
      draw_clipped(f, view, cv, shader, rows);
    }
  }
}

void draw_particles(Frame& f, const View& view, const ParticleDraw& d, Rows rows) {
  const Camera& cam = view.s.camera;
  std::vector<PointLight> lights = view.s.lights;  // shaded in view space
  for (auto& l : lights) l.pos = view.v.point(l.pos);
  const Mat4& p = view.p;
  float half_h = 0.5f * view.h, half_w = 0.5f * view.w;
  for (int32_t k : d.g.order) {
    float r = d.radii.empty() ? d.radius : d.radii[k];
    Vec3 c = view.v.point(d.g.at(k));
    float dist = -c.z;
    if (!(r > 0) || (!cam.orthogonal && dist - r < cam.z_near)) continue;
    float scale = cam.orthogonal ? 1.0f : 1.0f / dist;
    float sx = (p.m[0][0] * c.x * scale + p.m[0][3] + 1) * half_w;
    float sy = (p.m[1][1] * c.y * scale + p.m[1][3] + 1) * half_h;
    float rx = p.m[0][0] * r * scale * half_w, ry = p.m[1][1] * r * scale * half_h;
    RGB albedo = d.g.color_of(k);
    int i0, i1, j0, j1;
    pixel_span(sx - rx, sx + rx, f.width(), i0, i1);
    pixel_span(sy - ry, sy + ry, f.height(), j0, j1, rows);
    for (int j = j0; j <= j1; j++) {
      float dy = (j + 0.5f - sy) / ry;
      for (int i = i0; i <= i1; i++) {
        float dx = (i + 0.5f - sx) / rx;
        float d2 = dx * dx + dy * dy;
        if (d2 > 1) continue;
        Vec3 n{dx, dy, std::sqrt(1 - d2)};
        Vec3 q = c + n * r;
        float z = cam.orthogonal ? p.m[2][2] * q.z + p.m[2][3] : (p.m[2][2] * q.z + p.m[2][3]) / -q.z;
        size_t at = f.index(i, j);
        if (z < 0 || z > 1 || z >= f.depth[at]) continue;
        f.depth[at] = z;
        f.put(i, j, lambert(view.s, lights.data(), q, n, albedo));
      }
    }
  }
}

void render_rows(Frame& f, const View& view, Rows rows) {
  const Scene& s = view.s;
  for (const MeshDraw& m : s.meshes) draw_mesh(f, view, m, rows);
  for (const ParticleDraw& d : s.particles) draw_particles(f, view, d, rows);
  for (const LineDraw& l : s.lines) {
    const Geometry& g = l.g;
    for (size_t k = 0; k + 2 <= g.order.size(); k += 2)
      draw_segment(f, view, g.at(g.order[k]), g.at(g.order[k + 1]), g.color_of(g.order[k]),
                   g.color_of(g.order[k + 1]), l.width, rows);
  }
}

}  // namespace

void render_scene(Frame& f, const Scene& s) {
  if (f.width() <= 0 || f.height() <= 0) return;
  View view(s, float(f.width()), float(f.height()));
  // Each thread draws everything into its own band of rows: the bands
  // share no pixel, so the result is the same with any number of threads.
  int bands = int(std::clamp<unsigned>(std::thread::hardware_concurrency(), 1u, 16u));
  bands = std::max(1, std::min(bands, f.height() / 32));
  if (bands == 1) return render_rows(f, view, Rows{0, f.height()});
  std::vector<std::thread> threads;
  for (int b = 0; b < bands; b++) {
    Rows rows{f.height() * b / bands, f.height() * (b + 1) / bands};
    threads.emplace_back([&f, &view, rows] { render_rows(f, view, rows); });
  }
  for (auto& t : threads) t.join();
}

}  // namespace kiln::ggui
