// Rasterisation of ti.GUI's shapes over the RGBA8 canvas (see canvas.h).
#include "vm/gui/canvas.h"

#include <algorithm>
#include <cmath>

namespace kiln::gui {

namespace {

float clamp01(float x) { return x < 0 ? 0 : (x > 1 ? 1 : x); }

uint8_t mix(uint8_t dst, float src, float w) {
  float v = dst + (src * 255.0f - dst) * w;
  return uint8_t(std::lround(std::clamp(v, 0.0f, 255.0f)));
}

}  // namespace

Color color_from_hex(uint32_t rgb) {
  return Color{((rgb >> 16) & 0xff) / 255.0f, ((rgb >> 8) & 0xff) / 255.0f, (rgb & 0xff) / 255.0f, 1.0f};
}

Canvas make_canvas(int width, int height, uint32_t background_rgb) {
  Canvas c;
  c.width = std::max(width, 0);
  c.height = std::max(height, 0);
  c.rgba.resize(size_t(c.width) * c.height * 4);
  clear(c, background_rgb);
  return c;
}

void clear(Canvas& c, uint32_t rgb) {
  uint8_t px[4] = {uint8_t(rgb >> 16), uint8_t(rgb >> 8), uint8_t(rgb), 255};
  for (size_t k = 0; k < c.rgba.size(); k += 4) std::copy(px, px + 4, &c.rgba[k]);
}

void blend(Canvas& c, int i, int j, Color color, float alpha) {
  float w = clamp01(alpha) * clamp01(color.a);
  if (w <= 0 || !c.inside(i, j)) return;
  uint8_t* p = c.at(i, j);
  p[0] = mix(p[0], color.r, w);
  p[1] = mix(p[1], color.g, w);
  p[2] = mix(p[2], color.b, w);
  p[3] = 255;
}

void circle(Canvas& c, float cx, float cy, float radius, Color color) {
  if (!(radius > 0) || !std::isfinite(cx) || !std::isfinite(cy)) return;
  int i0 = std::max(0, int(std::ceil(cx - radius)));
  int j0 = std::max(0, int(std::ceil(cy - radius)));
  int i1 = std::min(c.width - 1, int(std::floor(cx + radius)));
  int j1 = std::min(c.height - 1, int(std::floor(cy + radius)));
  for (int i = i0; i <= i1; i++)
    for (int j = j0; j <= j1; j++) {
      float d = std::hypot(i - cx, j - cy);
      blend(c, i, j, color, radius - d);
    }
}

void line(Canvas& c, float ax, float ay, float bx, float by, float radius, Color color) {
  if (!(radius > 0) || !std::isfinite(ax + ay + bx + by)) return;
  int reach = int(std::ceil(radius + 0.5f));
  int i0 = std::max(0, int(std::floor(std::min(ax, bx))) - reach);
  int j0 = std::max(0, int(std::floor(std::min(ay, by))) - reach);
  int i1 = std::min(c.width - 1, int(std::ceil(std::max(ax, bx))) + reach);
  int j1 = std::min(c.height - 1, int(std::ceil(std::max(ay, by))) + reach);
  float dx = bx - ax, dy = by - ay;
  float len = std::hypot(dx, dy);
  // A zero-length segment is a dot: its direction is arbitrary.
  float ux = len > 0 ? dx / len : 1, uy = len > 0 ? dy / len : 0;
  for (int i = i0; i <= i1; i++)
    for (int j = j0; j <= j1; j++) {
      float px = i + 0.5f - ax, py = j + 0.5f - ay;
      float along = px * ux + py * uy;         // distance along the segment
      float across = -px * uy + py * ux;       // distance from its axis
      if (along > 0) along = std::max(0.0f, along - len);
      blend(c, i, j, color, radius - std::hypot(along, across));
    }
}

void triangle(Canvas& c, float ax, float ay, float bx, float by, float cx, float cy, Color color) {
  if (!std::isfinite(ax + ay + bx + by + cx + cy)) return;
  int i0 = std::max(0, int(std::floor(std::min({ax, bx, cx}))));
  int j0 = std::max(0, int(std::floor(std::min({ay, by, cy}))));
  int i1 = std::min(c.width, int(std::ceil(std::max({ax, bx, cx}))));
  int j1 = std::min(c.height, int(std::ceil(std::max({ay, by, cy}))));
  // Edge functions scaled by the winding's sign, so both windings fill the
  // same pixels (centres on an edge included).
  float area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  if (area == 0) return;
  float s = area > 0 ? 1.0f : -1.0f;
  auto edge = [s](float px, float py, float x0, float y0, float x1, float y1) {
    return s * ((x1 - x0) * (py - y0) - (y1 - y0) * (px - x0)) >= 0;
  };
  for (int i = i0; i < i1; i++)
    for (int j = j0; j < j1; j++) {
      float px = i + 0.5f, py = j + 0.5f;
      if (edge(px, py, ax, ay, bx, by) && edge(px, py, bx, by, cx, cy) && edge(px, py, cx, cy, ax, ay))
        blend(c, i, j, color, 1.0f);
    }
}

void fill_rect(Canvas& c, int x0, int y0, int x1, int y1, Color color) {
  x0 = std::max(x0, 0), y0 = std::max(y0, 0);
  x1 = std::min(x1, c.width), y1 = std::min(y1, c.height);
  for (int i = x0; i < x1; i++)
    for (int j = y0; j < y1; j++) blend(c, i, j, color, 1.0f);
}

}  // namespace kiln::gui
