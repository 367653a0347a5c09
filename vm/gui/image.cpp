// Conversions between array views, the canvas and image files (image.h).
#include "vm/gui/image.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

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
  if (!(x > 0)) return 0;  // also NaN
  if (x >= 1) return 255;
  return uint8_t(x * 255.0f);
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

std::string set_image(Canvas& c, const ImageView& v) {
  if (v.width != c.width || v.height != c.height)
    return "image is " + std::to_string(v.width) + "x" + std::to_string(v.height) + " but the GUI is " +
           std::to_string(c.width) + "x" + std::to_string(c.height);
  if (v.channels < 1 || v.channels > 4)
    return "image has " + std::to_string(v.channels) + " channels; expected 1 (grey), 2, 3 (RGB) or 4 (RGBA)";
  for (int j = 0; j < v.height; j++)
    for (int i = 0; i < v.width; i++) {
      uint8_t* p = c.at(i, j);
      if (v.type == PixelType::u8) {  // bytes go straight through
        const uint8_t* s = static_cast<const uint8_t*>(v.data) + i * v.stride_i + j * v.stride_j;
        uint8_t r = s[0];
        p[0] = r;
        p[1] = v.channels == 1 ? r : s[v.stride_k];
        p[2] = v.channels == 1 ? r : (v.channels == 2 ? 0 : s[2 * v.stride_k]);
      } else {
        float r = component(v, i, j, 0);
        p[0] = to_byte(r);
        p[1] = to_byte(v.channels == 1 ? r : component(v, i, j, 1));
        p[2] = to_byte(v.channels == 1 ? r : (v.channels == 2 ? 0.0f : component(v, i, j, 2)));
      }
      p[3] = 255;
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
