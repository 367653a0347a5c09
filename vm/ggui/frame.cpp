// The frame and its rasteriser (frame.h): edge functions over the
// triangle's bounding box, sampled at pixel centres.
#include "vm/ggui/frame.h"

#include <algorithm>
#include <cmath>

namespace kiln::ggui {

uint8_t to_unorm8(float x) {
  if (!(x > 0)) return 0;  // NaN too
  if (x >= 1) return 255;
  return uint8_t(x * 255.0f + 0.5f);
}

Frame::Frame(int width, int height) {
  color = gui::make_canvas(width, height, 0);
  depth.assign(size_t(width) * height, 1.0f);
}

void Frame::clear(RGB bg) {
  uint8_t px[4] = {to_unorm8(bg.r), to_unorm8(bg.g), to_unorm8(bg.b), 255};
  for (size_t k = 0; k < color.rgba.size(); k += 4) std::copy(px, px + 4, &color.rgba[k]);
  std::fill(depth.begin(), depth.end(), 1.0f);
}

void Frame::put(int i, int j, RGB c) {
  uint8_t* p = &color.rgba[index(i, j) * 4];
  p[0] = to_unorm8(c.r), p[1] = to_unorm8(c.g), p[2] = to_unorm8(c.b), p[3] = 255;
}

namespace {

float edge(float ax, float ay, float bx, float by, float px, float py) {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

struct FlatColor final : FragmentShader {
  bool shade(const Attrs& a, RGB& out) const override {
    out = RGB{a.v[0], a.v[1], a.v[2]};
    return true;
  }
};

}  // namespace

void pixel_span(float a, float b, int n, int& lo, int& hi, Rows rows) {
  // clamped as floats first: a huge or NaN bound must not overflow the int
  float flo = std::floor(a - 0.5f), fhi = std::ceil(b - 0.5f);
  lo = std::max(rows.lo, flo > 0 ? int(std::min(flo, float(n))) : 0);
  hi = std::min({n - 1, rows.hi - 1, fhi < float(n) ? int(std::max(fhi, -1.0f)) : n - 1});
  if (!(a <= b)) lo = 1, hi = 0;  // NaN
}

void raster_triangle(Frame& f, const ScreenVertex v[3], const Attrs a[3], int n_attrs, bool depth_test,
                     const FragmentShader& shader, Rows rows) {
  float area = edge(v[0].x, v[0].y, v[1].x, v[1].y, v[2].x, v[2].y);
  if (!(std::fabs(area) > 1e-12f)) return;  // degenerate (or NaN)
  int i0, i1, j0, j1;
  pixel_span(std::min({v[0].x, v[1].x, v[2].x}), std::max({v[0].x, v[1].x, v[2].x}), f.width(), i0, i1);
  pixel_span(std::min({v[0].y, v[1].y, v[2].y}), std::max({v[0].y, v[1].y, v[2].y}), f.height(), j0, j1, rows);
  float inv_area = 1.0f / area;
  Attrs at;
  for (int j = j0; j <= j1; j++) {
    float py = j + 0.5f;
    for (int i = i0; i <= i1; i++) {
      float px = i + 0.5f;
      // Barycentric weights; a centre on an edge belongs to the triangle.
      float w0 = edge(v[1].x, v[1].y, v[2].x, v[2].y, px, py) * inv_area;
      float w1 = edge(v[2].x, v[2].y, v[0].x, v[0].y, px, py) * inv_area;
      float w2 = 1.0f - w0 - w1;
      if (w0 < 0 || w1 < 0 || w2 < -1e-6f) continue;
      size_t k = f.index(i, j);
      float z = w0 * v[0].z + w1 * v[1].z + w2 * v[2].z;
      if (depth_test && (z < 0 || z > 1 || z >= f.depth[k])) continue;
      float q0 = w0 * v[0].inv_w, q1 = w1 * v[1].inv_w, q2 = w2 * v[2].inv_w;
      float inv = 1.0f / (q0 + q1 + q2);
      q0 *= inv, q1 *= inv, q2 *= inv;
      for (int n = 0; n < n_attrs; n++) at.v[n] = q0 * a[0].v[n] + q1 * a[1].v[n] + q2 * a[2].v[n];
      RGB c;
      if (!shader.shade(at, c)) continue;
      if (depth_test) f.depth[k] = z;
      f.put(i, j, c);
    }
  }
}

void raster_disc(Frame& f, float cx, float cy, float radius, RGB color) {
  if (!(radius > 0)) return;
  int i0, i1, j0, j1;
  pixel_span(cx - radius, cx + radius, f.width(), i0, i1);
  pixel_span(cy - radius, cy + radius, f.height(), j0, j1);
  float r2 = radius * radius;
  for (int j = j0; j <= j1; j++) {
    float dy = j + 0.5f - cy;
    for (int i = i0; i <= i1; i++) {
      float dx = i + 0.5f - cx;
      if (dx * dx + dy * dy <= r2) f.put(i, j, color);
    }
  }
}

void raster_segment(Frame& f, ScreenVertex a, ScreenVertex b, float width, RGB ca, RGB cb, bool depth_test,
                    Rows rows) {
  float dx = b.x - a.x, dy = b.y - a.y;
  float len = std::sqrt(dx * dx + dy * dy);
  if (!(len > 1e-6f) || !(width > 0)) return;
  float h = 0.5f * std::max(width, 1.0f);  // thinner than a pixel still shows
  float nx = -dy / len * h, ny = dx / len * h;
  ScreenVertex q[4] = {a, a, b, b};
  q[0].x += nx, q[0].y += ny, q[1].x -= nx, q[1].y -= ny;
  q[2].x -= nx, q[2].y -= ny, q[3].x += nx, q[3].y += ny;
  Attrs c[4];
  for (int k = 0; k < 4; k++) {
    RGB col = k < 2 ? ca : cb;
    c[k].v[0] = col.r, c[k].v[1] = col.g, c[k].v[2] = col.b;
  }
  FlatColor flat;
  ScreenVertex t0[3] = {q[0], q[1], q[2]}, t1[3] = {q[0], q[2], q[3]};
  Attrs a0[3] = {c[0], c[1], c[2]}, a1[3] = {c[0], c[2], c[3]};
  raster_triangle(f, t0, a0, 3, depth_test, flat, rows);
  raster_triangle(f, t1, a1, 3, depth_test, flat, rows);
}

}  // namespace kiln::ggui
