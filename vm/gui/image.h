// Images between Taichi's arrays, the canvas and files (PNG/JPEG/BMP/TGA
// through Debian's stb).
//
// An ImageView describes an array in Taichi's orientation without copying
// it: element (i, j, k) is column i from the left, row j from the BOTTOM,
// channel k, at byte offset i*stride_i + j*stride_j + k*stride_k. Any
// numpy array (transposed, sliced, a field's to_numpy()) is such a view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "vm/gui/canvas.h"

namespace kiln::gui {

enum class PixelType { u8, f32, f64 };

struct ImageView {
  const void* data = nullptr;
  PixelType type = PixelType::u8;
  int width = 0, height = 0, channels = 1;
  ptrdiff_t stride_i = 0, stride_j = 0, stride_k = 0;  // bytes
};

// Component (i, j, k) as a value in [0, 1] (floats clamped; u8 / 255).
float component(const ImageView& v, int i, int j, int k);

// Float to byte as Taichi converts: clamp to [0, 1], times 255, truncated.
uint8_t to_byte(float x);

// Copies a view of the canvas's size into the canvas. 1 channel is grey,
// 2 are red and green, 3 RGB, 4 RGBA (the canvas stays opaque). Returns an
// empty string, or why the view does not fit.
std::string set_image(Canvas& c, const ImageView& v);

// A decoded file: top row first, `channels` bytes a pixel.
struct Bitmap {
  int width = 0, height = 0, channels = 0;
  std::vector<uint8_t> bytes;
};

// Writes the view (1, 2, 3 or 4 channels) as PNG, JPEG (.jpg/.jpeg), BMP or
// TGA by the file name's extension. Returns "" or the reason it failed.
std::string write_image(const std::string& path, const ImageView& v);

// The canvas as an RGB file (as Taichi's screenshots are).
std::string write_canvas(const std::string& path, const Canvas& c);

// Reads PNG, JPEG, BMP, TGA, GIF (first frame) ...; `channels` 0 keeps the
// file's own count, 1-4 converts. On failure `error` says why.
Bitmap read_image(const std::string& path, int channels, std::string* error);

// A view of a decoded file in Taichi's orientation (no copy).
ImageView view_of(const Bitmap& b);

// A view of the canvas in Taichi's orientation, RGBA (no copy).
ImageView view_of(const Canvas& c);

}  // namespace kiln::gui
