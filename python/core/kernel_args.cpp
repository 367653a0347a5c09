// A kernel call's arguments from Python (see kernel_args.h).
#include "python/core/kernel_args.h"

#include <cstdio>
#include <cstring>

#include "vm/frontend/ndarray_arg.h"

namespace kiln::py_host {

using frontend::ArgSpec;
using frontend::StaticValue;

namespace {

// A buffer's shape or strides as Python prints a tuple: "(4, 3)", "(4,)".
std::string dims_text(const Py_ssize_t* d, int n) {
  std::string s = "(";
  for (int i = 0; i < n; i++) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + (n == 1 ? ",)" : ")");
}

void flat_prims(const StaticValue& t, std::vector<Prim>& out) {
  if (t.kind == StaticValue::Kind::struct_type) {
    for (auto& m : t.elems) flat_prims(m, out);
  } else if (t.kind == StaticValue::Kind::dtype) {
    int n = t.rows ? t.rows * (t.cols ? t.cols : 1) : 1;
    for (int i = 0; i < n; i++) out.push_back(t.prim);
  }
}


// An ndarray's grad (dual in forward mode) array, passed beside it when it
// has one, so that autodiff kernels reach it and `x.grad[i]` works in any
// kernel; none for validating kernels or a needs_grad=False annotation.
void companion_arg(int mode, const py::object& ann, const py::object& v, const std::string& pname, ArgSpec& spec,
                   std::unique_ptr<NdarrayArg>& out, std::string& key) {
  if (mode == kValidate) return;
  if (py::hasattr(ann, "needs_grad") && py::object(ann.attr("needs_grad")).ptr() == Py_False) return;
  const char* kind = mode == kDual ? "dual" : "grad";
  if (!py::hasattr(v, kind)) return;
  py::object c = v.attr(kind);
  if (c.is_none()) return;
  ArgSpec cs;
  std::string unused;
  out = ndarray_arg(ann, c, pname + "." + kind, cs, unused);
  if (cs.prim != spec.prim || cs.ndim != spec.ndim || cs.rows != spec.rows || cs.cols != spec.cols)
    raise("ValueError", "the " + std::string(kind) + " of ndarray argument '" + pname +
                            "' differs from it in dtype or shape");
  spec.companion = true;
  key += "c|";
}

void pack_arg(int mode, const std::string& kernel, const py::object& ann, const py::object& val, SourceLoc loc, ArgSpec& spec,
              ArgHold& h, std::string& key);

}  // namespace

Prim prim_of_format(const char* f, Py_ssize_t itemsize) {
  char c = f[0];
  if (c == '<' || c == '=' || c == '@' || c == '!' || c == '>') c = f[1];
  switch (c) {
    case 'b': return Prim::i8;
    case 'B': return Prim::u8;
    case 'h': return Prim::i16;
    case 'H': return Prim::u16;
    case 'i': case 'l': case 'q': return itemsize == 8 ? Prim::i64 : itemsize == 4 ? Prim::i32 : Prim::none;
    case 'I': case 'L': case 'Q': return itemsize == 8 ? Prim::u64 : itemsize == 4 ? Prim::u32 : Prim::none;
    case 'e': return Prim::f16;
    case 'f': return Prim::f32;
    case 'd': return Prim::f64;
    default: return Prim::none;
  }
}

std::unique_ptr<NdarrayArg> ndarray_arg(const py::object& ann, const py::object& v, const std::string& pname, ArgSpec& spec,
                                        std::string& key) {
  auto nd = std::make_unique<NdarrayArg>();
  // the annotation's wishes: (dtype name or None, n, m, ndim or -1)
  std::string want_dt;
  int want_n = 0, want_m = 0, want_ndim = -1;
  if (py::hasattr(ann, "_kiln_ndarray")) {
    py::tuple w = ann.attr("_kiln_ndarray")();
    if (!w[0].is_none()) want_dt = py::str(w[0]);
    want_n = w[1].cast<int>();
    want_m = w[2].cast<int>();
    want_ndim = w[3].cast<int>();
  }
  py::object arr = v;
  int elem_dims = 0, n = 0, m = 0;
  if (py::hasattr(v, "_kiln_array")) {  // a ti.ndarray: (numpy array, n, m)
    py::tuple t = v.attr("_kiln_array")();
    arr = t[0];
    n = t[1].cast<int>();
    m = t[2].cast<int>();
    elem_dims = n ? (m ? 2 : 1) : 0;
  } else if (want_n) {
    n = want_n;
    m = want_m;
    elem_dims = m ? 2 : 1;
  }
  nd->arr = arr;
  if (PyObject_GetBuffer(arr.ptr(), &nd->view, PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
    PyErr_Clear();
    if (PyObject_GetBuffer(arr.ptr(), &nd->view, PyBUF_STRIDES | PyBUF_FORMAT) != 0) {
      PyErr_Clear();
      raise("TypeError", "ndarray argument '" + pname + "' takes a ti.ndarray or a numpy array, not '" +
                             std::string(Py_TYPE(v.ptr())->tp_name) + "'");
    }
  }
  nd->held = true;
  Py_buffer& b = nd->view;
  if (!PyBuffer_IsContiguous(&b, 'C'))
    raise("ValueError", "Non contiguous numpy arrays are not supported, please call np.ascontiguousarray(arr) before passing it "
                        "into taichi kernel. (argument '" + pname + "' has shape " + dims_text(b.shape, b.ndim) +
                        " and strides " + dims_text(b.strides, b.ndim) + ")");
  Prim dt = prim_of_format(b.format ? b.format : "B", b.itemsize);
  if (dt == Prim::none)
    raise("TypeError", "ndarray argument '" + pname + "': arrays of format '" + std::string(b.format ? b.format : "?") +
                           "' cannot be passed to kernels (bool arrays: use np.uint8 or np.int32)");
  int ndim = b.ndim - elem_dims;
  if (elem_dims && (ndim < 1 || b.shape[ndim] != n || (m && b.shape[ndim + 1] != m)))
    raise("ValueError", "ndarray argument '" + pname + "' expects elements of shape (" + std::to_string(n) + (m ? ", " + std::to_string(m) : std::string(",")) +
                            ") in its last axes");
  frontend::NdarrayWant want;
  if (!want_dt.empty()) want.prim = prim_from_name(want_dt);
  want.n = want_n;
  want.m = want_m;
  want.ndim = want_ndim;
  frontend::bind_ndarray(pname, want, dt, n, m, ndim, b.shape, py::str(arr.attr("dtype")), spec, key, {});
  return nd;
}

// A ti.linalg.SparseMatrixBuilder: its index (i32), value (f64) and counter
// (i32) arrays, which the kernel appends triplets to (vm/frontend/lower_linalg.cpp).
void builder_arg(const py::object& v, const std::string& pname, std::array<std::unique_ptr<NdarrayArg>, 3>& out) {
  if (!py::hasattr(v, "_kiln_builder_arrays"))
    raise("TypeError", "argument '" + pname + "' takes a ti.linalg.SparseMatrixBuilder, not '" +
                           std::string(Py_TYPE(v.ptr())->tp_name) + "'");
  py::tuple t = v.attr("_kiln_builder_arrays")();
  static const char kFormat[] = {'i', 'd', 'i'};
  for (size_t p = 0; p < 3; p++) {
    auto nd = std::make_unique<NdarrayArg>();
    nd->arr = t[p];
    if (PyObject_GetBuffer(nd->arr.ptr(), &nd->view, PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE) != 0)
      throw py::error_already_set();
    nd->held = true;
    Prim want = kFormat[p] == 'd' ? Prim::f64 : Prim::i32;
    if (nd->view.ndim != 1 || !PyBuffer_IsContiguous(&nd->view, 'C') ||
        prim_of_format(nd->view.format ? nd->view.format : "B", nd->view.itemsize) != want || nd->view.shape[0] > INT32_MAX)
      raise("ValueError", "argument '" + pname + "': the sparse matrix builder's arrays are damaged");
    out[p] = std::move(nd);
  }
}


std::string identity(py::handle v) {
  PyObject* p = v.ptr();
  char buf[48];
  if (p == Py_None) return "N";
  if (PyBool_Check(p)) return p == Py_True ? "B1" : "B0";
  if (PyLong_CheckExact(p)) return "I" + std::string(py::str(v));
  if (PyFloat_CheckExact(p)) {
    std::snprintf(buf, sizeof buf, "F%.17g", PyFloat_AS_DOUBLE(p));
    return buf;
  }
  if (PyUnicode_Check(p)) return "U" + std::string(py::str(v)) + "\x01";
  if (PyTuple_Check(p)) {
    std::string s = "(";
    for (auto e : v) s += identity(e) + ",";
    return s + ")";
  }
  std::snprintf(buf, sizeof buf, "P%p", (void*)p);
  return buf;
}

bool long_to_const(PyObject* v, Prim p, ConstVal& out, const char* too_small) {
  int overflow = 0;
  long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(v);
    if (PyErr_Occurred()) return false;
    out = ConstVal::make_uint(p, u);
    return true;
  }
  if (overflow < 0) {
    PyErr_SetString(PyExc_OverflowError, too_small);
    return false;
  }
  out = ConstVal::make_int(p, x);
  return true;
}

bool slot_of(PyObject* v, Prim p, uint64_t& out) {
  // The common parameter types from exact Python numbers, as the general
  // conversion below gives them (without its ConstVal round trip).
  if (p == Prim::f32 && PyFloat_CheckExact(v)) {
    float f = (float)PyFloat_AS_DOUBLE(v);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    out = b;
    return true;
  }
  if ((p == Prim::i32 || p == Prim::i64) && PyLong_CheckExact(v)) {
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (!overflow && !(x == -1 && PyErr_Occurred())) {
      out = p == Prim::i32 ? (uint64_t)(int64_t)(int32_t)x : (uint64_t)x;  // wrapped to the width, sign-extended
      return true;
    }
  }
  if (prim_is_float(p)) {
    double d = PyFloat_Check(v) ? PyFloat_AS_DOUBLE(v) : PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) return false;
    out = const_to_bits(ConstVal::make_float(p, d));
    return true;
  }
  if (PyLong_Check(v)) {
    ConstVal c;
    if (!long_to_const(v, p, c, "integer argument does not fit in 64 bits")) return false;
    out = c.u;
    return true;
  }
  if (PyFloat_Check(v)) {  // Taichi refuses a float for an integer parameter
    PyErr_Format(PyExc_TypeError, "an integer parameter (%s) cannot take the float %R", std::string(prim_name(p)).c_str(), v);
    return false;
  }
  PyObject* i = PyNumber_Index(v);
  if (i) {
    bool ok = slot_of(i, p, out);
    Py_DECREF(i);
    return ok;
  }
  return false;
}

AnnInfo ann_info(const py::object& ann) {
  StaticValue a = ann.is_none() ? StaticValue() : to_static(ann);
  AnnKind kind = AnnKind::unsupported;
  if (ann.is_none() || (a.kind == StaticValue::Kind::builtin && a.s == "ti.template")) kind = AnnKind::template_;
  else if (py::hasattr(ann, "_kiln_sparse_builder")) kind = AnnKind::builder;
  else if ((a.kind == StaticValue::Kind::builtin && a.s == "ti.types.ndarray") ||
           (a.kind == StaticValue::Kind::object && py::hasattr(ann, "_kiln_ndarray")))
    kind = AnnKind::ndarray;
  else if (py::hasattr(ann, "_kiln_argpack")) kind = AnnKind::argpack;
  else if ((a.kind == StaticValue::Kind::dtype && a.rows > 0) || a.kind == StaticValue::Kind::struct_type) kind = AnnKind::compound;
  else if (a.kind == StaticValue::Kind::dtype) kind = AnnKind::scalar;
  return {kind, std::move(a)};
}

// A template argument's value is what the compiler reads (spec.value): it
// is converted on a miss only (classify keys it by identity).
void classify(int mode, const std::string& kernel, const py::object& ann, const AnnInfo& info, const py::object& val, SourceLoc loc, ArgSpec& spec,
              ArgHold& h, std::string& key) {
  const std::string& name = spec.name;
  const StaticValue& a = info.a;
  h.ann = ann;
  h.val = val;
  if (info.kind == AnnKind::template_) {
    spec.kind = ArgSpec::Kind::template_;
    key += "T" + identity(val) + "|";
  } else if (info.kind == AnnKind::builder) {
    builder_arg(val, name, h.builder);
    spec.kind = ArgSpec::Kind::sparse_builder;
    key += "B|";
  } else if (info.kind == AnnKind::ndarray) {
    h.nd = ndarray_arg(ann, val, name, spec, key);
    if (name.find('.') == std::string::npos) companion_arg(mode, ann, val, name, spec, h.comp, key);
  } else if (info.kind == AnnKind::argpack) {
    pack_arg(mode, kernel, ann, val, loc, spec, h, key);
  } else if (info.kind == AnnKind::compound) {
    spec.kind = ArgSpec::Kind::compound;
    spec.type = a;
    key += "C" + (a.kind == StaticValue::Kind::dtype ? std::string(prim_name(a.prim)) + std::to_string(a.rows) + "x" + std::to_string(a.cols)
                                                     : identity(ann)) + "|";
  } else if (info.kind == AnnKind::scalar) {
    spec.kind = ArgSpec::Kind::scalar;
    spec.prim = a.prim;
    key += "S" + std::string(prim_name(a.prim)) + "|";
  } else {
    raise("TypeError", "parameter '" + name + "' of kernel '" + kernel + "' has an annotation Kiln does not support: " +
                           std::string(py::repr(ann)), loc);
  }
}

namespace {

// A ti.types.argpack parameter: each member classified as a parameter of
// its own, named "pack.member" (ndarray members have no autodiff companion).
void pack_arg(int mode, const std::string& kernel, const py::object& ann, const py::object& val, SourceLoc loc, ArgSpec& spec, ArgHold& h, std::string& key) {
  spec.kind = ArgSpec::Kind::pack;
  if (!py::hasattr(val, "_kiln_pack_values"))
    raise("TypeError", "argument '" + spec.name + "' of kernel '" + kernel + "' takes a pack made by its argpack type, not '" +
                           std::string(Py_TYPE(val.ptr())->tp_name) + "'", loc);
  py::list members = ann.attr("_kiln_argpack")();
  py::list values = val.attr("_kiln_pack_values")(ann);  // a TypeError for a pack of another type
  spec.members.resize(py::len(members));
  h.members.resize(spec.members.size());
  key += "P" + identity(ann) + "(";
  for (size_t i = 0; i < spec.members.size(); i++) {
    py::tuple m = members[i];
    spec.members[i].name = spec.name + "." + std::string(py::str(m[0]));
    classify(mode, kernel, m[1], ann_info(m[1]), values[i], loc, spec.members[i], h.members[i], key);
    if (spec.members[i].kind == ArgSpec::Kind::template_)
      raise("TypeError", "argpack member '" + spec.members[i].name + "' cannot be ti.template()", loc);
  }
  key += ")";
}

}  // namespace

size_t fill(const std::string& kernel, const ArgSpec& spec, ArgHold& h, size_t slot, std::vector<uint64_t>& slots) {
  switch (spec.kind) {
    case ArgSpec::Kind::scalar:
      if (!slot_of(h.val.ptr(), spec.prim, slots[slot])) {
        PyErr_Clear();
        throw py::type_error("argument '" + spec.name + "' of kernel '" + kernel + "' must be a number (" +
                   std::string(prim_name(spec.prim)) + "), not '" + Py_TYPE(h.val.ptr())->tp_name + "'");
      }
      return 1;
    case ArgSpec::Kind::ndarray:
      slots[slot] = (uint64_t)(uintptr_t)h.nd->view.buf;
      for (int d = 0; d < spec.ndim; d++) slots[slot + 1 + (size_t)d] = (uint64_t)h.nd->view.shape[d];
      return 1 + (size_t)spec.ndim;
    case ArgSpec::Kind::sparse_builder:
      for (size_t p = 0; p < 3; p++) {
        slots[slot + 2 * p] = (uint64_t)(uintptr_t)h.builder[p]->view.buf;
        slots[slot + 2 * p + 1] = (uint64_t)h.builder[p]->view.shape[0];
      }
      return 6;
    case ArgSpec::Kind::compound: {
      py::list flat = py::module_::import("taichi._kernel").attr("flatten_arg")(h.ann, h.val, spec.name);
      size_t n = py::len(flat);
      std::vector<Prim> want;
      flat_prims(spec.type, want);
      if (n != want.size()) throw py::type_error("argument '" + spec.name + "' has the wrong number of components");
      for (size_t i = 0; i < n; i++)
        if (!slot_of(flat[i].ptr(), want[i], slots[slot + i])) throw py::error_already_set();
      return n;
    }
    case ArgSpec::Kind::pack: {
      size_t n = 0;
      for (size_t i = 0; i < spec.members.size(); i++) n += fill(kernel, spec.members[i], h.members[i], slot + n, slots);
      return n;
    }
    default: return 0;
  }
}

}  // namespace kiln::py_host
