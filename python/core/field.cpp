// Fields from Python: taichi._core.FieldCore, a plain CPython type whose
// x[i, j] reads and writes go straight to the element's address (no
// pybind11, no accessor kernels), plus fill / to_numpy / from_numpy over any
// number of component fields (a vector field is one FieldCore per component,
// placed together, as in Taichi).
//
// Element access is the hot path of host loops: after the first access to
// a dense field, the object caches its affine address formula (base, index
// terms) and shape, so x[i] is a bounds check and a load. Sparse fields, and
// every error, take the runtime's general path (Program::element_address),
// which activates on write and reads inactive cells as zero.
#include <cstring>

#include "python/core/core.h"
#include "vm/ti/field_copy.h"
#include "vm/ti/quant_access.h"

namespace kiln::py_host {

namespace {

constexpr int kMaxTerms = 24;

struct FieldCoreObj {
  PyObject_HEAD
  FieldInfo* info;
  int generation;
  bool fast;  // dense, affine: the cached formula below is valid
  Prim prim;
  int ndim;
  int nterms;
  uint8_t* base;
  int64_t shape[kMaxIndices];
  ir::IndexTerm terms[kMaxTerms];
};

PyTypeObject* FieldCoreType = nullptr;

FieldCoreObj* as_core(PyObject* o) {
  return FieldCoreType && PyObject_TypeCheck(o, FieldCoreType) ? (FieldCoreObj*)o : nullptr;
}

FieldInfo& checked(FieldCoreObj* f) {
  if (!f->info) raise("RuntimeError", "this field was destroyed (SNodeTree.destroy()) or never created by ti.field");
  if (f->generation != state().generation)
    raise("RuntimeError", f->info ? "this field belongs to a Taichi program that ti.init() or ti.reset() discarded" : "");
  return *f->info;
}

// Fills the fast-path cache once the field's tree is materialized.
void prepare(FieldCoreObj* f) {
  FieldInfo& fi = checked(f);
  Program& prog = program();
  prog.materialize();
  f->prim = fi.dtype;
  f->ndim = (int)fi.shape.size();
  if (!fi.place || fi.place->sparse || fi.quant || f->ndim > kMaxIndices || !fi.offset.empty()) return;  // offsets: the runtime's path
  ir::Access acc = prog.access_of(fi);
  if ((int)acc.terms.size() > kMaxTerms) return;
  for (int d = 0; d < f->ndim; d++) f->shape[d] = fi.shape[(size_t)d];
  f->nterms = (int)acc.terms.size();
  for (int t = 0; t < f->nterms; t++) f->terms[t] = acc.terms[(size_t)t];
  f->base = prog.tree_bases()[(size_t)acc.tree] + acc.offset;
  f->fast = true;
}

// The key of x[key] as indices; false with a Python error set on failure.
bool parse_key(PyObject* key, int64_t* idx, int& n) {
  if (key == Py_None) {
    n = 0;
    return true;
  }
  if (PyLong_Check(key)) {
    n = 1;
    idx[0] = PyLong_AsLongLong(key);
    return !(idx[0] == -1 && PyErr_Occurred());
  }
  PyObject* t = PyTuple_Check(key) ? (Py_INCREF(key), key) : PySequence_Tuple(key);
  if (!t) {
    PyErr_Clear();
    // a numpy integer, or anything with __index__
    PyObject* i = PyNumber_Index(key);
    if (!i) return false;
    n = 1;
    idx[0] = PyLong_AsLongLong(i);
    Py_DECREF(i);
    return !(idx[0] == -1 && PyErr_Occurred());
  }
  Py_ssize_t len = PyTuple_GET_SIZE(t);
  if (len > kMaxIndices) {
    Py_DECREF(t);
    PyErr_SetString(PyExc_IndexError, "too many indices for a field");
    return false;
  }
  n = (int)len;
  for (Py_ssize_t k = 0; k < len; k++) {
    PyObject* e = PyTuple_GET_ITEM(t, k);
    PyObject* i = PyLong_Check(e) ? (Py_INCREF(e), e) : PyNumber_Index(e);
    if (!i) {
      Py_DECREF(t);
      return false;
    }
    idx[k] = PyLong_AsLongLong(i);
    Py_DECREF(i);
    if (idx[k] == -1 && PyErr_Occurred()) {
      Py_DECREF(t);
      return false;
    }
  }
  Py_DECREF(t);
  return true;
}

PyObject* load(Prim p, const void* addr) {
  switch (p) {
    case Prim::f32: { float v; std::memcpy(&v, addr, 4); return PyFloat_FromDouble(v); }
    case Prim::f64: { double v; std::memcpy(&v, addr, 8); return PyFloat_FromDouble(v); }
    case Prim::i32: { int32_t v; std::memcpy(&v, addr, 4); return PyLong_FromLong(v); }
    case Prim::i64: { int64_t v; std::memcpy(&v, addr, 8); return PyLong_FromLongLong(v); }
    default: break;
  }
  uint64_t bits = 0;
  std::memcpy(&bits, addr, (size_t)prim_bits(p) / 8);
  ConstVal c = const_from_bits(p, bits);
  if (prim_is_float(p)) return PyFloat_FromDouble(c.as_double());
  if (prim_is_signed(p)) return PyLong_FromLongLong(c.i);
  return PyLong_FromUnsignedLongLong(c.u);
}

PyObject* const_to_py(const ConstVal& c) {
  if (prim_is_float(c.prim)) return PyFloat_FromDouble(c.as_double());
  if (prim_is_signed(c.prim)) return PyLong_FromLongLong(c.i);
  return PyLong_FromUnsignedLongLong(c.u);
}

// A Python number converted to `p` as Taichi's host write converts it.
bool to_const(PyObject* v, Prim p, ConstVal& out) {
  if (PyFloat_Check(v)) {
    out = ConstVal::make_float(p, PyFloat_AS_DOUBLE(v));
    return true;
  }
  if (PyLong_Check(v)) return long_to_const(v, p, out, "integer too small for a 64-bit field");
  if (PyObject* i = PyNumber_Index(v)) {  // numpy integers
    bool ok = to_const(i, p, out);
    Py_DECREF(i);
    return ok;
  }
  PyErr_Clear();
  double d = PyFloat_AsDouble(v);  // numpy floats, anything with __float__
  if (d == -1.0 && PyErr_Occurred()) {
    PyErr_Format(PyExc_TypeError, "a field element of type %s cannot be set to a '%s'", std::string(prim_name(p)).c_str(),
                 Py_TYPE(v)->tp_name);
    return false;
  }
  out = ConstVal::make_float(p, d);
  return true;
}

void store(Prim p, void* addr, const ConstVal& c) {
  uint64_t bits = const_to_bits(c);
  std::memcpy(addr, &bits, (size_t)prim_bits(p) / 8);
}

// The fast address of an in-bounds element, or null (then the slow path decides).
// Launches still running on a device finish first (Engine::sync), as the slow
// path's materialize() waits for them.
void* fast_address(FieldCoreObj* f, const int64_t* idx, int n) {
  if (!f->fast || n != f->ndim || f->generation != state().generation) return nullptr;
  for (int d = 0; d < n; d++)
    if ((uint64_t)idx[d] >= (uint64_t)f->shape[d]) return nullptr;
  if (Engine* e = state().program ? state().program->engine.get() : nullptr) {
    try {
      e->sync();
    } catch (Error&) {
      return nullptr;  // the slow path's materialize() raises it as a Python error
    }
  }
  int64_t off = 0;
  for (int t = 0; t < f->nterms; t++) {
    const ir::IndexTerm& term = f->terms[t];
    int64_t v = idx[term.axis] / term.div;
    if (term.mod) v %= term.mod;
    off += v * term.stride;
  }
  return f->base + off;
}

PyObject* set_error(const Error& e) {
  try {
    throw_python(e, false);
  } catch (py::error_already_set& pe) {
    pe.restore();
  }
  return nullptr;
}

bool has_slice(PyObject* key) {
  if (PySlice_Check(key)) return true;
  if (!PyTuple_Check(key)) return false;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(key); i++)
    if (PySlice_Check(PyTuple_GET_ITEM(key, i))) return true;
  return false;
}

PyObject* field_getitem(PyObject* self, PyObject* key) {
  auto* f = (FieldCoreObj*)self;
  if (has_slice(key)) {  // x[a:b]: a view, not a value
    PyObject* name = PyUnicode_FromString("_kiln_slice");
    PyObject* r = name ? PyObject_CallMethodOneArg(self, name, key) : nullptr;
    Py_XDECREF(name);
    return r;
  }
  int64_t idx[kMaxIndices];
  int n = 0;
  if (!parse_key(key, idx, n)) return nullptr;
  if (void* a = fast_address(f, idx, n)) return load(f->prim, a);
  try {
    FieldInfo& fi = checked(f);
    if (!f->fast) prepare(f);
    if (fi.quant) return const_to_py(ti::quant_get(program(), fi, idx, n, {}));
    return load(fi.dtype, program().element_read_address(fi, idx, n, {}));
  } catch (Error& e) {
    return set_error(e);
  }
}

int field_setitem(PyObject* self, PyObject* key, PyObject* v) {
  auto* f = (FieldCoreObj*)self;
  if (!v) {
    PyErr_SetString(PyExc_TypeError, "field elements cannot be deleted");
    return -1;
  }
  int64_t idx[kMaxIndices];
  int n = 0;
  if (!parse_key(key, idx, n)) return -1;
  if (void* a = fast_address(f, idx, n)) {
    ConstVal c;
    if (!to_const(v, f->prim, c)) return -1;
    store(f->prim, a, c);
    return 0;
  }
  try {
    FieldInfo& fi = checked(f);
    if (!f->fast) prepare(f);
    ConstVal c;
    if (!to_const(v, fi.dtype, c)) return -1;
    if (fi.quant) ti::quant_set(program(), fi, idx, n, c, {});
    else store(fi.dtype, program().element_address(fi, idx, n, {}), c);
    return 0;
  } catch (Error& e) {
    set_error(e);
    return -1;
  }
}

PyMappingMethods field_mapping = {nullptr, field_getitem, field_setitem};

void make_type(py::module_& m) {
  static PyTypeObject t = {PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_as_mapping = &field_mapping;
  add_base_type(m, t, "FieldCore", sizeof(FieldCoreObj), "A scalar field's storage: element access from Python (x[i, j]).");
  FieldCoreType = &t;
}

std::vector<FieldInfo*> components(py::handle list) {
  std::vector<FieldInfo*> r;
  for (auto c : list) {
    FieldInfo* f = field_info(c);
    if (!f) raise("TypeError", "expected a field, got '" + std::string(Py_TYPE(c.ptr())->tp_name) + "'");
    r.push_back(f);
  }
  if (r.empty()) raise("ValueError", "no field components");
  return r;
}

// numpy's name for a primitive (bf16 has none: it travels as float32)
const char* np_name(Prim p) {
  switch (p) {
    case Prim::i8: return "int8";
    case Prim::i16: return "int16";
    case Prim::i32: return "int32";
    case Prim::i64: return "int64";
    case Prim::u8: return "uint8";
    case Prim::u16: return "uint16";
    case Prim::u32: return "uint32";
    case Prim::u64: return "uint64";
    case Prim::f16: return "float16";
    case Prim::f64: return "float64";
    default: return "float32";
  }
}

// A writable C-contiguous buffer of an array (numpy arrays, ...).
struct Buffer {
  Py_buffer view{};
  bool ok = false;
  explicit Buffer(py::handle a, bool writable) {
    if (PyObject_GetBuffer(a.ptr(), &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) != 0)
      throw py::error_already_set();
    ok = true;
  }
  ~Buffer() {
    if (ok) PyBuffer_Release(&view);
  }
};

py::object to_numpy(py::list comps, py::tuple comp_shape) {
  auto fs = components(comps);
  Program& prog = program();
  prog.materialize();
  py::list shape;
  for (auto n : fs[0]->shape) shape.append(n);
  for (auto n : comp_shape) shape.append(n);
  py::module_ np = py::module_::import("numpy");
  Prim p = fs[0]->dtype;
  if (p == Prim::bf16) {  // numpy has no bfloat16: convert element-wise to float32
    py::object arr = np.attr("empty")(py::tuple(shape), "float32");
    Buffer b(arr, true);
    float* out = (float*)b.view.buf;
    size_t nc = fs.size();
    ti::each_cell(*fs[0], [&](const std::vector<int64_t>& idx, int64_t flat) {
      for (size_t c = 0; c < nc; c++) {
        uint16_t bits;
        std::memcpy(&bits, prog.element_read_address(*fs[c], idx.data(), (int)idx.size(), {}), 2);
        out[(size_t)flat * nc + c] = (float)const_from_bits(Prim::bf16, bits).as_double();
      }
    });
    return arr;
  }
  size_t bytes = (size_t)(prim_bits(p) / 8);
  for (auto n : shape) bytes *= py::cast<size_t>(n);
  py::object arr = ti::affine_layout(prog, fs) ? np_empty_large(np, py::tuple(shape), np_name(p), bytes)
                                               : np.attr("zeros")(py::tuple(shape), np_name(p));
  Buffer b(arr, true);
  ti::copy_components(prog, fs, (uint8_t*)b.view.buf, prim_bits(p) / 8, true, {});
  return arr;
}

void from_numpy(py::list comps, py::handle src, py::tuple comp_shape, const std::string& what) {
  auto fs = components(comps);
  Program& prog = program();
  prog.materialize();
  py::module_ np = py::module_::import("numpy");
  for (FieldInfo* f : fs) Program::require_placed(*f);  // before the shape: an unplaced field has none
  Prim p = fs[0]->dtype;
  py::object arr = np.attr("require")(src, p == Prim::bf16 ? "float32" : np_name(p), "C");  // keeps 0-d arrays 0-d
  py::tuple want(fs[0]->shape.size() + comp_shape.size());
  size_t k = 0;
  for (auto n : fs[0]->shape) want[k++] = py::int_(n);
  for (auto n : comp_shape) want[k++] = n;
  py::object got = arr.attr("shape");
  if (!got.equal(want))
    raise("ValueError", what + " expects a numpy array of shape " + std::string(py::str(want)) + ", got shape " +
                            std::string(py::str(arr.attr("shape"))));
  Buffer b(arr, false);
  if (p == Prim::bf16) {
    const float* in = (const float*)b.view.buf;
    size_t nc = fs.size();
    ti::each_cell(*fs[0], [&](const std::vector<int64_t>& idx, int64_t flat) {
      for (size_t c = 0; c < nc; c++)
        store(p, prog.element_address(*fs[c], idx.data(), (int)idx.size(), {}),
              ConstVal::make_float(p, in[(size_t)flat * nc + c]));
    });
    return;
  }
  ti::copy_components(prog, fs, (uint8_t*)b.view.buf, prim_bits(p) / 8, false, {});
}

// A numpy array that IS the field's memory (no copy): shape field.shape +
// comp_shape, the layout's own strides. For dense fields whose SNode layout
// is affine; others are refused with a message that says why.
py::object field_array(py::list comps, py::tuple comp_shape) {
  auto fs = components(comps);
  Program& prog = program();
  prog.materialize();
  ti::FieldView v = ti::affine_view(prog, fs);
  std::string what = fs[0]->describe();
  if (!v.ok)
    raise("ValueError", what + " is not one strided block of memory (a sparse SNode, or a layout that splits an axis): "
                               "use to_numpy() for a copy");
  int64_t isz = prim_bits(fs[0]->dtype) / 8;
  std::vector<int64_t> shape = fs[0]->shape, strides = v.strides;
  // the components must be an array of their own: base[c] = base[0] + sum(k * cstride)
  std::vector<int64_t> cshape;
  for (auto n : comp_shape) cshape.push_back(n.cast<int64_t>());
  std::vector<int64_t> cstrides(cshape.size(), 0);
  if (cshape.size() >= 1) {
    int64_t inner = cshape.size() == 2 ? cshape[1] : 1;
    cstrides[0] = fs.size() > (size_t)inner ? (int64_t)(v.base[(size_t)inner] - v.base[0]) : isz;
    if (cshape.size() == 2) cstrides[1] = inner > 1 ? (int64_t)(v.base[1] - v.base[0]) : isz;
  }
  for (size_t c = 0; c < fs.size(); c++) {
    int64_t off = 0, k = (int64_t)c;
    for (size_t d = cshape.size(); d-- > 0;) {
      off += (k % cshape[d]) * cstrides[d];
      k /= cshape[d];
    }
    if (v.base[c] != v.base[0] + off)
      raise("ValueError", what + ": its components are not evenly spaced in memory (ti.Layout.SOA with separate "
                                 "places?): use to_numpy() for a copy");
  }
  shape.insert(shape.end(), cshape.begin(), cshape.end());
  strides.insert(strides.end(), cstrides.begin(), cstrides.end());
  int64_t span = isz;
  for (size_t d = 0; d < shape.size(); d++) {
    if (shape[d] == 0) span = 0;
    if (strides[d] < 0) raise("ValueError", what + " has a negative stride");
    if (span) span += (shape[d] - 1) * strides[d];
  }
  py::object mv = py::reinterpret_steal<py::object>(PyMemoryView_FromMemory((char*)v.base[0], span, PyBUF_WRITE));
  if (!mv) throw py::error_already_set();
  state().exported = true;
  py::module_ np = py::module_::import("numpy");
  py::tuple sh(shape.size()), st(strides.size());
  for (size_t d = 0; d < shape.size(); d++) {
    sh[d] = py::int_(shape[d]);
    st[d] = py::int_(strides[d]);
  }
  if (fs[0]->dtype == Prim::bf16) raise("TypeError", what + " holds bf16, which numpy has no type for: use to_numpy()");
  return np.attr("ndarray")(py::arg("shape") = sh, py::arg("dtype") = np_name(fs[0]->dtype), py::arg("buffer") = mv,
                            py::arg("offset") = 0, py::arg("strides") = st);
}

// x.fill(v): every element (under sparse SNodes: every active one, as Taichi's fill kernel).
void fill(py::handle core, py::handle value) {
  FieldInfo* f = field_info(core);
  if (!f) raise("TypeError", "fill() needs a field");
  ConstVal c;
  if (!to_const(value.ptr(), f->dtype, c)) throw py::error_already_set();
  if (f->quant) {
    ti::each_cell(*f, [&](const std::vector<int64_t>& idx, int64_t) {
      ti::quant_set(program(), *f, idx.data(), (int)idx.size(), c, {});
    });
    return;
  }
  ti::fill_elements(program(), *f, const_to_bits(c), (size_t)prim_bits(f->dtype) / 8, {});
}

}  // namespace

FieldInfo* field_info(py::handle o) {
  FieldCoreObj* f = as_core(o.ptr());
  if (!f) return nullptr;
  return &checked(f);
}

// Binds a new FieldCore object (of Python class `cls`, a FieldCore subclass) to `info`.
py::object wrap_field(py::handle cls, FieldInfo* info) {
  if (!PyType_Check(cls.ptr()) || !PyType_IsSubtype((PyTypeObject*)cls.ptr(), FieldCoreType))
    raise("TypeError", "a field class must derive from taichi._core.FieldCore");
  py::object o = py::reinterpret_steal<py::object>(PyObject_CallNoArgs(cls.ptr()));
  if (!o) throw py::error_already_set();
  auto* f = (FieldCoreObj*)o.ptr();
  f->info = info;
  f->generation = state().generation;
  f->fast = false;
  return o;
}

void bind_fields(py::module_& m) {
  make_type(m);
  m.def("to_numpy", &to_numpy, "components -> a new numpy array of shape field.shape + comp_shape");
  m.def("from_numpy", &from_numpy);
  m.def("fill", &fill);
  m.def("field_array", &field_array, "components -> a numpy array over the field's own memory (no copy)");
  m.def("field_shape", [](py::handle f) {
    FieldInfo* fi = field_info(f);
    if (!fi) raise("TypeError", "not a field");
    py::tuple t(fi->shape.size());
    for (size_t k = 0; k < fi->shape.size(); k++) t[k] = py::int_(fi->shape[k]);
    return t;
  });
  m.def("field_offset", [](py::handle f) {  // index of element 0 per axis (ti.field(..., offset=...))
    FieldInfo* fi = field_info(f);
    if (!fi) raise("TypeError", "not a field");
    py::tuple t(fi->shape.size());
    for (size_t k = 0; k < fi->shape.size(); k++) t[k] = py::int_(fi->offset_at(k));
    return t;
  });
  m.def("field_destroy", [](py::handle f) {  // SNodeTree.destroy(): later uses raise
    FieldCoreObj* c = as_core(f.ptr());
    if (!c) raise("TypeError", "not a field");
    c->info = nullptr;
    c->fast = false;
  });
  m.def("field_dtype", [](py::handle f) {
    FieldInfo* fi = field_info(f);
    if (!fi) raise("TypeError", "not a field");
    return std::string(prim_name(fi->dtype));
  });
  m.def("field_name", [](py::handle f) { return field_info(f)->name; });
  m.def("set_field_name", [](py::handle f, const std::string& n) { field_info(f)->name = n; });
  m.def("field_placed", [](py::handle f) { return field_info(f)->place != nullptr; });
}

}  // namespace kiln::py_host
