// The GUI's canvas: an RGBA8 pixel buffer and the antialiased shapes that
// ti.GUI draws on it (circles, thick lines, triangles, rectangles).
//
// Storage is row-major with row 0 at the TOP, as image files and windows
// store pixels, so a frame goes to a PNG or a window without reshuffling.
// Drawing takes pixel coordinates in Taichi's frame instead: x grows to the
// right from the left edge and y grows upward from the bottom edge, and
// pixel (i, j) is column i, row j counted from the bottom.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kiln::gui {

// A colour with straight (non-premultiplied) components in [0, 1].
struct Color {
  float r = 0, g = 0, b = 0, a = 1;
};

// 0xRRGGBB, as ti.GUI takes colours; opaque.
Color color_from_hex(uint32_t rgb);

struct Canvas {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes, top row first

  // Address of pixel (i, j) in Taichi's frame (j counted from the bottom).
  uint8_t* at(int i, int j) { return &rgba[(size_t(height - 1 - j) * width + i) * 4]; }
  const uint8_t* at(int i, int j) const { return &rgba[(size_t(height - 1 - j) * width + i) * 4]; }
  bool inside(int i, int j) const { return i >= 0 && j >= 0 && i < width && j < height; }
};

Canvas make_canvas(int width, int height, uint32_t background_rgb);
void clear(Canvas& c, uint32_t rgb);

// Mixes `color` into pixel (i, j) with weight alpha * color.a (alpha in [0, 1]).
void blend(Canvas& c, int i, int j, Color color, float alpha);

// A disc: pixel (i, j) gets coverage clamp(radius - |(i, j) - center|), the
// one-pixel soft edge Taichi's canvas draws (centres in pixels).
void circle(Canvas& c, float cx, float cy, float radius, Color color);

// A segment with round caps whose half-width is `radius` pixels; pixel
// centres (i + 0.5, j + 0.5) closer than radius get full coverage, with a
// one-pixel soft edge.
void line(Canvas& c, float ax, float ay, float bx, float by, float radius, Color color);

// A filled triangle (either winding), pixel centres inside get the colour.
void triangle(Canvas& c, float ax, float ay, float bx, float by, float cx, float cy, Color color);

// An axis-aligned filled rectangle [x0, x1) x [y0, y1) in pixels (widgets).
void fill_rect(Canvas& c, int x0, int y0, int x1, int y1, Color color);

}  // namespace kiln::gui
