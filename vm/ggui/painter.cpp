// The GGUI canvas's drawings (painter.h).
#include "vm/ggui/painter.h"

#include <algorithm>

namespace kiln::ggui {

namespace {

struct Interpolated final : FragmentShader {
  bool shade(const Attrs& a, RGB& out) const override {
    out = RGB{a.v[0], a.v[1], a.v[2]};
    return true;
  }
};

ScreenVertex on_screen(const Frame& f, const Geometry2& g, int32_t k) {
  Vec3 p = g.at(k);
  return ScreenVertex{p.x * f.width(), p.y * f.height(), 0, 1};
}

}  // namespace

std::string Painter::triangles(Geometry2 g) {
  if (std::string e = g.check("canvas.triangles"); !e.empty()) return e;
  drawings_.push_back([g = std::move(g)](Frame& f) {
    Interpolated shader;
    for (size_t t = 0; t + 3 <= g.order.size(); t += 3) {
      ScreenVertex v[3];
      Attrs a[3];
      for (int k = 0; k < 3; k++) {
        int32_t idx = g.order[t + k];
        v[k] = on_screen(f, g, idx);
        RGB c = g.color_of(idx);
        a[k].v[0] = c.r, a[k].v[1] = c.g, a[k].v[2] = c.b;
      }
      raster_triangle(f, v, a, 3, false, shader);
    }
  });
  return "";
}

std::string Painter::circles(Geometry2 g, std::vector<float> radii, float radius) {
  if (std::string e = g.check("canvas.circles"); !e.empty()) return e;
  if (!radii.empty() && radii.size() != g.vertices())
    return "canvas.circles: per_vertex_radius has " + std::to_string(radii.size()) + " radii for " +
           std::to_string(g.vertices()) + " circles";
  drawings_.push_back([g = std::move(g), radii = std::move(radii), radius](Frame& f) {
    for (int32_t k : g.order) {
      ScreenVertex c = on_screen(f, g, k);
      raster_disc(f, c.x, c.y, (radii.empty() ? radius : radii[k]) * f.height(), g.color_of(k));
    }
  });
  return "";
}

std::string Painter::lines(Geometry2 g, float width) {
  if (std::string e = g.check("canvas.lines"); !e.empty()) return e;
  drawings_.push_back([g = std::move(g), width](Frame& f) {
    for (size_t k = 0; k + 2 <= g.order.size(); k += 2) {
      int32_t a = g.order[k], b = g.order[k + 1];
      raster_segment(f, on_screen(f, g, a), on_screen(f, g, b), width * f.height(), g.color_of(a), g.color_of(b),
                     false);
    }
  });
  return "";
}

std::string Painter::set_image(const gui::ImageView& v) {
  if (v.width <= 0 || v.height <= 0) return "canvas.set_image: the image is empty";
  auto img = std::make_shared<gui::Canvas>(gui::make_canvas(v.width, v.height, 0));
  if (std::string e = gui::set_image(*img, v); !e.empty()) return "canvas.set_image: " + e;
  drawings_.push_back([img](Frame& f) {
    int w = f.width(), h = f.height();
    if (img->width == w && img->height == h) {
      f.color.rgba = img->rgba;
      return;
    }
    for (int r = 0; r < h; r++) {  // rows top first in both
      const uint8_t* src = &img->rgba[size_t(int64_t(r) * img->height / h) * img->width * 4];
      uint8_t* dst = &f.color.rgba[size_t(r) * w * 4];
      for (int i = 0; i < w; i++) std::copy(src + (int64_t(i) * img->width / w) * 4, src + (int64_t(i) * img->width / w) * 4 + 4, dst + i * 4);
    }
  });
  return "";
}

void Painter::scene(const Scene& s) {
  auto snapshot = std::make_shared<Scene>(s);
  drawings_.push_back([snapshot](Frame& f) { render_scene(f, *snapshot); });
}

void Painter::render(Frame& f) const {
  f.clear(background);
  for (auto& d : drawings_) d(f);
}

}  // namespace kiln::ggui
