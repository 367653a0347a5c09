// PYBIND11_MODULE(_core): the Program's lifetime (ti.init / ti.reset),
// field creation, errors as Python exceptions, and the registration of the
// other pieces (field.cpp, snode.cpp, kernel.cpp).
#include <pybind11/stl.h>

#include <cstdlib>
#include <optional>

#include "python/core/core.h"
#include "vm/runtime/device_pools.h"
#include "vm/runtime/sizes.h"
#include "vm/runtime/statistics.h"
#include "vm/ti/kernels.h"

namespace kiln::py_host {

State& state() {
  static State* s = new State();  // never destroyed: it outlives the interpreter's teardown
  return *s;
}

namespace {

// Kernel print and warnings go through Python's sys.stdout / sys.stderr, so
// they interleave with the program's own output (and follow redirections).
void write_stream(const char* name, std::string_view text) {
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject* stream = PySys_GetObject(name);  // borrowed
  if (stream && stream != Py_None) {
    PyObject* str = PyUnicode_DecodeUTF8(text.data(), (Py_ssize_t)text.size(), "replace");
    PyObject* name_w = PyUnicode_FromString("write");
    PyObject* r = str && name_w ? PyObject_CallMethodOneArg(stream, name_w, str) : nullptr;
    if (!r) PyErr_Clear();
    Py_XDECREF(r);
    Py_XDECREF(name_w);
    Py_XDECREF(str);
  }
  PyGILState_Release(g);
}

// Drops the current Program, or keeps its memory when views of it were exported.
void retire_program() {
  State& s = state();
  if (s.program && s.exported) s.retired.push_back(std::move(s.program));
  s.program.reset();
  s.exported = false;
}

void reset_program(Config cfg) {
  State& s = state();
  std::unique_ptr<Program> prog = ti::make_program(std::move(cfg), s.options);
  prog->out = [](std::string_view t) { write_stream("stdout", t); };
  retire_program();
  s.program = std::move(prog);
  s.generation++;
}

}  // namespace

Program& program() {
  State& s = state();
  if (!s.program) reset_program(Config{});
  return *s.program;
}

void warn(std::string_view text) { write_stream("stderr", text); }

// Taichi's exception classes, made by the Python package (taichi/_errors.py)
// and looked up here by name.
static py::object exception_class(const std::string& kind, bool compiling) {
  py::module_ errs = py::module_::import("taichi._errors");
  if (compiling) {
    if (kind == "SyntaxError" || kind == "IndentationError") return errs.attr("TaichiSyntaxError");
    if (kind == "TypeError") return errs.attr("TaichiTypeError");
    if (kind == "NameError") return errs.attr("TaichiNameError");
    if (kind == "IndexError") return errs.attr("TaichiIndexError");
    if (kind == "AttributeError") return errs.attr("TaichiAttributeError");
    if (kind == "AssertionError") return errs.attr("TaichiCompilationError");
    if (kind == "KeyError") return errs.attr("TaichiKeyError");
    if (kind == "ValueError") return errs.attr("TaichiValueError");
    if (kind == "RecursionError" || kind == "NotImplementedError" || kind == "ZeroDivisionError" ||
        kind == "OverflowError")  // (RuntimeError: a stale field or SNode, see below)
      return errs.attr("TaichiCompilationError");
  }
  if (kind == "AssertionError") return errs.attr("TaichiAssertionError");
  if (kind == "IndexError") return errs.attr("TaichiIndexError");
  if (kind == "RuntimeError") return errs.attr("TaichiRuntimeError");
  if (kind == "TypeError") return errs.attr("TaichiRuntimeTypeError");
  if (kind == "KeyboardInterrupt") return py::reinterpret_borrow<py::object>(PyExc_KeyboardInterrupt);
  // Python's own class of that name (ValueError, MemoryError, ZeroDivisionError, ...)
  py::object b = py::module_::import("builtins");
  if (py::hasattr(b, kind.c_str())) {
    py::object c = b.attr(kind.c_str());
    if (PyType_Check(c.ptr()) && PyType_IsSubtype((PyTypeObject*)c.ptr(), (PyTypeObject*)PyExc_BaseException)) return c;
  }
  return errs.attr("TaichiRuntimeError");
}

// The exception also carries Kiln's own report of the error, so that `kiln
// run` prints it as the built-in host does (taichi/_report.py): kiln_kind
// (the error's kind, "SyntaxError" for a TaichiSyntaxError), kiln_text (kind,
// message, location with caret, notes) and kiln_located (whether kiln_text
// has a location; if not, the report points at the user's line instead).
static void set_python_error(const Error& e, bool compiling) {
  std::string text = e.message;
  if (e.loc.known()) text += "\n" + format_location(e.loc);
  for (auto& n : e.notes) text += n + "\n";
  while (!text.empty() && text.back() == '\n') text.pop_back();
  py::object cls = exception_class(e.kind, compiling);
  if (cls.ptr() == PyExc_KeyboardInterrupt) {  // Python's own exit path for Ctrl-C
    PyErr_SetString(cls.ptr(), text.c_str());
    return;
  }
  try {
    py::object exc = cls(text);
    exc.attr("kiln_kind") = e.kind;
    exc.attr("kiln_text") = format_error(e);
    exc.attr("kiln_located") = e.loc.known();
    PyErr_SetObject(cls.ptr(), exc.ptr());
  } catch (py::error_already_set& inner) {
    inner.restore();  // the class refused the message or attributes: raise what it raised
  }
}

void throw_python(const Error& e, bool compiling) {
  set_python_error(e, compiling);
  throw py::error_already_set();
}

py::object wrap_field(py::handle cls, FieldInfo* info);  // field.cpp

namespace {

Config config_from(py::dict o) {
  Config c;
  auto get = [&](const char* k) -> py::object { return o.contains(k) ? py::object(o[k]) : py::object(py::none()); };
  if (!get("debug").is_none()) c.debug = get("debug").cast<bool>();
  if (!get("print_ir").is_none()) c.print_ir = get("print_ir").cast<bool>();
  if (!get("fast_math").is_none()) c.fast_math = py::bool_(get("fast_math")).cast<bool>();
  if (!get("default_ip").is_none()) c.types.default_ip = *prim_from_name(get("default_ip").cast<std::string>());
  if (!get("default_fp").is_none()) c.types.default_fp = *prim_from_name(get("default_fp").cast<std::string>());
  if (!get("cpu_max_num_threads").is_none()) c.num_threads = get("cpu_max_num_threads").cast<int>();
  if (!get("random_seed").is_none()) c.random_seed = get("random_seed").cast<uint64_t>();
  if (!get("ad_stack_size").is_none()) {
    int64_t n = get("ad_stack_size").cast<int64_t>();
    if (n < 0 || n > (1 << 24)) raise("ValueError", "ad_stack_size must be between 0 (Taichi's default, 32) and 2^24, got " + std::to_string(n));
    c.ad_stack_size = (int)n;
  }
  if (!get("device_memory_GB").is_none()) {
    c.device_memory_gb = get("device_memory_GB").cast<double>();
    device_pool_budget(c.device_memory_gb);  // a ValueError at ti.init for a budget it cannot have
  }
  if (!get("engine").is_none()) c.engine = get("engine").cast<std::string>();
  if (!get("offline_cache").is_none()) c.offline_cache = py::bool_(get("offline_cache")).cast<bool>();
  if (!get("offline_cache_file_path").is_none()) {
    py::object v = get("offline_cache_file_path");
    if (!py::isinstance<py::str>(v))
      raise("TypeError", "offline_cache_file_path must be a str (a directory), not " + std::string(py::repr(v)));
    c.offline_cache_dir = v.cast<std::string>();
  }
  if (!get("arch").is_none()) {
    // ti.init(arch=ti.cuda) or a list of arches to try in order; as in Taichi, none of them
    // available falls back to the CPU with a warning unless enable_fallback=False
    std::string warning;
    c.arch = ti::select_arch(get("arch").cast<std::vector<std::string>>(), get("enable_fallback").is_none() || get("enable_fallback").cast<bool>(), &warning);
    if (!warning.empty()) write_stream("stderr", format_warning(warning, {}));
  }
  if (!get("dtype_cast_mode").is_none()) {
    py::object given = get("dtype_cast_mode");
    auto m = py::isinstance<py::str>(given) ? cast_mode_from_name(given.cast<std::string>()) : std::nullopt;
    if (!m)
      raise("ValueError", "dtype_cast_mode must be \"upcast\", \"downcast\", \"crosscast\", \"cast\" or None, not " +
                              std::string(py::repr(given)));
    c.dtype_cast_mode = *m;
  }
  return c;
}

// An int as int64, clamped beyond that range (too large for any size anyway).
int64_t clamped(py::handle v) {
  int overflow = 0;
  long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
  return overflow > 0 ? INT64_MAX : overflow < 0 ? INT64_MIN : x;
}

std::vector<int64_t> shape_of(py::handle shape) {
  std::vector<int64_t> dims;
  for (auto d : shape) dims.push_back(d.cast<int64_t>());
  return dims;
}

// A ti.types.quant type from the Python layer's description (kind "int",
// "fixed" or "float"); check_quant_type validates it.
QuantType quant_type(const std::string& kind, int bits, bool is_signed, const std::string& compute, double scale,
                     int exp_bits) {
  QuantType t;
  t.kind = kind == "int" ? QuantKind::int_ : kind == "fixed" ? QuantKind::fixed : QuantKind::float_;
  auto p = prim_from_name(compute);
  if (!p) raise("TypeError", "unknown compute type '" + compute + "'");
  t.bits = bits;
  t.is_signed = is_signed;
  t.compute = *p;
  t.scale = scale;
  t.exp_bits = exp_bits;
  return t;
}

}  // namespace

}  // namespace kiln::py_host

using namespace kiln;
using namespace kiln::py_host;

PYBIND11_MODULE(_core, m) {
  m.doc() = "Kiln's ti layer for CPython (see python/core/core.h)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      set_python_error(e, false);
    }
  });
  m.def("init", [](py::dict opts) { reset_program(config_from(opts)); }, "ti.init: a new Program with these options");
  m.def("reset", [] {
    retire_program();
    state().generation++;
  });
  m.def("generation", [] { return state().generation; });
  m.def("initialized", [] { return state().program != nullptr; });
  m.def("set_options", [](bool debug, bool print_ir, const std::string& engine, int threads) {
    ti::ProgramOptions& o = state().options;
    o.force_debug = debug;
    o.force_print_ir = print_ir;
    o.engine = engine;
    o.threads = threads;
  });
  m.def("vulkan_available", [] { return ti::vulkan_available(); });
  m.def("cuda_available", [] { return ti::cuda_available(); });
  m.def("config", [] {
    Program& p = program();
    py::dict d;
    d["debug"] = p.config.debug;
    d["default_ip"] = std::string(prim_name(p.config.types.default_ip));
    d["default_fp"] = std::string(prim_name(p.config.types.default_fp));
    d["engine"] = p.engine->name();
    d["arch"] = p.config.arch;
    d["num_threads"] = p.pool ? p.pool->size() : p.config.num_threads;  // threads kernels run on (default_num_threads() unless set)
    d["random_seed"] = p.config.random_seed;
    return d;
  });
  m.def("create_field", [](py::handle cls, const std::string& dtype, const std::string& name) {
    auto p = prim_from_name(dtype);
    if (!p) raise("TypeError", "unknown dtype '" + dtype + "'");
    return wrap_field(cls, program().create_field(*p, name, {}));
  });
  m.def("create_quant_field", [](py::handle cls, const std::string& kind, int bits, bool is_signed,
                                 const std::string& compute, double scale, int exp_bits, const std::string& name) {
    return wrap_field(cls, program().create_quant_field(quant_type(kind, bits, is_signed, compute, scale, exp_bits), name, {}));
  });
  m.def("check_quant_type", [](const std::string& kind, int bits, bool is_signed, const std::string& compute,
                               double scale, int exp_bits) {
    check_quant_type(quant_type(kind, bits, is_signed, compute, scale, exp_bits));
  });
  m.def("create_dense_field", [](py::handle cls, const std::string& dtype, py::handle shape, const std::string& name,
                                 py::handle offset) {
    auto p = prim_from_name(dtype);
    if (!p) raise("TypeError", "unknown dtype '" + dtype + "'");
    std::vector<int64_t> off = offset.is_none() ? std::vector<int64_t>{} : shape_of(offset);
    return wrap_field(cls, program().create_dense_field(*p, shape_of(shape), name, {}, off));
  }, py::arg("cls"), py::arg("dtype"), py::arg("shape"), py::arg("name"), py::arg("offset") = py::none());
  // Sizes are validated once, in the runtime (vm/runtime/sizes.h): the
  // package asks here rather than keeping checks and messages of its own.
  m.def("check_components", [](py::handle n, py::handle mm, bool matrix) {
    if (matrix) check_matrix_components(clamped(n), clamped(mm), {});
    else check_vector_components(clamped(n), {});
  }, "(n, m, is_matrix): ValueError unless a vector/matrix has 1..4096 components");
  m.def("check_ndarray", [](py::handle shape, int64_t comps, int64_t elem_bytes) {
    std::vector<int64_t> dims;
    for (auto d : shape) dims.push_back(clamped(d));
    check_ndarray(dims, comps, elem_bytes, {});
  }, "(shape, components, element bytes): ValueError/MemoryError for an ndarray the machine cannot hold");
  m.def("check_offset", [](py::handle shape, py::handle offset) {  // Taichi's offset rules, for any host
    std::vector<int64_t> sh = shape.is_none() ? std::vector<int64_t>{} : shape_of(shape);
    check_offset(shape.is_none() ? nullptr : &sh, shape_of(offset), {});
  });
  m.def("create_layout_field", [](py::handle cls, const std::string& dtype, std::vector<std::pair<int, int64_t>> levels,
                                  const std::string& name, py::handle offset) {
    auto p = prim_from_name(dtype);
    if (!p) raise("TypeError", "unknown dtype '" + dtype + "'");
    FieldInfo* f = program().create_layout_field(*p, levels, name, {});
    if (!offset.is_none()) program().set_offset(f, shape_of(offset), {});  // as the built-in host does
    return wrap_field(cls, f);
  }, py::arg("cls"), py::arg("dtype"), py::arg("levels"), py::arg("name"), py::arg("offset") = py::none());
  m.def("materialize", [] { program().materialize(); });
  m.def("statistics_text", [] { return counters_text(program(), false); });  // ti.print_statistics: the program's counters
  m.def("statistics", [] {
    Program& p = program();
    p.collect_stats();
    return p.stats;
  });
  m.def("set_factories", [](py::object make_matrix, py::object make_struct) {
    state().make_matrix = make_matrix;
    state().make_struct = make_struct;
  });
  m.def("kernel_dumps", [] {
    py::list r;
    for (auto& d : state().dumps) r.append(py::make_tuple(d.name, d.ir, d.bytecode));
    return r;
  });
  m.def("clear_kernel_dumps", [] { state().dumps.clear(); });  // the REPL's :reset
  m.def("shutdown", [] {  // at exit, while the interpreter still runs: drop held objects
    State& s = state();
    {
      py::gil_scoped_release unlocked;  // a compile thread never needs the GIL, but other threads may
      ti::wait_for_background_compiles();
    }
    if (s.stats_at_exit && s.program) warn(s.program->statistics_text());
    s.program.reset();
    s.make_matrix = py::object();
    s.make_struct = py::object();
    s.generation++;
  });
  bind_buffer(m);
  bind_fields(m);
  bind_snodes(m);
  bind_layouts(m);
  bind_kernels(m);
  bind_kernel_method(m);
  bind_linalg(m);
}
