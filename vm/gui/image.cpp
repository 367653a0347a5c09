// Conversions between array views, the canvas and image files (image.h).
#include "vm/gui/image.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <type_traits>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb/stb_image_write.h>

namespace kiln::gui {

namespace {

std::string lower_extension(const std::string& path) {
  size_t dot = path.rfind('.');
  size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot + 1);
  for (char& ch : ext) ch = char(std::tolower((unsigned char)ch));
  return ext;
}

}  // namespace

uint8_t to_byte(float x) {
  float y = x * 255.0f;  // branch-free: these run once per component of every frame
  y = y > 0.0f ? y : 0.0f;  // also NaN
  y = y < 255.0f ? y : 255.0f;
  return uint8_t(y);
}

float component(const ImageView& v, int i, int j, int k) {
  const char* p = static_cast<const char*>(v.data) + i * v.stride_i + j * v.stride_j + k * v.stride_k;
  switch (v.type) {
    case PixelType::u8: return *reinterpret_cast<const uint8_t*>(p) / 255.0f;
    case PixelType::f32: { float f; std::memcpy(&f, p, 4); return f; }
    case PixelType::f64: { double d; std::memcpy(&d, p, 8); return float(d); }
  }
  return 0;
}

namespace {

template <typename T>
uint8_t byte_of(const char* p) {
  T x;
  std::memcpy(&x, p, sizeof(T));
  if constexpr (std::is_same_v<T, uint8_t>) return x;
  else return to_byte(float(x));
}

// One loop per element type and channel count (no per-component dispatch),
// in 32x32 tiles: the source is usually contiguous along j or the channels
// while the canvas is contiguous along i, so tiles keep both sides in cache.
template <typename T, int N>
void copy_pixels(Canvas& c, const ImageView& v) {
  const char* base = static_cast<const char*>(v.data);
  const ptrdiff_t si = v.stride_i, sk = v.stride_k;
  constexpr int tile = 32;
  for (int j0 = 0; j0 < v.height; j0 += tile)
    for (int i0 = 0; i0 < v.width; i0 += tile) {
      const int i1 = std::min(i0 + tile, v.width), j1 = std::min(j0 + tile, v.height);
      for (int j = j0; j < j1; j++) {
        const char* s = base + i0 * si + j * v.stride_j;
        uint8_t* p = c.at(i0, j);
        for (int i = i0; i < i1; i++, s += si, p += 4) {
          uint8_t r = byte_of<T>(s);
          p[0] = r;
          p[1] = N == 1 ? r : byte_of<T>(s + sk);
          p[2] = N == 1 ? r : (N == 2 ? 0 : byte_of<T>(s + 2 * sk));
          p[3] = 255;
        }
      }
    }
}

template <typename T>
void copy_pixels(Canvas& c, const ImageView& v) {
  switch (v.channels) {
    case 1: copy_pixels<T, 1>(c, v); break;
    case 2: copy_pixels<T, 2>(c, v); break;
    case 3: copy_pixels<T, 3>(c, v); break;
    default: copy_pixels<T, 4>(c, v); break;  // the alpha channel is not shown
  }
}

}  // namespace

std::string set_image(Canvas& c, const ImageView& v) {
  if (v.width != c.width || v.height != c.height)
    return "image is " + std::to_string(v.width) + "x" + std::to_string(v.height) + " but the GUI is " +
           std::to_string(c.width) + "x" + std::to_string(c.height);
  if (v.channels < 1 || v.channels > 4)
    return "image has " + std::to_string(v.channels) + " channels; expected 1 (grey), 2, 3 (RGB) or 4 (RGBA)";
  switch (v.type) {
    case PixelType::u8: copy_pixels<uint8_t>(c, v); break;
    case PixelType::f32: copy_pixels<float>(c, v); break;
    case PixelType::f64: copy_pixels<double>(c, v); break;
  }
  return "";
}

std::string write_image(const std::string& path, const ImageView& v) {
  if (v.width <= 0 || v.height <= 0) return "cannot write an empty image";
  if (v.channels < 1 || v.channels > 4) return "an image file takes 1, 2, 3 or 4 channels, not " + std::to_string(v.channels);
  std::string ext = lower_extension(path);
  if (ext != "png" && ext != "jpg" && ext != "jpeg" && ext != "bmp" && ext != "tga")
    return "unknown image format '" + (ext.empty() ? path : "." + ext) + "' (use .png, .jpg, .bmp or .tga)";
  const int n = v.channels;
  std::vector<uint8_t> bytes(size_t(v.width) * v.height * n);
  for (int row = 0; row < v.height; row++) {  // files store the top row first
    int j = v.height - 1 - row;
    for (int i = 0; i < v.width; i++)
      for (int k = 0; k < n; k++) {
        uint8_t b;
        if (v.type == PixelType::u8)
          b = *(static_cast<const uint8_t*>(v.data) + i * v.stride_i + j * v.stride_j + k * v.stride_k);
        else
          b = to_byte(component(v, i, j, k));
        bytes[(size_t(row) * v.width + i) * n + k] = b;
      }
  }
  int ok = 0;
  if (ext == "png") ok = stbi_write_png(path.c_str(), v.width, v.height, n, bytes.data(), v.width * n);
  else if (ext == "jpg" || ext == "jpeg") ok = stbi_write_jpg(path.c_str(), v.width, v.height, n, bytes.data(), 95);
  else if (ext == "bmp") ok = stbi_write_bmp(path.c_str(), v.width, v.height, n, bytes.data());
  else ok = stbi_write_tga(path.c_str(), v.width, v.height, n, bytes.data());
  if (!ok) return "cannot write '" + path + "' (" + std::strerror(errno) + ")";
  return "";
}

std::string write_canvas(const std::string& path, const Canvas& c) {
  ImageView v = view_of(c);
  v.channels = 3;
  return write_image(path, v);
}

Bitmap read_image(const std::string& path, int channels, std::string* error) {
  Bitmap b;
  if (channels < 0 || channels > 4) {
    *error = "channels must be 0 (as in the file), 1, 2, 3 or 4, not " + std::to_string(channels);
    return b;
  }
  int w = 0, h = 0, n = 0;
  stbi_uc* data = stbi_load(path.c_str(), &w, &h, &n, channels);
  if (!data) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) *error = "cannot open '" + path + "' (" + std::strerror(errno) + ")";
    else {
      std::fclose(f);
      *error = "cannot decode '" + path + "' (" + stbi_failure_reason() + ")";
    }
    return b;
  }
  b.width = w, b.height = h, b.channels = channels ? channels : n;
  b.bytes.assign(data, data + size_t(w) * h * b.channels);
  stbi_image_free(data);
  return b;
}

ImageView view_of(const Bitmap& b) {
  ImageView v;
  v.type = PixelType::u8;
  v.width = b.width, v.height = b.height, v.channels = b.channels;
  if (b.bytes.empty()) return v;
  v.stride_k = 1;
  v.stride_i = b.channels;
  v.stride_j = -ptrdiff_t(b.width) * b.channels;  // rows go up as j grows
  v.data = b.bytes.data() + size_t(b.height - 1) * b.width * b.channels;
  return v;
}

ImageView view_of(const Canvas& c) {
  ImageView v;
  v.type = PixelType::u8;
  v.width = c.width, v.height = c.height, v.channels = 4;
  if (c.rgba.empty()) return v;
  v.stride_k = 1;
  v.stride_i = 4;
  v.stride_j = -ptrdiff_t(c.width) * 4;
  v.data = c.rgba.data() + size_t(c.height - 1) * c.width * 4;
  return v;
}

}  // namespace kiln::gui
