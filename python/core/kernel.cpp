// Kernels from Python: parse the def's source with Kiln's parser, bind a
// call's arguments by Python's rules, classify parameters by their
// annotations (scalars, vectors/matrices/structs by value, ndarrays by
// reference, ti.template() by identity), look the compiled instance up,
// compile on a miss (vm/ti), launch, and turn the return slots back into
// Python values.
//
// A kernel whose parameters are scalars and templates keeps pointers to its
// last few instances, each with the template arguments it was called with:
// a call with those very objects converts its scalars straight into slots
// and launches, which is what makes a small kernel call cost well under a
// microsecond (a @ti.data_oriented method's `self` is a template: 3.4 us
// a launch through the whole binding and cache key).
#include <pybind11/eval.h>
#include <pybind11/stl.h>

#include <cstdio>
#include <map>

#include "python/core/core.h"
#include "python/core/kernel_args.h"
#include "vm/lang/ast.h"
#include "vm/lang/lexer.h"

namespace kiln::py_host {

void warn(std::string_view text);  // module.cpp

namespace {

using frontend::ArgSpec;
using frontend::StaticValue;

// A parsed def: the module of its source text owns the nodes.
struct FuncAST {
  std::unique_ptr<ast::Module> mod;
  const ast::FunctionDef* def = nullptr;
};

const ast::FunctionDef* find_def(const ast::Body& body, const std::string& name) {
  for (auto* s : body) {
    if (s->kind == ast::StmtKind::FunctionDef) {
      auto* d = static_cast<const ast::FunctionDef*>(s);
      if (d->name == name) return d;
    } else if (s->kind == ast::StmtKind::If) {
      if (auto* d = find_def(static_cast<const ast::If*>(s)->body, name)) return d;
    } else if (s->kind == ast::StmtKind::ClassDef) {
      if (auto* d = find_def(static_cast<const ast::ClassDef*>(s)->body, name)) return d;
    }
  }
  return nullptr;
}

// `text` is the def's source placed at its own lines and columns of `path`
// (the package pads it: see taichi/_kernel.py), so every location is the user's.
std::shared_ptr<FuncAST> parse_function(const std::string& text, const std::string& path, const std::string& name) {
  auto r = std::make_shared<FuncAST>();
  const SourceFile* file = state().sources.add(path, text);
  try {
    r->mod = ast::parse(file);
  } catch (Error& e) {
    throw_python(e, true);
  }
  r->def = find_def(r->mod->body, name);
  if (!r->def) raise("SyntaxError", "could not find the definition of '" + name + "' in its source");
  return r;
}

// The number of lines of the definition `text` starts with (lang::def_block_lines),
// or 0 where the lexer finds an error in it: the package then asks inspect,
// whose errors are CPython's.
uint32_t def_block_lines(const std::string& text) {
  SourceFile file("<source>", text);
  try {
    return lang::def_block_lines(&file);
  } catch (Error&) {
    return 0;
  }
}

py::object number(Prim p, uint64_t bits) {
  ConstVal c = const_from_bits(p, bits);
  if (prim_is_float(p)) return py::float_(c.as_double());
  if (prim_is_signed(p)) return py::int_(c.i);
  return py::int_(c.u);
}

// The Python value of a returned compound, rebuilt from its flattened slots.
py::object rebuild(const StaticValue& t, const std::vector<Type>& rets, const std::vector<uint64_t>& bits, size_t& pos) {
  State& st = state();
  if (t.kind == StaticValue::Kind::struct_type) {
    py::list vals;
    for (auto& m : t.elems) vals.append(rebuild(m, rets, bits, pos));
    return st.make_struct(t.handle ? py::reinterpret_borrow<py::object>(held(t.handle)) : py::none(), t.names, vals);
  }
  if (t.kind == StaticValue::Kind::dtype && t.rows > 0) {
    int n = t.rows, m = t.cols ? t.cols : 1;
    py::list vals;
    for (int k = 0; k < n * m; k++, pos++) vals.append(number(rets[pos].prim, bits[pos]));
    return st.make_matrix(n, t.cols ? m : 0, std::string(prim_name(rets[pos - 1].prim)), vals);
  }
  py::object r = number(rets[pos].prim, bits[pos]);
  pos++;
  return r;
}

struct KernelCore {
  py::object fn;  // the Python function
  std::shared_ptr<FuncAST> ast;
  std::string qualname;
  std::vector<py::object> annotations;  // per parameter, evaluated once (None when absent)
  std::vector<AnnInfo> infos;           // per parameter: what its annotation asks for (ann_info)
  std::vector<py::object> param_names;  // per parameter, interned (the constructor; by_position)
  bool have_annotations = false;
  std::map<std::string, std::unique_ptr<ti::CompiledEntry>> cache;
  int generation = -1;
  // An instance a call may run without binding its arguments or building
  // its cache key (try_fast): per parameter, the template argument it was
  // last called with (null for a scalar). The same object gives the same key
  // (identity(): by address, or by value for immutable values). The most
  // recent first, at most kFast: a program that runs one kernel over each of
  // its fields in turn (`for f in fields: clear(f)`) keeps them all fast; a
  // miss scans them all (a pointer compare per template parameter each).
  // `same` borrows the objects the instance holds weakly (an address in its
  // key: forget_instance drops this entry before such an object is freed)
  // and `held` keeps the others (values, tuples) alive.
  struct Fast {
    ti::CompiledEntry* ce;
    std::vector<PyObject*> same;
    std::vector<py::object> held;
  };
  static constexpr size_t kFast = 16;
  std::vector<Fast> fast;

  KernelCore(py::object f, std::shared_ptr<FuncAST> a, std::string q) : fn(std::move(f)), ast(std::move(a)), qualname(std::move(q)) {
    for (auto* p : ast->def->args.args)
      param_names.push_back(py::reinterpret_steal<py::object>(PyUnicode_InternFromString(p->name.c_str())));
  }
  ~KernelCore() { drop_all(); }

  // A template argument is in the cache key by its address (identity()), so
  // an instance must not outlive it: another object could take the address.
  // Taichi holds such arguments weakly (a @ti.data_oriented object whose
  // kernel ran is collected like any other), and so does Kiln: an object
  // that takes weak references is held by one whose callback drops the
  // instances keyed on it; values and tuples (no weak references) are held.
  static bool held_weakly(PyObject* o) { return PyType_SUPPORTS_WEAKREFS(Py_TYPE(o)); }
  void hold_template(ti::CompiledEntry& ce, const py::object& v) {
    if (!held_weakly(v.ptr())) {
      ce.keep_alive.push_back(hold(v));
      return;
    }
    ti::CompiledEntry* key = &ce;
    py::cpp_function dead([this, key](py::handle) { forget_instance(key); });
    PyObject* ref = PyWeakref_NewRef(v.ptr(), dead.ptr());
    if (!ref) throw py::error_already_set();
    ce.keep_alive.push_back(hold(ref));
    Py_DECREF(ref);
  }

  // Called as a template argument is freed: its instances go. The entry
  // leaves the map before it is destroyed, so the callbacks its destruction
  // runs (another argument freed with it) see a consistent cache.
  void forget_instance(ti::CompiledEntry* ce) {
    std::erase_if(fast, [&](const Fast& f) { return f.ce == ce; });
    for (auto it = cache.begin(); it != cache.end(); ++it)
      if (it->second.get() == ce) {
        std::unique_ptr<ti::CompiledEntry> gone = std::move(it->second);
        cache.erase(it);
        return;
      }
  }

  // Every instance (after ti.reset, or the kernel itself going): moved out
  // first, for the same reason.
  void drop_all() {
    fast.clear();
    auto gone = std::move(cache);
    cache.clear();
  }

  void load_annotations() {
    const auto& params = ast->def->args.args;
    py::dict ann = fn.attr("__annotations__");
    py::object globals = fn.attr("__globals__");
    annotations.clear();
    for (auto* p : params) {
      py::object a = ann.contains(p->name) ? py::object(ann[py::str(p->name)]) : py::object(py::none());
      if (py::isinstance<py::str>(a))  // `from __future__ import annotations`
        a = py::eval(a.cast<std::string>(), globals);
      annotations.push_back(a);
    }
    infos.clear();
    try {
      for (auto& a : annotations) infos.push_back(ann_info(a));
    } catch (Error& e) {
      throw_python(e, true);
    }
    have_annotations = true;
  }

  // try_fast's argument slots, kept: no allocation a call. (A kernel launched
  // from its own callback gets here again only after its slots were copied
  // into the launch's context.)
  std::vector<uint64_t> small_slots;

  [[noreturn]] void type_error(const std::string& m) { throw py::type_error(m); }

  // kernel_method.cpp's call without pybind's dispatch (its py::args tuple,
  // kwargs dict and overload walk were ~0.35 us of a warm launch's ~1.2 us of
  // overhead, and ~1.5 us of a program's second launch, the first through this
  // path, with its lines cold after the compile): positional arguments to the
  // kept instance (call_mode's first branch too). False when it does not take
  // the call (call_mode then binds the arguments, and reports any error).
  bool try_fast(PyObject* const* args, size_t nargs, py::object& out) {
    if (fast.empty() || generation != state().generation || nargs != ast->def->args.args.size()) return false;
    for (const Fast& f : fast) {
      size_t k = 0;
      while (k < nargs && (!f.same[k] || f.same[k] == args[k])) k++;
      if (k < nargs) continue;
      ti::CompiledEntry& ce = *f.ce;
      small_slots.assign((size_t)ce.num_args, 0);
      for (k = 0; k < nargs; k++)
        if (!f.same[k] && !slot_of(args[k], ce.arg_prims[k], small_slots[(size_t)ce.arg_slot[k]])) {
          PyErr_Clear();
          return false;
        }
      out = launch(ce, small_slots);
      return true;
    }
    return false;
  }

  // A call with keywords (`step(dt=0.01)`) or defaults as the positional
  // call it means, for try_fast: `out` gets every parameter in order when
  // the keywords name parameters after the positional ones, each once, and
  // the function's defaults cover the rest; otherwise false, and the general
  // path binds the call (and reports what is wrong with it).
  bool by_position(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject** out, size_t room) {
    size_t np = param_names.size();
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (np > room || (size_t)(nargs + nkw) > np) return false;
    for (size_t k = 0; k < np; k++) out[k] = k < (size_t)nargs ? args[k] : nullptr;
    for (Py_ssize_t i = 0; i < nkw; i++) {
      PyObject* name = PyTuple_GET_ITEM(kwnames, i);
      size_t k = (size_t)nargs;
      while (k < np && param_names[k].ptr() != name &&
             !(PyUnicode_Check(name) && PyUnicode_Compare(param_names[k].ptr(), name) == 0))
        k++;
      if (k == np || out[k]) return false;
      out[k] = args[nargs + i];
    }
    if ((size_t)(nargs + nkw) < np) {
      PyObject* defaults = PyFunction_Check(fn.ptr()) ? PyFunction_GET_DEFAULTS(fn.ptr()) : nullptr;
      size_t nd = defaults ? (size_t)PyTuple_GET_SIZE(defaults) : 0;
      for (size_t k = 0; k < np; k++)
        if (!out[k]) {
          if (k + nd < np) return false;
          out[k] = PyTuple_GET_ITEM(defaults, k + nd - np);
        }
    }
    return true;
  }

  // Keeps `ce` for try_fast when the call's parameters are all scalars and
  // templates (`vals` the call's arguments).
  void keep_fast(ti::CompiledEntry& ce, const std::vector<ArgSpec>& specs, const std::vector<py::object>& vals) {
    Fast f{&ce, std::vector<PyObject*>(specs.size(), nullptr), {}};
    for (size_t k = 0; k < specs.size(); k++) {
      if (specs[k].kind == ArgSpec::Kind::template_) {
        f.same[k] = vals[k].ptr();
        if (!held_weakly(vals[k].ptr())) f.held.push_back(vals[k]);
      } else if (specs[k].kind != ArgSpec::Kind::scalar) {
        return;
      }
    }
    std::erase_if(fast, [&](const Fast& o) { return o.ce == &ce; });  // (same key, other objects: these now)
    fast.insert(fast.begin(), std::move(f));
    if (fast.size() > kFast) fast.pop_back();
  }

  py::object call(py::args args, py::kwargs kw) { return call_mode(kKernel, args, kw); }

  py::object call_mode(int mode, py::args args, py::kwargs kw) {
    if (mode < kKernel || mode > kValidate) throw py::value_error("call_mode: mode is 0..3");
    State& st = state();
    Program& prog = program();
    if (generation != st.generation) {
      drop_all();
      generation = st.generation;
    }
    const auto& params = ast->def->args.args;
    size_t np = params.size();
    std::vector<uint64_t> slots;
    std::vector<uint64_t> ret_bits;
    if (mode == kKernel && kw.empty()) {  // (an empty tuple: its item array is not read)
      py::object out;
      if (try_fast(&PyTuple_GET_ITEM(args.ptr(), 0), args.size(), out)) return out;
    }

    // ---- bind arguments (Python's rules, with the kernel's name in messages)
    std::vector<py::object> vals(np);
    if (args.size() > np)
      type_error(qualname + "() takes " + std::to_string(np) + " positional argument" + (np == 1 ? "" : "s") + " but " +
                 std::to_string(args.size()) + (args.size() == 1 ? " was" : " were") + " given");
    for (size_t k = 0; k < args.size(); k++) vals[k] = args[k];
    for (auto [key, v] : kw) {
      std::string name = py::str(key);
      size_t k = 0;
      while (k < np && params[k]->name != name) k++;
      if (k == np) type_error(qualname + "() got an unexpected keyword argument '" + name + "'");
      if (vals[k]) type_error(qualname + "() got multiple values for argument '" + name + "'");
      vals[k] = py::reinterpret_borrow<py::object>(v);
    }
    py::object defaults = fn.attr("__defaults__");
    size_t nd = defaults.is_none() ? 0 : py::len(defaults);
    for (size_t k = 0; k < np; k++) {
      if (vals[k]) continue;
      if (k + nd >= np) vals[k] = defaults[py::int_(k + nd - np)];
      else type_error(qualname + "() missing 1 required positional argument: '" + params[k]->name + "'");
    }
    if (!have_annotations) load_annotations();

    // ---- classify parameters; the cache key
    std::vector<ArgSpec> specs(np);
    std::vector<Prim> prims(np, Prim::none);
    std::vector<ArgHold> holds(np);
    char head[40];
    std::snprintf(head, sizeof head, "K%p|%d|", (void*)this, mode);
    std::string key = head;
    try {
      for (size_t k = 0; k < np; k++) {
        const py::object& ann = annotations[k];
        specs[k].name = params[k]->name;
        if (ann.is_none() && !(k == 0 && params[k]->name == "self"))
          raise("TypeError", "parameter '" + params[k]->name + "' of kernel '" + ast->def->name +
                                 "' needs a type annotation (such as ti.f32, ti.i32 or ti.template())", params[k]->loc);
        classify(mode, ast->def->name, ann, infos[k], vals[k], params[k]->loc, specs[k], holds[k], key);
        prims[k] = specs[k].kind == ArgSpec::Kind::scalar ? specs[k].prim : Prim::none;
      }
    } catch (Error& e) {
      throw_python(e, true);
    }

    // ---- compile on a miss
    auto it = cache.find(key);
    if (it == cache.end()) {
      frontend::KernelRequest req;
      req.def = ast->def;
      req.env = hold(fn);
      req.args = specs;
      req.qualified_name = qualname;
      static const frontend::AutodiffMode kModes[] = {frontend::AutodiffMode::none, frontend::AutodiffMode::reverse,
                                                      frontend::AutodiffMode::forward, frontend::AutodiffMode::validation};
      req.ad_mode = kModes[mode];
      if (!st.env) st.env = make_env();
      std::unique_ptr<ti::CompiledEntry> ce;
      try {
        for (size_t k = 0; k < np; k++)
          if (specs[k].kind == ArgSpec::Kind::template_) req.args[k].value = to_static(vals[k]);
        ce = ti::compile_kernel(req, *st.env, prog, st.keep_dumps ? &st.dumps : nullptr, warn);
      } catch (Error& e) {
        throw_python(e, true);
      }
      ce->arg_prims = prims;
      for (size_t k = 0; k < np; k++)
        if (specs[k].kind == ArgSpec::Kind::template_) hold_template(*ce, vals[k]);
      it = cache.emplace(key, std::move(ce)).first;
    }
    ti::CompiledEntry& ce = *it->second;
    if (mode == kKernel) keep_fast(ce, specs, vals);

    // ---- argument slots
    slots.assign((size_t)ce.num_args, 0);
    for (size_t k = 0; k < np; k++) {
      int slot = k < ce.arg_slot.size() ? ce.arg_slot[k] : -1;
      if (slot < 0) continue;
      fill(ast->def->name, specs[k], holds[k], (size_t)slot, slots);
      int cslot = k < ce.companion_slot.size() ? ce.companion_slot[k] : -1;
      if (cslot >= 0 && holds[k].comp) {
        NdarrayArg &nd = *holds[k].nd, &cd = *holds[k].comp;
        for (int d = 0; d < specs[k].ndim; d++)
          if (cd.view.shape[d] != nd.view.shape[d])
            throw py::value_error("the companion array of ndarray argument '" + params[k]->name + "' has another shape");
        slots[(size_t)cslot] = (uint64_t)(uintptr_t)cd.view.buf;
        for (int d = 0; d < specs[k].ndim; d++) slots[(size_t)cslot + 1 + (size_t)d] = (uint64_t)cd.view.shape[d];
      }
    }
    return launch(ce, slots);
  }

  // The return slots of the last launch, kept: no allocation a call. (A
  // kernel launched from its own callback finishes before its caller's launch
  // writes them: launch_kernel fills them at its end.)
  std::vector<uint64_t> ret_bits;

  py::object launch(ti::CompiledEntry& ce, const std::vector<uint64_t>& slots) {
    std::vector<uint64_t>& bits = ret_bits;
    try {
      Program& prog = program();
      LaunchInterrupt ctrl_c(prog);
      ti::launch_kernel(ce, prog, slots.data(), bits);
    } catch (Error& e) {
      throw_python(e, false);
    }
    if (ce.plain_return()) {
      if (bits.empty()) return py::none();
      return number(ce.rets[0].prim, bits[0]);
    }
    // Rebuilding runs Python (ti.Matrix, struct types), which may launch this
    // kernel again: from a copy.
    const std::vector<uint64_t> own = bits;
    return rebuild_all(ce, own);
  }

  static py::object rebuild_all(const ti::CompiledEntry& ce, const std::vector<uint64_t>& bits) {
    size_t pos = 0;
    if (ce.ret_is_tuple) {
      py::tuple t(ce.ret_types.size());
      for (size_t k = 0; k < ce.ret_types.size(); k++) t[k] = rebuild(ce.ret_types[k], ce.rets, bits, pos);
      return t;
    }
    if (ce.ret_types.empty()) return py::none();
    return rebuild(ce.ret_types[0], ce.rets, bits, pos);
  }
};

}  // namespace

PyObject* kernel_core_fast_call(PyObject* core, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, bool& handled) {
  static PyTypeObject* type = (PyTypeObject*)py::type::of<KernelCore>().ptr();
  handled = false;
  if (Py_TYPE(core) != type) return nullptr;
  auto* kc = reinterpret_cast<py::detail::instance*>(core)->get_value_and_holder().value_ptr<KernelCore>();
  if (!kc) return nullptr;
  // As pybind's dispatcher would: a C++ exception becomes the Python error.
  try {
    py::object out;
    PyObject* in_order[16];
    const size_t np = kc->param_names.size();
    if ((kwnames && PyTuple_GET_SIZE(kwnames) > 0) || (size_t)nargs < np) {
      if (!kc->by_position(args, nargs, kwnames, in_order, 16)) return nullptr;
      args = in_order;
      nargs = (Py_ssize_t)np;
    }
    if (!kc->try_fast(args, (size_t)nargs, out)) return nullptr;
    handled = true;
    return out.release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (...) {
    if (!py::detail::apply_exception_translators(py::detail::get_local_internals().registered_exception_translators) &&
        !py::detail::apply_exception_translators(py::detail::get_internals().registered_exception_translators))
      PyErr_SetString(PyExc_SystemError, "an exception escaped the kernel call's translators");
  }
  handled = true;
  return nullptr;
}

void bind_kernels(py::module_& m) {
  py::class_<FuncAST, std::shared_ptr<FuncAST>>(m, "FuncAST")
      .def_property_readonly("def_ptr", [](FuncAST& a) { return (uintptr_t)a.def; })
      .def_property_readonly("params", [](FuncAST& a) {
        std::vector<std::string> r;
        for (auto* p : a.def->args.args) r.push_back(p->name);
        return r;
      });
  m.def("parse_function", &parse_function, "(text, path, name) -> FuncAST");
  m.def("def_block_lines", &def_block_lines, "(text) -> lines of the def it starts with, 0 on a lexer error");
  py::class_<KernelCore>(m, "KernelCore")
      .def(py::init<py::object, std::shared_ptr<FuncAST>, std::string>())
      .def("__call__", &KernelCore::call)
      .def("call_mode", &KernelCore::call_mode, "(mode, *args): 0 the kernel, 1 its adjoint, 2 its dual")
      .def_property_readonly("instances", [](KernelCore& k) { return k.cache.size(); });
}

}  // namespace kiln::py_host
