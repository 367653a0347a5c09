// How a kernel sees Python objects: StaticValues (frontend.h), and the
// HostEnv the frontend resolves names through.
//
// Names resolve as Python resolves them in the kernel's own function: its
// closure cells (so `x: dt` works where `dt` is a parameter of the function
// that defines the kernel), then its module's globals, then builtins. Values
// become compile-time constants at the kernel's first compilation, as in
// Taichi. The taichi package describes its own objects with a method
// `_kiln_static()` returning a tuple (see to_static); its intrinsics carry
// `_kiln_builtin = "ti.sqrt"`, which is how the frontend recognises them.
#include <unordered_map>

#include "python/core/core.h"

namespace kiln::py_host {

using frontend::StaticValue;
using K = StaticValue::Kind;

std::shared_ptr<void> hold(py::handle o) {
  Py_XINCREF(o.ptr());
  return std::shared_ptr<void>(o.ptr(), [](void* p) {
    if (!p || !Py_IsInitialized()) return;  // at exit the interpreter may be gone: leak
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF((PyObject*)p);
    PyGILState_Release(g);
  });
}

py::handle held(const std::shared_ptr<void>& h) { return py::handle((PyObject*)h.get()); }

Prim prim_of_dtype(py::handle dt) {
  if (dt.ptr() == (PyObject*)&PyLong_Type) return program().config.types.default_ip;
  if (dt.ptr() == (PyObject*)&PyFloat_Type) return program().config.types.default_fp;
  if (py::hasattr(dt, "_kiln_prim")) {
    auto p = prim_from_name(py::str(dt.attr("_kiln_prim")).cast<std::string>());
    if (p) return *p;
  }
  // numpy dtypes (np.float32, np.dtype('int32')) name the same primitives
  if (py::hasattr(dt, "__module__") || py::hasattr(dt, "char")) {
    try {
      py::object np = py::module_::import("numpy");
      std::string n = py::str(np.attr("dtype")(dt).attr("name"));
      static const std::unordered_map<std::string, std::string> names = {
          {"int8", "i8"},   {"int16", "i16"},  {"int32", "i32"},  {"int64", "i64"},   {"uint8", "u8"},
          {"uint16", "u16"}, {"uint32", "u32"}, {"uint64", "u64"}, {"float16", "f16"}, {"float32", "f32"},
          {"float64", "f64"}};
      if (auto it = names.find(n); it != names.end()) return *prim_from_name(it->second);
    } catch (py::error_already_set&) {
    }
  }
  raise("TypeError", "expected a dtype such as ti.f32, not " + std::string(py::repr(dt)));
}

py::object dtype_object(Prim p) {
  py::object ti = py::module_::import("taichi");
  return ti.attr(std::string(prim_name(p)).c_str());
}

namespace {

// Python's builtins by identity: print, range, len, abs, max, min, ...
const std::unordered_map<PyObject*, std::string>& python_builtins() {
  static std::unordered_map<PyObject*, std::string> m = [] {
    std::unordered_map<PyObject*, std::string> r;
    py::dict b = py::module_::import("builtins").attr("__dict__");
    for (auto [k, v] : b) r[v.ptr()] = py::str(k);
    // math functions a kernel may call map onto the intrinsics of the same name
    py::module_ math = py::module_::import("math");
    for (const char* n : {"sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "tanh", "exp", "log", "atan2", "pow"})
      r[math.attr(n).ptr()] = std::string("ti.") + n;
    return r;
  }();
  return m;
}

StaticValue describe(py::handle o, const py::tuple& d) {
  StaticValue s;
  std::string tag = py::str(d[0]);
  s.handle = hold(o);
  auto fields_of = [](py::handle list) {
    std::vector<FieldInfo*> r;
    for (auto f : list) r.push_back(to_static(f).field);
    return r;
  };
  if (tag == "dtype") {
    s.kind = K::dtype;
    s.prim = prim_of_dtype(d[1]);
    if (d.size() > 2) {
      s.rows = d[2].cast<int>();
      s.cols = d[3].cast<int>();
    } else {
      s.handle.reset();
    }
  } else if (tag == "builtin") {
    s.kind = K::builtin;
    s.s = py::str(d[1]);
  } else if (tag == "field") {
    s = to_static(d[1]);  // the FieldCore
    s.handle = hold(o);
  } else if (tag == "matrix_field") {
    s.kind = K::matrix_field;
    s.rows = d[1].cast<int>();
    s.cols = d[2].cast<int>();
    s.fields = fields_of(d[3]);
    s.field = s.fields.at(0);
    s.prim = s.field->dtype;
    s.s = s.field->name;
  } else if (tag == "matrix") {
    s.kind = K::matrix;
    s.rows = d[1].cast<int>();
    s.cols = d[2].cast<int>();
    for (auto e : d[3]) s.elems.push_back(to_static(e));
  } else if (tag == "struct_type") {
    s.kind = K::struct_type;
    s.s = py::str(d[1]);
    for (auto n : d[2]) s.names.push_back(py::str(n));
    for (auto t : d[3]) s.elems.push_back(to_static(t));
  } else if (tag == "struct_value" || tag == "struct_field") {
    s.kind = tag == "struct_value" ? K::struct_value : K::struct_field;
    for (auto n : d[1]) s.names.push_back(py::str(n));
    for (auto m : d[2]) s.elems.push_back(to_static(m));
    if (!d[3].is_none()) s.ctype = std::make_shared<StaticValue>(to_static(d[3]));
    if (d.size() > 4) s.s = py::str(d[4]);
  } else if (tag == "snode") {
    s = to_static(d[1]);
    s.handle = hold(o);
  } else if (tag == "ref") {
    s = StaticValue::of_builtin("ti.ref");
    s.elems.push_back(to_static(d[1]));
  } else if (tag == "func" || tag == "real_func" || tag == "kernel") {
    s.kind = tag == "kernel" ? K::kernel : K::func;
    s.b = tag == "real_func";
    s.def = (const ast::FunctionDef*)d[1].cast<uintptr_t>();
    s.handle = hold(d[2]);  // the raw function: its closure and globals
    s.s = py::str(d[3]);
  } else if (tag == "object") {
    s.kind = K::object;
    s.s = py::str(d[1]);
  } else {
    raise("TypeError", "taichi object described as unknown kind '" + tag + "'");
  }
  return s;
}

}  // namespace


StaticValue to_static(py::handle o) {
  StaticValue s;
  PyObject* p = o.ptr();
  if (p == Py_None) return s;
  if (PyBool_Check(p)) return StaticValue::of_bool(p == Py_True);
  if (PyLong_CheckExact(p)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (overflow) {  // beyond an int64: Kiln's compile-time ints have 128 bits
      unsigned long long lo = PyLong_AsUnsignedLongLongMask(p);
      py::object high = py::reinterpret_borrow<py::object>(o).attr("__rshift__")(64);
      long long hi = PyLong_AsLongLongAndOverflow(high.ptr(), &overflow);
      if (overflow) raise("OverflowError", "the integer " + std::string(py::repr(o)) + " does not fit in 128 bits");
      return StaticValue::of_big((__int128)(((unsigned __int128)(unsigned long long)hi << 64) | lo));
    }
    return StaticValue::of_int(v);
  }
  if (PyFloat_CheckExact(p)) return StaticValue::of_float(PyFloat_AS_DOUBLE(p));
  if (PyUnicode_Check(p)) {
    s.kind = K::string;
    s.s = py::str(o);
    return s;
  }
  if (PyTuple_Check(p) || PyList_Check(p)) {
    s.kind = K::tuple;
    for (auto e : o) s.elems.push_back(to_static(e));
    s.handle = hold(o);
    return s;
  }
  if (PyType_Check(p)) {
    if (p == (PyObject*)&PyLong_Type) return StaticValue::of_dtype(program().config.types.default_ip);
    if (p == (PyObject*)&PyFloat_Type) return StaticValue::of_dtype(program().config.types.default_fp);
    // a taichi class the frontend knows by name (ti.Vector, ti.Matrix)
    PyObject* own = PyDict_GetItemString(((PyTypeObject*)p)->tp_dict, "_kiln_builtin");
    if (own && PyUnicode_Check(own)) return StaticValue::of_builtin(py::str(own));
    auto& b = python_builtins();
    if (auto it = b.find(p); it != b.end()) return StaticValue::of_builtin(it->second);
  } else if (PyFunction_Check(p) || PyMethod_Check(p) || PyCFunction_Check(p)) {
    if (PyCFunction_Check(p)) {
      auto& b = python_builtins();
      if (auto it = b.find(p); it != b.end()) return StaticValue::of_builtin(it->second);
    } else if (PyObject_HasAttrString(p, "_kiln_builtin")) {
      return StaticValue::of_builtin(py::str(o.attr("_kiln_builtin")));
    }
  } else if (PyModule_Check(p)) {
    s.kind = K::module;
    std::string n = py::str(o.attr("__name__"));
    s.s = n == "taichi" ? "ti" : n;
    s.handle = hold(o);
    return s;
  } else {
    if (FieldInfo* f = field_info(o)) {
      s.kind = K::field;
      s.field = f;
      s.handle = hold(o);
      return s;
    }
    if (SNode* sn = snode_of(o)) {
      s.kind = K::snode;
      s.snode = sn;
      s.handle = hold(o);
      return s;
    }
    // compile-time iterables (ti.static(ti.grouped(ti.ndrange(...))), generators,
    // iterators such as enumerate(...) and zip(...)) become tuples
    bool once = PyGen_Check(p) || PyIter_Check(p);  // consumed by iterating: not handed back
    if (once || py::hasattr(o, "_kiln_iterable")) {
      s.kind = K::tuple;
      for (auto e : py::iter(o)) s.elems.push_back(to_static(e));
      if (!once) s.handle = hold(o);  // handed back to host calls as itself
      return s;
    }
    if (py::hasattr(o, "_kiln_static")) {
      py::object d = o.attr("_kiln_static")();
      if (py::isinstance<py::tuple>(d)) return describe(o, d.cast<py::tuple>());
    }
    // typing.Tuple[A, B] (and tuple[A, B]) as a return annotation: the tuple (A, B)
    if (py::hasattr(o, "__origin__") && o.attr("__origin__").ptr() == (PyObject*)&PyTuple_Type &&
        py::hasattr(o, "__args__")) {
      s.kind = K::tuple;
      for (auto e : o.attr("__args__")) s.elems.push_back(to_static(e));
      return s;
    }
    // numpy scalars and 0-d arrays: their Python value
    if (std::string_view(Py_TYPE(p)->tp_name).rfind("numpy.", 0) == 0 && py::hasattr(o, "item") &&
        (!py::hasattr(o, "ndim") || o.attr("ndim").cast<int>() == 0)) {
      py::object item = o.attr("item")();
      if (PyLong_Check(item.ptr()) || PyFloat_Check(item.ptr()) || PyBool_Check(item.ptr())) return to_static(item);
    }
  }
  s.kind = K::object;
  s.s = Py_TYPE(p)->tp_name;
  s.handle = hold(o);
  return s;
}

py::object from_static(const StaticValue& s) {
  if (s.handle) return py::reinterpret_borrow<py::object>(held(s.handle));
  switch (s.kind) {
    case K::none: return py::none();
    case K::boolean: return py::bool_(s.b);
    case K::integer:
      if (s.wide) return py::int_(s.hi).attr("__lshift__")(64).attr("__or__")(py::int_((uint64_t)s.i));
      return py::int_(s.i);
    case K::floating: return py::float_(s.f);
    case K::string: return py::str(s.s);
    case K::tuple: {
      py::tuple t(s.elems.size());
      for (size_t i = 0; i < s.elems.size(); i++) t[i] = from_static(s.elems[i]);
      return t;
    }
    case K::dtype: return dtype_object(s.prim);
    case K::builtin: {
      if (s.s.rfind("ti.", 0) == 0) {
        py::object v = py::module_::import("taichi");
        for (size_t b = 3, e; b <= s.s.size(); b = e + 1) {  // dotted names walk attributes
          e = s.s.find('.', b);
          if (e == std::string::npos) e = s.s.size();
          v = v.attr(s.s.substr(b, e - b).c_str());
        }
        return v;
      }
      return py::module_::import("builtins").attr(s.s.c_str());
    }
    default: break;
  }
  raise("TypeError", "this compile-time value cannot be passed to host code");
}

namespace {

// A Python exception raised while the frontend evaluated something, as a kiln::Error at `loc`.
[[noreturn]] void rethrow(py::error_already_set& e, SourceLoc loc) {
  std::string kind = py::str(e.type().attr("__name__"));
  std::string msg = py::str(e.value());
  raise(kind, msg, loc);
}

// A field a kernel names through a global (or closure) variable takes that
// variable's name when it has none, so messages say "field 'x'" as `kiln run` does.
StaticValue named(StaticValue s, const std::string& name) {
  if (s.kind == K::field && s.field && s.field->name.empty()) s.field->name = name;
  if (s.kind == K::matrix_field)
    for (FieldInfo* f : s.fields)
      if (f->name.empty()) f->name = name;
  return s;
}

struct PyHostEnv : frontend::HostEnv {
  std::optional<StaticValue> lookup(const std::shared_ptr<void>& env, const std::string& name) override {
    std::optional<StaticValue> r = find(env, name);
    if (r) *r = named(std::move(*r), name);
    return r;
  }

  // co_freevars of each code object seen: CPython 3.11 builds the tuple anew
  // at each access (3000 instructions). The code objects are kept alive with
  // their entries, so an address is never reused under a stale entry.
  std::unordered_map<PyObject*, std::pair<py::object, py::object>> freevars_of;
  const py::object& freevars(PyObject* code) {
    auto it = freevars_of.find(code);
    if (it == freevars_of.end()) {
      py::object names = py::reinterpret_borrow<py::object>(code).attr("co_freevars");
      it = freevars_of.emplace(code, std::pair{py::reinterpret_borrow<py::object>(code), std::move(names)}).first;
    }
    return it->second.second;
  }

  // Called for every name a kernel reads that is not its own (10^4 times in
  // a kernel unrolled by ti.static): no Python exception on the way and one
  // str object per lookup, compared and hashed by CPython.
  std::optional<StaticValue> find(const std::shared_ptr<void>& env, const std::string& name) {
    PyObject* fn = env ? (PyObject*)env.get() : nullptr;
    if (fn && PyMethod_Check(fn)) fn = PyMethod_GET_FUNCTION(fn);
    PyObject* builtins = nullptr;
    py::str key(name);
    if (fn && PyFunction_Check(fn)) {
      // closure cells first, as Python resolves a free variable
      PyCodeObject* code = (PyCodeObject*)PyFunction_GET_CODE(fn);
      PyObject* closure = PyFunction_GET_CLOSURE(fn);
      if (closure) {
        const py::object& free = freevars((PyObject*)code);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(free.ptr()) && i < PyTuple_GET_SIZE(closure); i++) {
          if (PyUnicode_Compare(PyTuple_GET_ITEM(free.ptr(), i), key.ptr()) != 0) continue;
          PyObject* v = PyCell_GET(PyTuple_GET_ITEM(closure, i));
          if (v) return to_static(v);
          break;
        }
      }
      // the defining function's locals, captured at decoration (taichi/_kernel.py)
      if (PyObject* attrs = PyObject_GenericGetDict(fn, nullptr)) {
        PyObject* locs = PyDict_GetItemString(attrs, "__kiln_locals__");
        PyObject* v = locs && PyDict_Check(locs) ? PyDict_GetItem(locs, key.ptr()) : nullptr;
        Py_XINCREF(v);
        Py_DECREF(attrs);
        if (v) {
          StaticValue r = to_static(v);
          Py_DECREF(v);
          return r;
        }
      } else {
        PyErr_Clear();
      }
      PyObject* globals = PyFunction_GET_GLOBALS(fn);
      if (PyObject* v = PyDict_GetItem(globals, key.ptr())) return to_static(v);
      builtins = PyDict_GetItemString(globals, "__builtins__");
    }
    if (!builtins || !PyDict_Check(builtins)) builtins = PyEval_GetBuiltins();
    if (builtins && PyModule_Check(builtins)) builtins = PyModule_GetDict(builtins);
    if (PyObject* v = PyDict_GetItem(builtins, key.ptr())) return to_static(v);
    return std::nullopt;
  }

  StaticValue attr(const StaticValue& obj, const std::string& name, SourceLoc loc) override {
    py::object o = from_static(obj);
    try {
      return to_static(o.attr(name.c_str()));
    } catch (py::error_already_set& e) {
      // Python's own message: an AttributeError raised deeper (a lazily
      // imported submodule failing inside a module __getattr__) then shows
      // its real cause instead of a missing `name`.
      if (e.matches(PyExc_AttributeError)) raise("AttributeError", std::string(py::str(e.value())), loc);
      rethrow(e, loc);
    }
  }

  StaticValue call(const StaticValue& fn, const std::vector<StaticValue>& args, SourceLoc loc,
                   const Kwargs& kwargs) override {
    py::object f = from_static(fn);
    py::tuple a(args.size());
    for (size_t i = 0; i < args.size(); i++) a[i] = from_static(args[i]);
    py::dict kw;
    for (auto& [k, v] : kwargs) kw[py::str(k)] = from_static(v);
    try {
      return to_static(f(*a, **kw));
    } catch (py::error_already_set& e) {
      rethrow(e, loc);
    } catch (Error& e) {
      if (!e.loc.known()) e.loc = loc;
      throw;
    }
  }
};

}  // namespace

std::unique_ptr<frontend::HostEnv> make_env() { return std::make_unique<PyHostEnv>(); }

}  // namespace kiln::py_host
