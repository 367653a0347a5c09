// taichi._gui_core's window (vm/gui/window.h) and the module's entry point.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>

#include "python/gui/module.h"
#include "vm/gui/window.h"

namespace py = pybind11;
using namespace kiln::gui;

namespace kiln::gui_py {

void bind_window(py::module_& m) {
  py::class_<Window>(m, "Window")
      .def("present", &Window::present, py::call_guard<py::gil_scoped_release>())
      .def("poll", [](Window& w) {
        std::vector<Event> evs;
        w.poll(evs);
        py::list out;
        for (auto& e : evs) out.append(py::make_tuple(int(e.type), e.key, e.x, e.y, e.dx, e.dy));
        return out;
      }, "events since the last call: (type 0 motion/1 press/2 release, key, x, y, dx, dy)")
      .def("set_title", &Window::set_title)
      .def_property_readonly("cursor", [](const Window& w) { return py::make_tuple(w.cursor_x, w.cursor_y); })
      .def("read_back", [](Window& w) {
        auto* c = new Canvas(w.read_back());
        py::capsule owner(c, [](void* p) { delete static_cast<Canvas*>(p); });
        return bytes_view(view_of(*c), owner);
      }, "the window's pixels as (width, height, 4) uint8, Taichi's orientation");
  m.def("open_window", [](const std::string& title, int w, int h, bool fullscreen) -> py::object {
    std::string err;
    std::unique_ptr<Window> win = Window::open(title, w, h, fullscreen, &err);
    if (!win) return py::str(err);  // the caller decides: headless, with this reason
    return py::cast(std::move(win));
  }, "a Window, or a str saying why none could be opened");
  m.def("windows_supported", &windows_supported);
}

}  // namespace kiln::gui_py

PYBIND11_MODULE(_gui_core, m) {
  m.doc() = "ti.GUI's and ti.ui's canvas, window and image files (Kiln's vm/gui, vm/ggui)";
  kiln::gui_py::bind_canvas(m);
  kiln::gui_py::bind_window(m);
  kiln::gui_py::bind_ggui(m);
}
