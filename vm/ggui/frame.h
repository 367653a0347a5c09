// ti.ui (GGUI) renders on the CPU: a frame is the window's RGBA8 canvas
// (vm/gui's, so windows and image files take it as they are) plus a depth
// buffer, and the rasteriser here draws GGUI's primitives into it.
//
// Coordinates are pixels in Taichi's frame: x to the right from the left
// edge, y upward from the bottom edge; pixel (i, j) covers [i, i+1) x
// [j, j+1) and is sampled at its centre. Depth is Vulkan's: 0 at the near
// plane, 1 at the far plane, and a fragment is kept when it is nearer
// than what the pixel holds (the buffer starts at 1).
#pragma once

#include <climits>
#include <cstdint>
#include <vector>

#include "vm/gui/canvas.h"

namespace kiln::ggui {

struct RGB {
  float r = 0, g = 0, b = 0;
};

// GGUI's colours are floats in [0, 1]; bytes are rounded to nearest.
uint8_t to_unorm8(float x);

struct Frame {
  gui::Canvas color;
  std::vector<float> depth;  // width * height, in the canvas's row order

  Frame(int width, int height);
  int width() const { return color.width; }
  int height() const { return color.height; }
  // Fills the colour with `background` and the depth with 1 (far).
  void clear(RGB background);
  size_t index(int i, int j) const { return size_t(color.height - 1 - j) * color.width + i; }
  void put(int i, int j, RGB c);
};

// A vertex after projection: pixel position, depth in [0, 1] and 1/w for
// perspective-correct interpolation (1 for 2-D drawing).
struct ScreenVertex {
  float x = 0, y = 0, z = 0, inv_w = 1;
};

// The rows [lo, hi) a drawing may touch: threads that render one frame
// each take a band of rows, so that no two write the same pixel.
struct Rows {
  int lo = 0, hi = INT_MAX;
};

// Attributes carried across a triangle and handed to the shader.
constexpr int kMaxAttrs = 9;
struct Attrs {
  float v[kMaxAttrs] = {};
};

// A fragment's inputs: the interpolated attributes and its window depth.
// The shader writes the colour and returns false to discard the fragment.
struct FragmentShader {
  virtual bool shade(const Attrs& a, RGB& out) const = 0;
  virtual ~FragmentShader() = default;
};

// Fills the triangle (either winding); `n_attrs` attributes per vertex are
// interpolated perspective-correctly. With depth_test, fragments outside
// [0, 1] or behind the depth buffer are dropped and kept ones write depth.
void raster_triangle(Frame& f, const ScreenVertex v[3], const Attrs a[3], int n_attrs, bool depth_test,
                     const FragmentShader& shader, Rows rows = {});

// A disc of `radius` pixels: pixel centres within it take the colour.
void raster_disc(Frame& f, float cx, float cy, float radius, RGB color);

// A segment drawn as a quad `width` pixels wide (no caps), its colour
// blended from ca at a to cb at b; za/zb give depth when depth_test.
void raster_segment(Frame& f, ScreenVertex a, ScreenVertex b, float width, RGB ca, RGB cb, bool depth_test,
                    Rows rows = {});

// Pixel indices [lo, hi] whose centres may fall in [a, b], within [0, n)
// and the band.
void pixel_span(float a, float b, int n, int& lo, int& hi, Rows rows = {});

}  // namespace kiln::ggui
