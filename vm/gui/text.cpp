// Text rendering for the canvas (text.h).
#include "vm/gui/text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#include <stb/stb_truetype.h>
// stb_easy_font is a header of static functions (no implementation macro).
#include <stb/stb_easy_font.h>

namespace kiln::gui {

namespace {

struct Font {
  std::string path;
  std::vector<unsigned char> bytes;
  stbtt_fontinfo info{};
  bool ok = false;
};

bool load(Font& f, const std::string& path) {
  FILE* in = std::fopen(path.c_str(), "rb");
  if (!in) return false;
  std::vector<unsigned char> bytes;
  unsigned char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) bytes.insert(bytes.end(), buf, buf + n);
  std::fclose(in);
  f.bytes = std::move(bytes);
  if (f.bytes.empty() || !stbtt_InitFont(&f.info, f.bytes.data(), stbtt_GetFontOffsetForIndex(f.bytes.data(), 0)))
    return false;
  f.path = path;
  return true;
}

// Loaded once per process: the file is fixed for the process's life.
const Font& font() {
  static const Font f = [] {
    Font f;
    // KILN_GUI_FONT names the only file to try ("builtin": none).
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("KILN_GUI_FONT"); env && *env) candidates.push_back(env);
    else
      candidates = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
                    "/usr/share/fonts/truetype/freefont/FreeSans.ttf"};
    for (const auto& p : candidates)
      if (load(f, p)) {
        f.ok = true;
        break;
      }
    return f;
  }();
  return f;
}

// Decodes UTF-8; a malformed byte reads as U+FFFD.
std::vector<int> codepoints(const std::string& s) {
  std::vector<int> out;
  for (size_t k = 0; k < s.size();) {
    unsigned char c = s[k];
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || k + len > s.size()) {
      out.push_back(0xFFFD), k++;
      continue;
    }
    int cp = len == 1 ? c : c & (0x7F >> len);
    for (int m = 1; m < len; m++) cp = (cp << 6) | (s[k + m] & 0x3F);
    out.push_back(cp);
    k += len;
  }
  return out;
}

void truetype_text(Canvas& c, const Font& f, const std::vector<int>& cps, float x, float top, float size, Color color) {
  float scale = stbtt_ScaleForPixelHeight(&f.info, size);
  int ascent = 0;
  stbtt_GetFontVMetrics(&f.info, &ascent, nullptr, nullptr);
  int baseline = int(ascent * scale);
  int top_row = int(std::floor(top));  // pixel row j = top_row - 1 - r for buffer row r
  float pen = x + 2;                   // a little room for glyphs that reach left
  std::vector<unsigned char> glyph;
  for (size_t n = 0; n < cps.size(); n++) {
    int advance = 0, lsb = 0, x0, y0, x1, y1;
    float shift = pen - std::floor(pen);
    stbtt_GetCodepointHMetrics(&f.info, cps[n], &advance, &lsb);
    stbtt_GetCodepointBitmapBoxSubpixel(&f.info, cps[n], scale, scale, shift, 0, &x0, &y0, &x1, &y1);
    int w = x1 - x0, h = y1 - y0;
    if (w > 0 && h > 0) {
      glyph.assign(size_t(w) * h, 0);
      stbtt_MakeCodepointBitmapSubpixel(&f.info, glyph.data(), w, h, w, scale, scale, shift, 0, cps[n]);
      int left = int(std::floor(pen)) + x0;
      for (int gy = 0; gy < h; gy++)
        for (int gx = 0; gx < w; gx++)
          if (unsigned char cov = glyph[size_t(gy) * w + gx])
            blend(c, left + gx, top_row - 1 - (baseline + y0 + gy), color, cov / 255.0f);
    }
    pen += advance * scale;
    if (n + 1 < cps.size()) pen += scale * stbtt_GetCodepointKernAdvance(&f.info, cps[n], cps[n + 1]);
  }
}

void builtin_text(Canvas& c, const std::vector<int>& cps, float x, float top, float size, Color color) {
  std::string ascii;
  for (int cp : cps) ascii.push_back(cp >= 32 && cp < 127 ? char(cp) : '?');
  // 16-byte vertices (x, y, z floats and 4 colour bytes), four per quad.
  std::vector<char> vbuf(ascii.size() * 270 * 4 * 16 + 64);
  unsigned char white[4] = {255, 255, 255, 255};
  int quads = stb_easy_font_print(0, 0, ascii.data(), white, vbuf.data(), int(vbuf.size()));
  float s = size / 12.0f;  // the built-in font's line is 12 units
  int top_row = int(std::floor(top));
  for (int q = 0; q < quads; q++) {
    const float* v0 = reinterpret_cast<const float*>(vbuf.data() + q * 64);
    const float* v2 = reinterpret_cast<const float*>(vbuf.data() + q * 64 + 32);
    float qx0 = x + 2 + v0[0] * s, qx1 = x + 2 + v2[0] * s;  // y grows downward in the quads
    float qy0 = v0[1] * s, qy1 = v2[1] * s;
    for (int i = int(std::floor(qx0)); i < int(std::ceil(qx1)); i++)
      for (int r = int(std::floor(qy0)); r < int(std::ceil(qy1)); r++)
        if (i + 0.5f >= qx0 && i + 0.5f < qx1 && r + 0.5f >= qy0 && r + 0.5f < qy1)
          blend(c, i, top_row - 1 - r, color, 1.0f);
  }
}

}  // namespace

const std::string& text_font() { return font().path; }

void text(Canvas& c, const std::string& utf8, float x, float top, float size, Color color) {
  if (!(size > 0) || !std::isfinite(x) || !std::isfinite(top)) return;
  std::vector<int> cps = codepoints(utf8);
  const Font& f = font();
  if (f.ok) truetype_text(c, f, cps, x, top, size, color);
  else builtin_text(c, cps, x, top, size, color);
}

}  // namespace kiln::gui
