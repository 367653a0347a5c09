// taichi._gui_core: ti.GUI's canvas and image files for Python
// (vm/gui underneath). Arrays come in and go out through the buffer
// protocol: set_image and write_image read numpy arrays in place (any
// strides, u8/f32/f64), and Canvas.image() is a view of the canvas itself.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>

#include "python/gui/module.h"
#include "vm/gui/canvas.h"
#include "vm/gui/image.h"
#include "vm/gui/text.h"

namespace py = pybind11;
using namespace kiln::gui;

namespace kiln::gui_py {

ImageView view_of_buffer(const py::buffer& obj, const char* what) {
  py::buffer_info b = obj.request();
  ImageView v;
  if (b.format == py::format_descriptor<uint8_t>::format()) v.type = PixelType::u8;
  else if (b.format == py::format_descriptor<float>::format()) v.type = PixelType::f32;
  else if (b.format == py::format_descriptor<double>::format()) v.type = PixelType::f64;
  else throw py::type_error(std::string(what) + ": pixels must be uint8, float32 or float64, not format '" + b.format + "'");
  if (b.ndim != 2 && b.ndim != 3)
    throw py::value_error(std::string(what) + ": an image is (width, height) or (width, height, channels), not " +
                          std::to_string(b.ndim) + "-D");
  v.data = b.ptr;
  v.width = int(b.shape[0]), v.height = int(b.shape[1]);
  v.channels = b.ndim == 3 ? int(b.shape[2]) : 1;
  v.stride_i = b.strides[0], v.stride_j = b.strides[1];
  v.stride_k = b.ndim == 3 ? b.strides[2] : 0;
  return v;
}

py::array bytes_view(const ImageView& v, py::handle owner) {
  return py::array(py::dtype::of<uint8_t>(), {ptrdiff_t(v.width), ptrdiff_t(v.height), ptrdiff_t(v.channels)},
                   {v.stride_i, v.stride_j, v.stride_k}, v.data, owner);
}

namespace {

using F32s = py::array_t<float, py::array::c_style | py::array::forcecast>;
using U32s = py::array_t<uint32_t, py::array::c_style | py::array::forcecast>;

// Positions as an (n, 2) float32 array (n, 2, 1 as Taichi's vector fields give).
F32s points(const py::object& o, const char* what) {
  F32s a = F32s::ensure(o);
  if (!a) throw py::type_error(std::string(what) + " must be an array of 2-D positions");
  if (!((a.ndim() == 2 && a.shape(1) == 2) || (a.ndim() == 3 && a.shape(1) == 2 && a.shape(2) == 1)))
    throw py::value_error(std::string(what) + " must have shape (n, 2)");
  return a;
}

// A per-item value: one scalar for all, or an array of n.
template <typename T, typename A>
struct PerItem {
  T single{};
  A array;
  bool many = false;
  T operator[](py::ssize_t k) const { return many ? array.data()[k] : single; }
};

template <typename T, typename A>
PerItem<T, A> per_item(const py::object& o, py::ssize_t n, const char* what) {
  PerItem<T, A> p;
  if (py::isinstance<py::int_>(o) || py::isinstance<py::float_>(o)) {
    p.single = o.cast<T>();
    return p;
  }
  p.array = A::ensure(o);
  if (!p.array) throw py::type_error(std::string(what) + " must be a number or an array of numbers");
  if (p.array.ndim() == 0) {
    p.single = p.array.data()[0];
    return p;
  }
  if (p.array.ndim() != 1 || p.array.shape(0) != n)
    throw py::value_error(std::string(what) + " must be one value or an array of " + std::to_string(n));
  p.many = true;
  return p;
}

void draw_circles(Canvas& c, const py::object& pos, const py::object& radius, const py::object& color) {
  F32s p = points(pos, "pos");
  py::ssize_t n = p.shape(0);
  auto r = per_item<float, F32s>(radius, n, "radius");
  auto col = per_item<uint32_t, U32s>(color, n, "color");
  const float* xy = p.data();
  py::gil_scoped_release unlocked;
  for (py::ssize_t k = 0; k < n; k++)
    circle(c, xy[2 * k] * c.width, xy[2 * k + 1] * c.height, r[k], color_from_hex(col[k]));
}

void draw_lines(Canvas& c, const py::object& begin, const py::object& end, const py::object& radius,
                const py::object& color) {
  F32s a = points(begin, "begin"), b = points(end, "end");
  py::ssize_t n = a.shape(0);
  if (b.shape(0) != n) throw py::value_error("begin and end must hold as many points");
  auto r = per_item<float, F32s>(radius, n, "radius");
  auto col = per_item<uint32_t, U32s>(color, n, "color");
  const float *pa = a.data(), *pb = b.data();
  py::gil_scoped_release unlocked;
  for (py::ssize_t k = 0; k < n; k++)
    line(c, pa[2 * k] * c.width, pa[2 * k + 1] * c.height, pb[2 * k] * c.width, pb[2 * k + 1] * c.height, r[k],
         color_from_hex(col[k]));
}

void draw_triangles(Canvas& c, const py::object& a_, const py::object& b_, const py::object& c_,
                    const py::object& color) {
  F32s a = points(a_, "a"), b = points(b_, "b"), cc = points(c_, "c");
  py::ssize_t n = a.shape(0);
  if (b.shape(0) != n || cc.shape(0) != n) throw py::value_error("a, b and c must hold as many points");
  auto col = per_item<uint32_t, U32s>(color, n, "color");
  const float *pa = a.data(), *pb = b.data(), *pc = cc.data();
  float w = float(c.width), h = float(c.height);
  py::gil_scoped_release unlocked;
  for (py::ssize_t k = 0; k < n; k++)
    triangle(c, pa[2 * k] * w, pa[2 * k + 1] * h, pb[2 * k] * w, pb[2 * k + 1] * h, pc[2 * k] * w, pc[2 * k + 1] * h,
             color_from_hex(col[k]));
}

}  // namespace

void bind_canvas(py::module_& m) {
  py::class_<Canvas>(m, "Canvas", "An RGBA8 canvas; positions are in [0, 1]^2 with y up, as ti.GUI's")
      .def(py::init([](int w, int h, uint32_t bg) {
             if (w <= 0 || h <= 0 || w > 32768 || h > 32768)
               throw py::value_error("GUI resolution must be positive (and at most 32768), got " + std::to_string(w) +
                                     "x" + std::to_string(h));
             return make_canvas(w, h, bg);
           }),
           py::arg("width"), py::arg("height"), py::arg("background") = 0)
      .def_readonly("width", &Canvas::width)
      .def_readonly("height", &Canvas::height)
      .def("clear", [](Canvas& c, uint32_t rgb) { clear(c, rgb); })
      .def("circle", [](Canvas& c, float x, float y, float r, uint32_t rgb) {
        circle(c, x * c.width, y * c.height, r, color_from_hex(rgb));
      })
      .def("line", [](Canvas& c, float x0, float y0, float x1, float y1, float r, uint32_t rgb) {
        line(c, x0 * c.width, y0 * c.height, x1 * c.width, y1 * c.height, r, color_from_hex(rgb));
      })
      .def("triangle", [](Canvas& c, float x0, float y0, float x1, float y1, float x2, float y2, uint32_t rgb) {
        triangle(c, x0 * c.width, y0 * c.height, x1 * c.width, y1 * c.height, x2 * c.width, y2 * c.height,
                 color_from_hex(rgb));
      })
      .def("circles", &draw_circles)
      .def("lines", &draw_lines)
      .def("triangles", &draw_triangles)
      .def("fill_rect", [](Canvas& c, int x0, int y0, int x1, int y1, uint32_t rgb) {
        fill_rect(c, x0, y0, x1, y1, color_from_hex(rgb));
      }, "a filled rectangle in pixels, [x0, x1) x [y0, y1), y from the bottom")
      .def("text", [](Canvas& c, const std::string& s, float x, float y, float size, uint32_t rgb) {
        text(c, s, x * c.width, y * c.height, size, color_from_hex(rgb));
      }, "text whose top-left corner is at (x, y)")
      .def("set_image", [](Canvas& c, const py::buffer& img) {
        ImageView v = view_of_buffer(img, "set_image");
        std::string err;
        {
          py::gil_scoped_release unlocked;
          err = set_image(c, v);
        }
        if (!err.empty()) throw py::value_error("set_image: " + err);
      })
      .def("image", [](py::object self) { return bytes_view(view_of(self.cast<Canvas&>()), self); },
           "the canvas as a (width, height, 4) uint8 view, Taichi's orientation (no copy)")
      .def("save", [](const Canvas& c, const std::string& path) {
        std::string err = write_canvas(path, c);
        if (!err.empty()) throw py::value_error(err);
      });

  m.def("write_image", [](const std::string& path, const py::buffer& img) {
    ImageView v = view_of_buffer(img, "imwrite");
    std::string err = write_image(path, v);
    if (!err.empty()) throw py::value_error("imwrite: " + err);
  });
  m.def("read_image", [](const std::string& path, int channels) {
    std::string err;
    auto* b = new Bitmap(read_image(path, channels, &err));
    py::capsule owner(b, [](void* p) { delete static_cast<Bitmap*>(p); });
    if (!err.empty()) throw py::value_error("imread: " + err);
    return bytes_view(view_of(*b), owner);
  }, py::arg("path"), py::arg("channels") = 0);
  m.def("text_font", &text_font, "the TrueType file text uses, '' for the built-in font");
}

}  // namespace kiln::gui_py
