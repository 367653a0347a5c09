// vm/gui: the canvas's shapes, set_image's orientation and the image files,
// checked pixel by pixel.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "vm/gui/canvas.h"
#include "vm/gui/image.h"
#include "vm/gui/text.h"

using namespace kiln::gui;

namespace {

std::vector<int> rgb(const Canvas& c, int i, int j) {
  const uint8_t* p = c.at(i, j);
  return {p[0], p[1], p[2]};
}

std::string temp_path(const char* name) { return std::string("/tmp/kiln_gui_unit_") + name; }

}  // namespace

TEST_CASE("the canvas stores the top row first and draws with y up") {
  Canvas c = make_canvas(4, 3, 0x102030);
  CHECK(rgb(c, 0, 0) == std::vector<int>{0x10, 0x20, 0x30});
  blend(c, 0, 0, color_from_hex(0xFF0000), 1.0f);  // bottom-left in Taichi's frame
  CHECK(c.rgba[(2 * 4 + 0) * 4] == 255);           // is the first pixel of the LAST stored row
  blend(c, 7, 7, color_from_hex(0xFF0000), 1.0f);  // outside: ignored, no crash
  blend(c, 1, 1, color_from_hex(0x00FF00), 0.5f);
  CHECK(rgb(c, 1, 1) == std::vector<int>{8, 0x90, 0x18});  // halfway, rounded
}

TEST_CASE("circles cover clamp(radius - distance) of each pixel") {
  Canvas c = make_canvas(21, 21, 0);
  circle(c, 10, 10, 4.5f, color_from_hex(0xFFFFFF));
  CHECK(rgb(c, 10, 10)[0] == 255);
  CHECK(rgb(c, 14, 10)[0] == 128);  // distance 4: coverage 0.5
  CHECK(rgb(c, 15, 10)[0] == 0);
  CHECK(rgb(c, 13, 13)[0] == 66);   // distance 4.24: coverage 0.26
  Canvas d = make_canvas(21, 21, 0);
  circle(d, 10, 10, 4.5f, color_from_hex(0xFFFFFF));
  CHECK(d.rgba == c.rgba);  // deterministic
  circle(c, -100, 5, 3, color_from_hex(0xFF0000));  // off the canvas: nothing
  CHECK(d.rgba == c.rgba);
}

TEST_CASE("lines are round-capped segments of half-width radius") {
  Canvas c = make_canvas(20, 10, 0);
  line(c, 2, 5.5f, 17, 5.5f, 1.0f, color_from_hex(0x00FF00));
  CHECK(rgb(c, 10, 5)[1] == 255);
  CHECK(rgb(c, 10, 4)[1] == 0);  // pixel centre 4.5 is 1 away: coverage 0
  CHECK(rgb(c, 10, 6)[1] == 0);
  CHECK(rgb(c, 1, 5)[1] == 128);  // the cap: centre 1.5 is 0.5 before the start
  Canvas dot = make_canvas(8, 8, 0);
  line(dot, 4, 4, 4, 4, 1.5f, color_from_hex(0xFFFFFF));  // a zero-length segment is a dot
  CHECK(rgb(dot, 3, 3)[0] > 0);
}

TEST_CASE("triangles fill pixel centres inside either winding") {
  Canvas a = make_canvas(10, 10, 0), b = make_canvas(10, 10, 0);
  triangle(a, 0, 0, 10, 0, 0, 10, color_from_hex(0xFFFFFF));
  triangle(b, 0, 10, 10, 0, 0, 0, color_from_hex(0xFFFFFF));
  CHECK(a.rgba == b.rgba);
  CHECK(rgb(a, 1, 1)[0] == 255);
  CHECK(rgb(a, 8, 8)[0] == 0);
  CHECK(rgb(a, 4, 5)[0] == 255);  // centre (4.5, 5.5): on the hypotenuse, included
  CHECK(rgb(a, 5, 5)[0] == 0);
  Canvas flat = make_canvas(10, 10, 0);
  triangle(flat, 0, 0, 5, 5, 9, 9, color_from_hex(0xFFFFFF));  // no area: nothing
  CHECK(flat.rgba == make_canvas(10, 10, 0).rgba);
}

TEST_CASE("set_image reads any strides in Taichi's orientation") {
  const int w = 3, h = 2;
  float img[w][h][3] = {};
  img[0][0][0] = 1.0f;   // column 0, bottom row: red
  img[2][1][1] = 0.5f;   // top-right: half green
  ImageView v{img, PixelType::f32, w, h, 3, h * 3 * 4, 3 * 4, 4};
  Canvas c = make_canvas(w, h, 0xFFFFFF);
  CHECK(set_image(c, v) == "");
  CHECK(rgb(c, 0, 0) == std::vector<int>{255, 0, 0});
  CHECK(rgb(c, 2, 1) == std::vector<int>{0, 127, 0});
  CHECK(c.at(2, 1)[3] == 255);
  uint8_t grey[2][3] = {{10, 20, 30}, {40, 50, 60}};  // stored [j][i]: a transposed view
  ImageView g{grey, PixelType::u8, 3, 2, 1, 1, 3, 0};
  CHECK(set_image(c, g) == "");
  CHECK(rgb(c, 1, 1) == std::vector<int>{50, 50, 50});
  ImageView wrong = v;
  wrong.width = 5;
  CHECK(set_image(c, wrong) == "image is 5x2 but the GUI is 3x2");
  CHECK(to_byte(-1) == 0);
  CHECK(to_byte(2) == 255);
  CHECK(to_byte(0.5f) == 127);
}

TEST_CASE("PNG files round-trip and keep row 0 at the bottom") {
  Canvas c = make_canvas(5, 4, 0x000000);
  blend(c, 0, 0, color_from_hex(0xFF8000), 1.0f);
  blend(c, 4, 3, color_from_hex(0x0000FF), 1.0f);
  std::string path = temp_path("rt.png");
  REQUIRE(write_canvas(path, c) == "");
  std::string err;
  Bitmap b = read_image(path, 0, &err);
  REQUIRE(err == "");
  CHECK(b.width == 5);
  CHECK(b.height == 4);
  CHECK(b.channels == 3);  // screenshots are RGB, as Taichi's
  CHECK(b.bytes[(3 * 5 + 0) * 3 + 0] == 255);  // the file's last row holds Taichi's row 0
  CHECK(b.bytes[(0 * 5 + 4) * 3 + 2] == 255);
  ImageView v = view_of(b);
  CHECK(component(v, 0, 0, 1) == doctest::Approx(128 / 255.0));
  Bitmap rgba = read_image(path, 4, &err);
  CHECK(rgba.channels == 4);
  std::remove(path.c_str());
}

TEST_CASE("image file errors say what went wrong") {
  std::string err;
  read_image("/nonexistent/dir/x.png", 0, &err);
  CHECK(err.find("cannot open '/nonexistent/dir/x.png'") == 0);
  std::string junk = temp_path("junk.png");
  FILE* f = std::fopen(junk.c_str(), "wb");
  std::fputs("not a png", f);
  std::fclose(f);
  err.clear();
  read_image(junk, 0, &err);
  CHECK(err.find("cannot decode") == 0);
  std::remove(junk.c_str());
  read_image(junk, 7, &err);
  CHECK(err.find("channels must be") == 0);
  Canvas c = make_canvas(2, 2, 0);
  CHECK(write_canvas(temp_path("x.gif"), c).find("unknown image format '.gif'") == 0);
  CHECK(write_canvas("/nonexistent/dir/x.png", c).find("cannot write") == 0);
}

TEST_CASE("text draws below its top-left corner, in a font there always is") {
  Canvas c = make_canvas(60, 30, 0);
  text(c, "Hi", 0, 30, 16, color_from_hex(0xFFFFFF));
  int lit_top = 0, lit_bottom = 0;
  for (int i = 0; i < 60; i++)
    for (int j = 0; j < 30; j++) (j >= 12 ? lit_top : lit_bottom) += c.at(i, j)[0] > 0;
  CHECK(lit_top > 10);
  CHECK(lit_bottom == 0);
  text(c, "\xff\xfe bad utf-8", 0, 10, 8, color_from_hex(0xFFFFFF));  // no crash
}
