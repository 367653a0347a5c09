// Array arguments of kernels called from Python (see kernel_args.h).
#include "python/core/kernel_args.h"

#include "vm/frontend/ndarray_arg.h"

namespace kiln::py_host {

using frontend::ArgSpec;

namespace {

// A buffer's shape or strides as Python prints a tuple: "(4, 3)", "(4,)".
std::string dims_text(const Py_ssize_t* d, int n) {
  std::string s = "(";
  for (int i = 0; i < n; i++) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + (n == 1 ? ",)" : ")");
}

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

}  // namespace kiln::py_host
