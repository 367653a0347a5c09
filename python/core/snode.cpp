// SNodes from Python (ti.root.dense(...).pointer(...).place(x)): a thin
// handle on the runtime's SNode, checked against the current Program. The
// taichi package wraps it in its SNode class (axes, shapes, Taichi's names).
#include <pybind11/stl.h>

#include "python/core/core.h"
#include "vm/ti/field_copy.h"

#include <cstring>

namespace kiln::py_host {

namespace {

struct SNodeCore {
  SNode* node = nullptr;
  int generation = 0;
  SNode* get() const {
    if (generation != state().generation)
      raise("RuntimeError", "this SNode belongs to a Taichi program that ti.init() or ti.reset() discarded");
    return node;
  }
};

SNodeCore wrap(SNode* s) { return SNodeCore{s, state().generation}; }

SNodeKind kind_of(const std::string& k) {
  if (k == "dense") return SNodeKind::dense;
  if (k == "pointer") return SNodeKind::pointer;
  if (k == "bitmasked") return SNodeKind::bitmasked;
  if (k == "dynamic") return SNodeKind::dynamic;
  raise("ValueError", "unknown SNode kind '" + k + "'");
}

}  // namespace

SNode* snode_of(py::handle o) {
  if (!py::isinstance<SNodeCore>(o)) return nullptr;
  return o.cast<SNodeCore&>().get();
}

py::object wrap_field(py::handle cls, FieldInfo* info);  // field.cpp

void bind_snodes(py::module_& m) {
  py::class_<SNodeCore>(m, "SNode")
      .def("child", [](SNodeCore& s, const std::string& kind, std::vector<int> axes, std::vector<int64_t> sizes, int64_t chunk) {
        return wrap(program().add_container(s.get(), kind_of(kind), axes, sizes, {}, chunk));
      })
      .def("place", [](SNodeCore& s, py::handle core, std::vector<int64_t> offset) {
        FieldInfo* f = field_info(core);
        if (!f) raise("TypeError", "place() takes fields, not '" + std::string(Py_TYPE(core.ptr())->tp_name) + "'");
        return wrap(program().place(s.get(), f, {}, offset));
      }, py::arg("core"), py::arg("offset") = std::vector<int64_t>{})
      .def("place_bitpacked", [](SNodeCore& s, int max_bits, py::list groups) {
        std::vector<Program::BitpackGroup> gs;
        for (auto g : groups) {
          auto t = g.cast<py::tuple>();
          Program::BitpackGroup bg;
          for (auto c : t[0]) {
            FieldInfo* f = field_info(c);
            if (!f) raise("TypeError", "ti.BitpackedFields.place() takes fields, not '" + std::string(Py_TYPE(c.ptr())->tp_name) + "'");
            bg.fields.push_back(f);
          }
          bg.shared_exponent = t[1].cast<bool>();
          gs.push_back(std::move(bg));
        }
        return wrap(program().place_bitpacked(s.get(), max_bits, gs, {}));
      })
      .def("quant_array", [](SNodeCore& s, std::vector<int> axes, std::vector<int64_t> sizes, int max_bits) {
        return wrap(program().add_quant_array(s.get(), axes, sizes, max_bits, {}));
      })
      .def_property_readonly("id", [](SNodeCore& s) { return s.get()->id; })
      .def_property_readonly("kind", [](SNodeCore& s) { return std::string(snode_kind_name(s.get()->kind)); })
      .def_property_readonly("name", [](SNodeCore& s) { return s.get()->name(); })
      .def_property_readonly("shape", [](SNodeCore& s) {
        auto sh = s.get()->shape();
        py::tuple t(sh.size());
        for (size_t k = 0; k < sh.size(); k++) t[k] = py::int_(sh[k]);
        return t;
      })
      .def_property_readonly("num_axes", [](SNodeCore& s) { return s.get()->num_axes; })
      .def("cell_size_bytes", [](SNodeCore& s) {
        program().materialize();  // sizes exist once the layout is fixed
        return s.get()->cell_size;
      })
      .def("parent", [](SNodeCore& s, int n) -> py::object {
        SNode* p = s.get();
        for (int k = 0; k < n && p; k++) p = p->parent;
        if (!p) return py::none();
        return py::cast(wrap(p));
      })
      .def("children", [](SNodeCore& s) {
        py::list r;
        for (auto& c : s.get()->children) r.append(wrap(c.get()));
        return r;
      })
      .def("physical_index_position", [](SNodeCore& s) {
        py::dict d;
        auto pp = s.get()->physical_positions();
        for (size_t v = 0; v < pp.size(); v++) d[py::int_(v)] = py::int_(pp[v]);
        return d;
      })
      .def("field", [](SNodeCore& s, py::handle cls) -> py::object {
        SNode* n = s.get();
        if (n->kind != SNodeKind::place || n->field < 0) return py::none();
        return wrap_field(cls, program().fields[(size_t)n->field].get());
      })
      .def("deactivate_all", [](SNodeCore& s) {
        program().materialize();
        program().deactivate_all(s.get());
      })
      .def("__eq__", [](SNodeCore& a, SNodeCore& b) { return a.node == b.node && a.generation == b.generation; })
      .def("__hash__", [](SNodeCore& a) { return (size_t)a.node; });
  m.def("root", [] { return wrap(program().open_root()); });
  m.def("field_snode", [](py::handle f) -> py::object {
    FieldInfo* fi = field_info(f);
    if (!fi || !fi->place) return py::none();
    return py::cast(wrap(fi->place));
  });
  // Autodiff companions (x.grad / x.dual): see Program::companion.
  m.def("companion", [](py::handle cls, py::handle f, const std::string& kind) -> py::object {
    FieldInfo* c = program().companion(field_info(f), kind == "dual");
    if (!c) return py::none();
    return wrap_field(cls, c);
  });
  m.def("require_companion", [](py::handle f, const std::string& kind) {
    FieldInfo* c = program().companion(field_info(f), kind == "dual");
    if (c) c->required = true;
  });
  m.def("ensure_checkbits", [] { program().ensure_checkbits(); });
  m.def("has_checkbit", [](py::handle f) {
    FieldInfo* fi = field_info(f);
    return fi && fi->checkbit && fi->checkbit->place;
  });
  m.def("lazy_companions", [](py::handle s, const std::string& kind) {
    program().lazy_companions(snode_of(s), kind == "dual", {});
  });
  // ti.ad.clear_all_gradients: every placed companion of one kind to zero.
  m.def("clear_companions", [](const std::string& kind) {
    Program& p = program();
    p.materialize();
    bool dual = kind == "dual", check = kind == "checkbit";
    for (auto& f : p.fields)
      if (f->primal && f->place && (check ? f->primal->checkbit : dual ? f->primal->dual : f->primal->grad) == f.get()) {
        size_t width = (size_t)prim_bits(f->dtype) / 8;
        if (f->place->sparse && !f->quant) ti::each_active_element(p, *f, [&](void* at) { std::memset(at, 0, width); });
        else ti::each_element(p, *f, {}, [&](void* at, const std::vector<int64_t>&) { std::memset(at, 0, width); });
      }
  });
  m.def("deactivate_all_snodes", [] {
    program().materialize();
    program().deactivate_all_snodes();
  });
}

}  // namespace kiln::py_host
