// ti.layout on CPython: Layout objects over the ti layer's algebra
// (vm/ti/layout.h), for taichi/layout.py and ti.field(..., layout=L).
#include <pybind11/stl.h>

#include "python/core/core.h"
#include "vm/ti/layout.h"

namespace kiln::py_host {

namespace {

// row_major(2, 3) or row_major((2, 3)): the sizes as ints (the ti layer checks them).
std::vector<int64_t> sizes_of(py::args a) {
  py::sequence items = a;
  if (a.size() == 1 && (py::isinstance<py::tuple>(a[0]) || py::isinstance<py::list>(a[0]))) items = a[0];
  std::vector<int64_t> out;
  for (auto v : items) out.push_back(v.cast<int64_t>());
  return out;
}

std::vector<int64_t> coords_of(py::handle key) {
  std::vector<int64_t> c;
  if (py::isinstance<py::tuple>(key) || py::isinstance<py::list>(key))
    for (auto v : key) c.push_back(v.cast<int64_t>());
  else
    c.push_back(key.cast<int64_t>());
  return c;
}

}  // namespace

void bind_layouts(py::module_& m) {
  py::class_<ti::Layout>(m, "Layout")
      .def_property_readonly("shape", [](const ti::Layout& l) { return py::tuple(py::cast(l.shape)); })
      .def("__mul__", [](const ti::Layout& a, const ti::Layout& b) { return ti::compose(a, b); }, py::is_operator())
      .def("__getitem__", [](const ti::Layout& l, py::handle key) { return ti::position(l, coords_of(key)); })
      .def("__call__", [](const ti::Layout& l, py::args a) { return ti::position(l, coords_of(a)); })
      .def("__repr__", &ti::layout_repr);
  m.def("layout_row_major", [](py::args a) { return ti::row_major(sizes_of(a)); });
  m.def("layout_column_major", [](py::args a) { return ti::column_major(sizes_of(a)); });
  m.def("layout_strided", [](py::handle shape, py::handle ranks) {
    return ti::strided(sizes_of(py::make_tuple(shape)), coords_of(ranks));
  }, py::arg("shape"), py::arg("ranks"));
  // The dense levels of ti.field(dtype, shape, layout=l) (shape None: the layout's).
  m.def("layout_levels", [](py::handle layout, py::handle shape) {
    if (!py::isinstance<ti::Layout>(layout))
      raise("TypeError", "layout= takes a ti.layout (row_major, column_major, strided or a product of them)");
    std::vector<int64_t> dims;
    if (!shape.is_none()) dims = coords_of(shape);
    return ti::field_levels(layout.cast<const ti::Layout&>(), shape.is_none() ? nullptr : &dims);
  });
}

}  // namespace kiln::py_host
