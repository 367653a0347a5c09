// vm/ggui: the rasteriser's coverage and depth test, and scenes rendered
// into a frame (near-plane clipping, spheres' depth), pixel by pixel.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "vm/ggui/frame.h"
#include "vm/ggui/painter.h"
#include "vm/ggui/scene.h"

using namespace kiln::ggui;

namespace {

struct Solid final : FragmentShader {
  RGB c;
  explicit Solid(RGB color) : c(color) {}
  bool shade(const Attrs&, RGB& out) const override {
    out = c;
    return true;
  }
};

int red(const Frame& f, int i, int j) { return f.color.at(i, j)[0]; }

}  // namespace

TEST_CASE("two triangles of a square cover each of its pixels, and only those") {
  Frame f(8, 8);
  f.clear(RGB{0, 0, 0});
  Solid s(RGB{1, 0, 0});
  Attrs a[3];
  ScreenVertex t0[3] = {{2, 2, 0, 1}, {6, 2, 0, 1}, {6, 6, 0, 1}}, t1[3] = {{2, 2, 0, 1}, {6, 6, 0, 1}, {2, 6, 0, 1}};
  raster_triangle(f, t0, a, 0, false, s);
  raster_triangle(f, t1, a, 0, false, s);
  for (int j = 0; j < 8; j++)
    for (int i = 0; i < 8; i++) CHECK(red(f, i, j) == ((i >= 2 && i < 6 && j >= 2 && j < 6) ? 255 : 0));
}

TEST_CASE("the depth test keeps the nearer fragment whatever the order") {
  for (bool near_first : {true, false}) {
    Frame f(4, 4);
    f.clear(RGB{0, 0, 0});
    Solid near(RGB{1, 0, 0}), far(RGB{0, 0, 1});
    Attrs a[3];
    ScreenVertex n[3] = {{0, 0, 0.2f, 1}, {8, 0, 0.2f, 1}, {0, 8, 0.2f, 1}};
    ScreenVertex d[3] = {{0, 0, 0.7f, 1}, {8, 0, 0.7f, 1}, {0, 8, 0.7f, 1}};
    if (near_first) raster_triangle(f, n, a, 0, true, near);
    raster_triangle(f, d, a, 0, true, far);
    if (!near_first) raster_triangle(f, n, a, 0, true, near);
    CHECK(red(f, 1, 1) == 255);
    CHECK(f.depth[f.index(1, 1)] == doctest::Approx(0.2f));
  }
}

TEST_CASE("huge, infinite and NaN coordinates draw nothing out of range") {
  Frame f(4, 4);
  f.clear(RGB{0, 0, 0});
  float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  Solid s(RGB{1, 1, 1});
  Attrs a[3];
  ScreenVertex v[3] = {{-1e30f, -1e30f, 0, 1}, {1e30f, -1e30f, 0, 1}, {0, inf, 0, 1}};
  raster_triangle(f, v, a, 0, false, s);
  ScreenVertex w[3] = {{nan, 0, 0, 1}, {1, 1, 0, 1}, {2, 0, 0, 1}};
  raster_triangle(f, w, a, 0, false, s);
  raster_disc(f, nan, 1, 3, RGB{1, 1, 1});
  raster_disc(f, 1, 1, 1e30f, RGB{0, 1, 0});
  CHECK(f.color.at(0, 0)[1] == 255);
  raster_segment(f, {0, 0, 0, 1}, {inf, 2, 0, 1}, 2, RGB{}, RGB{}, false);
}

TEST_CASE("a triangle crossing the near plane is clipped, not drawn inverted") {
  Frame f(32, 32);
  f.clear(RGB{0, 0, 0});
  Scene s;
  s.camera.position = {0, 0, 0}, s.camera.lookat = {0, 0, -1}, s.camera.fov = 90;
  s.ambient = RGB{1, 1, 1};
  MeshDraw m;
  m.g.pos = {-1, -0.5f, -2, 1, -0.5f, -2, 0, -0.5f, 5};  // the third vertex is behind the camera
  m.g.order = {0, 1, 2};
  m.g.color = RGB{1, 0, 0};
  s.meshes.push_back(m);
  render_scene(f, s);
  int drawn = 0;
  for (int j = 0; j < 32; j++)
    for (int i = 0; i < 32; i++) drawn += red(f, i, j) > 0;
  CHECK(drawn > 0);
  for (int j = 16; j < 32; j++)  // the floor is below the eye: nothing above the horizon
    for (int i = 0; i < 32; i++) CHECK(red(f, i, j) == 0);
}

TEST_CASE("a particle is a sphere: nearer at its centre than at its rim") {
  Frame f(64, 64);
  f.clear(RGB{0, 0, 0});
  Scene s;
  s.camera.position = {0, 0, 4}, s.camera.lookat = {0, 0, 0};
  ParticleDraw d;
  d.g.pos = {0, 0, 0};
  d.g.order = {0};
  d.g.color = RGB{1, 1, 1};
  d.radius = 0.5f;
  s.particles.push_back(d);
  s.lights.push_back(PointLight{{0, 0, 10}, RGB{1, 1, 1}});
  render_scene(f, s);
  float centre = f.depth[f.index(32, 32)], rim = f.depth[f.index(38, 32)];
  CHECK(centre < rim);
  CHECK(rim < 1.0f);
  CHECK(red(f, 32, 32) > red(f, 38, 32));
  CHECK(f.depth[f.index(45, 32)] == 1.0f);  // beyond the radius: 0.5 / 4 / tan(22.5 deg) * 32 = 9.7 pixels
}

TEST_CASE("the painter replays its drawings over the background at every render") {
  Painter p;
  p.background = RGB{0, 0, 1};
  Geometry2 g;
  g.pos = {0.5f, 0.5f};
  g.order = {0};
  g.color = RGB{1, 0, 0};
  CHECK(p.circles(g, {}, 0.25f).empty());
  Geometry2 bad = g;
  bad.order = {3};
  CHECK(p.circles(bad, {}, 0.25f) == "canvas.circles: vertex index 3 is out of range for 1 vertices");
  Frame f(16, 16);
  p.render(f);
  CHECK(red(f, 8, 8) == 255);
  CHECK(f.color.at(0, 0)[2] == 255);
  p.next_frame();
  p.render(f);
  CHECK(red(f, 8, 8) == 0);
}
