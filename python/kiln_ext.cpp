// kiln._kiln: the Python module's native half, a thin pybind11 layer over the
// C API (include/kiln/kiln.h). Python decides types (it has the annotations);
// this file turns Python values into kiln_values, numpy arrays into
// kiln_arrays over their own memory (the buffer protocol: no copy), and
// failures into Python exceptions carrying kiln_last_error's text.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <string>
#include <vector>

#include "kiln/kiln.h"

namespace py = pybind11;

namespace {

// Python's exception class for each status (KilnError for the rest); the
// message is the text `kiln run` prints.
[[noreturn]] void raise_status(kiln_status s) {
  const char* msg = kiln_last_error();
  switch (s) {
    case KILN_ERROR_TYPE: throw py::type_error(msg);
    case KILN_ERROR_VALUE: throw py::value_error(msg);
    case KILN_ERROR_INDEX: throw py::index_error(msg);
    case KILN_ERROR_NAME: PyErr_SetString(PyExc_NameError, msg); throw py::error_already_set();
    case KILN_ERROR_SYNTAX: PyErr_SetString(PyExc_SyntaxError, msg); throw py::error_already_set();
    case KILN_ERROR_ASSERTION: PyErr_SetString(PyExc_AssertionError, msg); throw py::error_already_set();
    case KILN_ERROR_IO: PyErr_SetString(PyExc_OSError, msg); throw py::error_already_set();
    case KILN_ERROR_OUT_OF_MEMORY: PyErr_SetString(PyExc_MemoryError, msg); throw py::error_already_set();
    case KILN_ERROR_EXIT: PyErr_SetString(PyExc_SystemExit, msg); throw py::error_already_set();
    default: throw std::runtime_error(msg);
  }
}

void check(kiln_status s) {
  if (s != KILN_OK) raise_status(s);
}

bool is_float(kiln_dtype t) { return t == KILN_F16 || t == KILN_BF16 || t == KILN_F32 || t == KILN_F64; }
bool is_unsigned(kiln_dtype t) { return t >= KILN_U8 && t <= KILN_U64; }

kiln_value scalar(kiln_dtype t, const py::handle& v) {
  kiln_value r;
  r.dtype = t;
  if (is_float(t)) r.v.f = v.cast<double>();
  else if (is_unsigned(t)) r.v.u = py::int_(py::reinterpret_borrow<py::object>(v)).cast<uint64_t>();
  else r.v.i = py::int_(py::reinterpret_borrow<py::object>(v)).cast<int64_t>();
  return r;
}

py::object to_python(const kiln_value& v) {
  if (is_float(v.dtype)) return py::float_(v.v.f);
  if (is_unsigned(v.dtype)) return py::int_(v.v.u);
  return py::int_(v.v.i);
}

// A buffer's element type as a kiln_dtype (struct-module format codes).
kiln_dtype dtype_of_format(std::string f, ssize_t itemsize) {
  if (!f.empty() && (f[0] == '<' || f[0] == '=' || f[0] == '@')) f = f.substr(1);
  if (f.size() != 1) return KILN_DTYPE_NONE;
  switch (f[0]) {
    case 'b': return KILN_I8;
    case 'B': return KILN_U8;
    case 'h': return KILN_I16;
    case 'H': return KILN_U16;
    case 'i': return itemsize == 4 ? KILN_I32 : KILN_DTYPE_NONE;
    case 'I': return itemsize == 4 ? KILN_U32 : KILN_DTYPE_NONE;
    case 'l': case 'q': return itemsize == 8 ? KILN_I64 : itemsize == 4 ? KILN_I32 : KILN_DTYPE_NONE;
    case 'L': case 'Q': return itemsize == 8 ? KILN_U64 : itemsize == 4 ? KILN_U32 : KILN_DTYPE_NONE;
    case 'e': return KILN_F16;
    case 'f': return KILN_F32;
    case 'd': return KILN_F64;
    default: return KILN_DTYPE_NONE;
  }
}

// Storage that one call's arguments point into (kiln_value holds pointers).
struct ArgStore {
  std::vector<py::buffer_info> buffers;
  std::vector<kiln_array> arrays;
  std::vector<kiln_vector> vectors;
  std::vector<std::vector<uint8_t>> components;
  ArgStore(size_t n) {
    buffers.reserve(n);
    arrays.reserve(n);
    vectors.reserve(n);
    components.reserve(n);
  }
};

// A writable buffer (a numpy array) as a kiln_array over its memory.
kiln_array array_of(ArgStore& st, const py::handle& obj) {
  st.buffers.push_back(py::reinterpret_borrow<py::buffer>(obj).request(true));
  py::buffer_info& b = st.buffers.back();
  kiln_array a;
  a.data = b.ptr;
  a.dtype = dtype_of_format(b.format, b.itemsize);
  if (a.dtype == KILN_DTYPE_NONE) throw py::type_error("the array's element type '" + b.format + "' cannot be passed to kernels");
  a.ndim = (int)b.ndim;
  a.shape = b.shape.data();
  a.strides = b.strides.data();
  return a;
}

// Components of a vector/matrix argument packed as `t` (row-major).
kiln_vector vector_of(ArgStore& st, kiln_dtype t, int n, int m, const py::handle& vals) {
  py::list flat;
  for (auto row : vals) {
    if (py::isinstance<py::list>(row) || py::isinstance<py::tuple>(row)) {
      for (auto x : row) flat.append(x);
    } else {
      flat.append(row);
    }
  }
  size_t size = t == KILN_I8 || t == KILN_U8 ? 1 : t == KILN_I16 || t == KILN_U16 || t == KILN_F16 || t == KILN_BF16 ? 2
                : t == KILN_I32 || t == KILN_U32 || t == KILN_F32 ? 4 : 8;
  std::vector<uint8_t> bytes(flat.size() * size);
  for (size_t k = 0; k < flat.size(); k++) {
    kiln_value v = scalar(t, flat[k]);
    uint8_t* p = bytes.data() + k * size;
    switch (t) {
      case KILN_F32: { float f = (float)v.v.f; std::memcpy(p, &f, 4); break; }
      case KILN_F64: std::memcpy(p, &v.v.f, 8); break;
      case KILN_F16: case KILN_BF16: throw py::type_error("f16/bf16 vector arguments are not supported by the Python module");
      default: std::memcpy(p, &v.v.u, size); break;  // little-endian: the low bytes
    }
  }
  int count = (int)flat.size();
  if (count != n * (m ? m : 1)) n = m ? count / m : count;  // let the VM report the shape mismatch
  st.components.push_back(std::move(bytes));
  return kiln_vector{t, n, m, st.components.back().data()};
}

struct Output {
  static void write(void* user, const char* s, size_t n) {
    py::gil_scoped_acquire gil;
    auto* stream = static_cast<const char*>(user);
    py::module_::import("sys").attr(stream).attr("write")(py::str(s, n));
  }
};

struct VM {
  kiln_vm* vm = nullptr;
  std::vector<kiln_module*> modules;
  VM(py::object engine, int debug, int threads) {
    kiln_config cfg;
    kiln_config_init(&cfg);
    std::string e;
    if (!engine.is_none()) {
      e = engine.cast<std::string>();
      cfg.engine = e.c_str();
    }
    cfg.debug = debug;
    cfg.threads = threads;
    // print() goes through Python's sys.stdout, so kernel and host output
    // interleave in program order.
    cfg.output = [](void*, const char* s, size_t n) { Output::write((void*)"stdout", s, n); };
    cfg.error_output = [](void*, const char* s, size_t n) { Output::write((void*)"stderr", s, n); };
    check(kiln_vm_create(&cfg, &vm));
  }
  ~VM() {
    for (auto* m : modules) kiln_module_destroy(m);
    kiln_vm_destroy(vm);
  }
  void load(const std::string& name, const std::string& source) {
    kiln_module* m = nullptr;
    check(kiln_load_string(vm, name.c_str(), source.c_str(), &m));
    modules.push_back(m);
  }
};

struct Field {
  kiln_field* f = nullptr;
  ~Field() { kiln_field_destroy(f); }
  py::tuple info() {
    kiln_dtype dt;
    int nd = 0, n = 1, m = 1;
    int64_t shape[8];
    check(kiln_field_info(f, &dt, &nd, shape, &n, &m));
    py::tuple s(nd);
    for (int d = 0; d < nd; d++) s[d] = py::int_(shape[d]);
    return py::make_tuple((int)dt, s, n, m);
  }
  py::object get(const std::vector<int64_t>& index) {
    kiln_value v;
    check(kiln_field_get(f, index.data(), (int)index.size(), &v));
    return to_python(v);
  }
  void set(const std::vector<int64_t>& index, int dtype, const py::handle& x) {
    kiln_value v = scalar((kiln_dtype)dtype, x);
    check(kiln_field_set(f, index.data(), (int)index.size(), &v));
  }
  void copy(const py::buffer& buf, bool to_host) {
    py::buffer_info b = buf.request(to_host);
    kiln_dtype dt = dtype_of_format(b.format, b.itemsize);
    size_t bytes = (size_t)(b.size * b.itemsize);
    check(to_host ? kiln_field_copy_to_host(f, b.ptr, bytes, dt) : kiln_field_copy_from_host(f, b.ptr, bytes, dt));
  }
};

struct Kernel {
  kiln_kernel* k = nullptr;
  ~Kernel() { kiln_kernel_destroy(k); }
  // args: a list of (kind, value) where kind is a kiln_dtype for scalars,
  // KILN_ARRAY for a buffer, or (KILN_VECTOR, dtype, n, m) for a vector.
  py::list call(const py::list& specs, const py::list& args) {
    size_t n = args.size();
    ArgStore st(n);
    std::vector<kiln_value> vals(n);
    for (size_t i = 0; i < n; i++) {
      py::tuple spec = specs[i];
      int kind = spec[0].cast<int>();
      if (kind == KILN_ARRAY) {
        st.arrays.push_back(array_of(st, args[i]));
        vals[i] = kiln_arr(&st.arrays.back());
      } else if (kind == KILN_FIELD) {  // a ti.template() parameter: a field or a number
        if (py::isinstance<Field>(args[i])) vals[i] = kiln_fld(args[i].cast<Field&>().f);
        else if (py::isinstance<py::bool_>(args[i]) || py::isinstance<py::int_>(args[i])) vals[i] = scalar(KILN_I64, args[i]);
        else if (py::isinstance<py::float_>(args[i])) vals[i] = scalar(KILN_F64, args[i]);
        else throw py::type_error("a ti.template() argument must be a field or a number from Python");
      } else if (kind == KILN_VECTOR) {
        st.vectors.push_back(vector_of(st, (kiln_dtype)spec[1].cast<int>(), spec[2].cast<int>(), spec[3].cast<int>(), args[i]));
        vals[i] = kiln_vec(&st.vectors.back());
      } else {
        vals[i] = scalar((kiln_dtype)kind, args[i]);
      }
    }
    kiln_value rets[64];
    size_t nrets = 0;
    check(kiln_kernel_call(k, vals.data(), n, rets, 64, &nrets));
    py::list out;
    for (size_t i = 0; i < nrets; i++) out.append(to_python(rets[i]));
    return out;
  }
};

}  // namespace

PYBIND11_MODULE(_kiln, m) {
  m.doc() = "Kiln's C API for the kiln Python module";
  m.attr("version") = kiln_version();
  m.attr("ARRAY") = (int)KILN_ARRAY;
  m.attr("VECTOR") = (int)KILN_VECTOR;
  m.attr("TEMPLATE") = (int)KILN_FIELD;
  py::dict dtypes;
  for (int t = KILN_I8; t <= KILN_F64; t++) dtypes[kiln_dtype_name((kiln_dtype)t)] = t;
  m.attr("dtypes") = dtypes;

  py::class_<VM>(m, "VM")
      .def(py::init<py::object, int, int>(), py::arg("engine") = py::none(), py::arg("debug") = 0, py::arg("threads") = 0)
      .def("load", &VM::load)
      .def("kernel", [](VM& vm, const std::string& name) {
        auto k = std::make_unique<Kernel>();
        check(kiln_module_kernel(vm.modules.back(), name.c_str(), &k->k));
        return k;
      })
      .def("field", [](VM& vm, const std::string& name) {
        auto f = std::make_unique<Field>();
        check(kiln_module_field(vm.modules.back(), name.c_str(), &f->f));
        return f;
      });
  py::class_<Kernel>(m, "Kernel").def("call", &Kernel::call);
  py::class_<Field>(m, "Field")
      .def("info", &Field::info)
      .def("get", &Field::get)
      .def("set", &Field::set)
      .def("copy_to", [](Field& f, const py::buffer& b) { f.copy(b, true); })
      .def("copy_from", [](Field& f, const py::buffer& b) { f.copy(b, false); });
  m.def("capabilities", [] {
    kiln_capabilities c;
    check(kiln_query_capabilities(&c));
    py::dict engines;
    for (int e = 0; e < c.num_engines; e++) {
      py::list ts;
      for (int t = KILN_I8; t <= KILN_F64; t++)
        if (c.engine_dtypes[e] & (1u << t)) ts.append(kiln_dtype_name((kiln_dtype)t));
      engines[c.engines[e]] = ts;
    }
    py::dict d;
    d["engines"] = engines;
    d["vulkan_devices"] = c.vulkan_devices;
    d["vulkan_cpu_devices"] = c.vulkan_cpu_devices;
    d["vulkan_device_name"] = std::string(c.vulkan_device_name);
    d["cuda_devices"] = c.cuda_devices;
    return d;
  });
}
