// taichi._gui_core's side of ti.ui (vm/ggui): the canvas's drawings, the
// scene's declarations and the frame they render into. The Python side
// (python/taichi/ui) turns fields into flat float32/int32 arrays and
// resolves offsets and counts; here they are copied and checked.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "python/gui/module.h"
#include "vm/ggui/painter.h"
#include "vm/ggui/scene.h"

namespace py = pybind11;
using namespace kiln::ggui;

namespace kiln::gui_py {

namespace {

template <typename T>
std::vector<T> flat(const py::object& o) {
  if (o.is_none()) return {};
  auto a = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(o);
  if (!a) throw py::type_error("expected an array of numbers");
  return std::vector<T>(a.data(), a.data() + a.size());
}

RGB rgb(const std::vector<float>& c) {
  if (c.size() != 3) throw py::value_error("a colour is 3 numbers (r, g, b) in [0, 1]");
  return RGB{c[0], c[1], c[2]};
}

Vec3 vec3(const std::vector<float>& c) {
  if (c.size() != 3) throw py::value_error("expected 3 numbers (x, y, z)");
  return Vec3{c[0], c[1], c[2]};
}

void ok(const std::string& err) {
  if (!err.empty()) throw py::value_error(err);
}

template <typename G>
G geometry(const py::object& pos, const py::object& order, const py::object& colors, const std::vector<float>& color) {
  G g;
  g.pos = flat<float>(pos);
  g.order = flat<int32_t>(order);
  g.colors = flat<float>(colors);
  g.color = rgb(color);
  return g;
}

py::array matrix(const Mat4& m) {
  py::array_t<float> a({4, 4});
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) a.mutable_at(i, j) = m.m[i][j];
  return a;
}

}  // namespace

void bind_ggui(py::module_& m) {
  py::class_<Frame>(m, "Frame", "A GGUI frame: the window's canvas and its depth buffer")
      .def(py::init<int, int>())
      .def_property_readonly("canvas", [](Frame& f) -> gui::Canvas& { return f.color; }, py::return_value_policy::reference_internal)
      .def("depth", [](py::object self) {
        Frame& f = self.cast<Frame&>();
        // depth is stored top row first; Taichi's orientation is [column, row from the bottom]
        ptrdiff_t w = f.width(), h = f.height();
        return py::array(py::dtype::of<float>(), {w, h}, {ptrdiff_t(sizeof(float)), -ptrdiff_t(sizeof(float)) * w},
                         f.depth.data() + (h - 1) * w, self);
      }, "the depth buffer as a (width, height) float32 view, Taichi's orientation");

  py::class_<Scene>(m, "Scene")
      .def(py::init<>())
      .def("set_camera", [](Scene& s, std::vector<float> pos, std::vector<float> lookat, std::vector<float> up,
                            float fov, float z_near, float z_far, bool ortho, float left, float right, float top,
                            float bottom) {
        Camera& c = s.camera;
        c.position = vec3(pos), c.lookat = vec3(lookat), c.up = vec3(up);
        c.fov = fov, c.z_near = z_near, c.z_far = z_far, c.orthogonal = ortho;
        c.left = left, c.right = right, c.top = top, c.bottom = bottom;
      })
      .def("view_matrix", [](const Scene& s) { return matrix(s.camera.view()); })
      .def("projection_matrix", [](const Scene& s, float aspect) { return matrix(s.camera.projection(aspect)); })
      .def("ambient_light", [](Scene& s, std::vector<float> c) { s.ambient = rgb(c); })
      .def("point_light", [](Scene& s, std::vector<float> pos, std::vector<float> c) {
        s.lights.push_back(PointLight{vec3(pos), rgb(c)});
      })
      .def("mesh", [](Scene& s, py::object pos, py::object order, py::object colors, std::vector<float> color,
                      py::object normals, bool two_sided, bool wireframe, py::object instances) {
        MeshDraw d;
        d.g = geometry<Geometry>(pos, order, colors, color);
        ok(d.g.check("scene.mesh"));
        d.normals = flat<float>(normals);
        if (!d.normals.empty() && d.normals.size() != d.g.pos.size())
          throw py::value_error("scene.mesh: normals has " + std::to_string(d.normals.size() / 3) + " normals for " +
                                std::to_string(d.g.vertices()) + " vertices");
        std::vector<float> t = flat<float>(instances);
        for (size_t k = 0; k + 16 <= t.size(); k += 16) {
          Mat4 mt;
          for (int i = 0; i < 16; i++) mt.m[i / 4][i % 4] = t[k + i];
          d.instances.push_back(mt);
        }
        d.two_sided = two_sided, d.wireframe = wireframe;
        s.meshes.push_back(std::move(d));
      })
      .def("particles", [](Scene& s, py::object pos, py::object order, py::object colors, std::vector<float> color,
                           py::object radii, float radius) {
        ParticleDraw d;
        d.g = geometry<Geometry>(pos, order, colors, color);
        ok(d.g.check("scene.particles"));
        d.radii = flat<float>(radii);
        if (!d.radii.empty() && d.radii.size() != d.g.vertices())
          throw py::value_error("scene.particles: per_vertex_radius has " + std::to_string(d.radii.size()) +
                                " radii for " + std::to_string(d.g.vertices()) + " particles");
        d.radius = radius;
        s.particles.push_back(std::move(d));
      })
      .def("lines", [](Scene& s, py::object pos, py::object order, py::object colors, std::vector<float> color,
                       float width) {
        LineDraw d;
        d.g = geometry<Geometry>(pos, order, colors, color);
        ok(d.g.check("scene.lines"));
        d.width = width;
        s.lines.push_back(std::move(d));
      })
      .def("next_frame", &Scene::next_frame);

  py::class_<Painter>(m, "Painter")
      .def(py::init<>())
      .def("set_background", [](Painter& p, std::vector<float> c) { p.background = rgb(c); })
      .def("triangles", [](Painter& p, py::object pos, py::object order, py::object colors, std::vector<float> color) {
        ok(p.triangles(geometry<Geometry2>(pos, order, colors, color)));
      })
      .def("circles", [](Painter& p, py::object pos, py::object order, py::object colors, std::vector<float> color,
                         py::object radii, float radius) {
        ok(p.circles(geometry<Geometry2>(pos, order, colors, color), flat<float>(radii), radius));
      })
      .def("lines", [](Painter& p, py::object pos, py::object order, py::object colors, std::vector<float> color,
                       float width) { ok(p.lines(geometry<Geometry2>(pos, order, colors, color), width)); })
      .def("set_image", [](Painter& p, const py::buffer& img) { ok(p.set_image(view_of_buffer(img, "canvas.set_image"))); })
      .def("scene", [](Painter& p, const Scene& s) { p.scene(s); })
      .def("render", &Painter::render, py::call_guard<py::gil_scoped_release>())
      .def("next_frame", &Painter::next_frame);
}

}  // namespace kiln::gui_py
