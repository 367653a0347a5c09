// Calling a @ti.kernel from the host: bind arguments, classify parameters by
// their annotations, look the compiled kernel up by (kernel, template
// arguments by identity, scalar types), compile on a miss (frontend -> passes
// -> engine), launch, and convert the returns to Python values.
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "vm/frontend/frontend.h"
#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_objects.h"
#include "vm/host/ti_state.h"

namespace kiln::host {

std::string KernelObj::repr(Evaluator& ev) const { return ev.repr(fn); }

// A kernel nothing refers to any more (a module reloaded, a def redefined)
// can never be called again: its compiled entries go with it, so that an
// application reloading its kernels keeps one generation of code.
KernelObj::~KernelObj() {
  auto state = ti.lock();
  if (!state || key_head.empty()) return;
  auto& cache = (*state)->cache;
  auto it = cache.lower_bound(key_head);
  while (it != cache.end() && it->first.compare(0, key_head.size(), key_head) == 0) it = cache.erase(it);
}

bool KernelObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  return ev.try_get_attr(fn, name, loc, out);
}

namespace {

bool is_template(const Value& ann) {
  return ann.kind == Kind::Host && dynamic_cast<TemplateObj*>(ann.as<HostObj>()) != nullptr;
}

// Part of the cache key for a template argument: objects by identity,
// Python scalars by value (Taichi specialises on both).
std::string identity(const Value& v) {
  char buf[64];
  switch (v.kind) {
    case Kind::None: return "n";
    case Kind::Bool: return v.b ? "T" : "F";
    case Kind::Int: return "i" + std::to_string(v.i);
    case Kind::Float: {
      uint64_t bits;
      std::memcpy(&bits, &v.f, 8);
      std::snprintf(buf, sizeof buf, "f%" PRIx64, bits);
      return buf;
    }
    case Kind::Str: return "s" + std::to_string(str_of(v).size()) + ":" + str_of(v);
    case Kind::Tuple:
    case Kind::List: {
      std::string s = "(";
      for (auto& x : v.kind == Kind::Tuple ? v.as<TupleObj>()->items : v.as<ListObj>()->items) s += identity(x) + ",";
      return s + ")";
    }
    case Kind::Host:
      if (auto* f = dynamic_cast<FieldObj*>(v.as<HostObj>())) {
        std::snprintf(buf, sizeof buf, "F%p", (void*)f->info);
        return buf;
      }
      break;
    default: break;
  }
  std::snprintf(buf, sizeof buf, "p%p", (void*)v.obj.get());
  return buf;
}

}  // namespace

Value KernelObj::call(Evaluator& ev, const Value& self, CallArgs& a) {
  const FunctionObj& fn = function();
  const ast::FunctionDef* def = fn.def;
  if (is_func)
    raise("RuntimeError", "Taichi functions cannot be called from Python-scope: '" + fn.name +
                              "' is a @ti.func; call it from a @ti.kernel", a.loc);
  const ast::Arguments& params = def->args;
  if (params.vararg || params.kwarg || !params.kwonlyargs.empty())
    raise("TypeError", "kernel '" + fn.name + "' may only have plain positional parameters", def->loc);

  // ---- bind arguments (Python's rules, with the kernel's name in messages)
  size_t np = params.args.size();
  std::vector<Value> vals(np);
  std::vector<bool> set(np, false);
  if (a.pos.size() > np)
    raise("TypeError", fn.qualname + "() takes " + std::to_string(np) + " positional argument" + (np == 1 ? "" : "s") +
                           " but " + std::to_string(a.pos.size()) + (a.pos.size() == 1 ? " was" : " were") + " given", a.loc);
  for (size_t k = 0; k < a.pos.size(); k++) {
    vals[k] = a.pos[k];
    set[k] = true;
  }
  for (auto& [name, v] : a.kw) {
    size_t k = 0;
    while (k < np && params.args[k]->name != name) k++;
    if (k == np) raise("TypeError", fn.qualname + "() got an unexpected keyword argument '" + name + "'", a.loc);
    if (set[k]) raise("TypeError", fn.qualname + "() got multiple values for argument '" + name + "'", a.loc);
    vals[k] = v;
    set[k] = true;
  }
  size_t first_default = np - fn.defaults.size();
  for (size_t k = 0; k < np; k++) {
    if (set[k]) continue;
    if (k >= first_default) vals[k] = fn.defaults[k - first_default];
    else raise("TypeError", fn.qualname + "() missing 1 required positional argument: '" + params.args[k]->name + "'", a.loc);
  }

  // ---- annotations, evaluated once in the def's scope
  if (!annotations_done) {
    annotations.clear();
    for (auto* p : params.args) annotations.push_back(p->annotation ? ev.eval(p->annotation, *fn.closure) : Value());
    annotations_done = true;
  }

  // As Taichi: a kernel method needs its class marked @ti.data_oriented.
  if (fn.in_class_body && np > 0 && vals[0].kind == Kind::Instance) {
    const ClassObj* cls = vals[0].as<InstanceObj>()->cls.get();
    const Value* mark = cls->find("_data_oriented");
    if (!mark || !truthy_basic(*mark))
      raise("SyntaxError", "Please decorate class " + cls->name + " with @ti.data_oriented", a.loc);
  }

  Program& prog = ti_program(ev);
  TiState& ti = *ev.ti;
  std::vector<frontend::ArgSpec> specs;
  std::vector<std::vector<uint64_t>> nd_slots;  // ndarray arguments: pointer, shape
  CompiledEntry* found = fast_entry && fast_epoch == ti.cache_epoch ? fast_entry : nullptr;
  if (!found) {
    bool is_method = fn.in_class_body;
    specs.resize(np);
    nd_slots.resize(np);
    std::vector<Prim> prims(np, Prim::none);
    std::string key = key_head;
    for (size_t k = 0; k < np; k++) {
      const Value& ann = annotations[k];
      const ast::Arg* p = params.args[k];
      specs[k].name = p->name;
      // `self` of a kernel method (@ti.data_oriented) is an implicit template.
      if (is_template(ann) || (k == 0 && is_method && ann.is_none())) {
        specs[k].kind = frontend::ArgSpec::Kind::template_;
        specs[k].value = to_static(ev, vals[k]);
        key += "T" + identity(vals[k]) + "|";
      } else if (is_ndarray_type(ann)) {
        ndarray_arg(ev, ann, vals[k], p->name, a.loc, specs[k], key, nd_slots[k]);
      } else if (is_builder_type(ann)) {
        builder_arg(ev, vals[k], p->name, a.loc, nd_slots[k]);
        specs[k].kind = frontend::ArgSpec::Kind::sparse_builder;
        key += "B|";
      } else if (is_compound_type(ann)) {
        // vectors, matrices and structs by value: flattened into slots at launch
        specs[k].kind = frontend::ArgSpec::Kind::compound;
        specs[k].type = to_static(ev, ann);
        key += "C" + type_key(ev, ann) + "|";
      } else if (ann.is_none()) {
        raise("TypeError", "parameter '" + p->name + "' of kernel '" + fn.name +
                               "' needs a type annotation (such as ti.f32, ti.i32 or ti.template())", p->loc);
      } else {
        prims[k] = dtype_prim(ev, ann, p->annotation->loc);
        specs[k].kind = frontend::ArgSpec::Kind::scalar;
        specs[k].prim = prims[k];
        key += "S" + std::string(prim_name(prims[k])) + "|";
      }
    }

    // ---- compile on a cache miss
    auto it = ti.cache.find(key);
    if (it == ti.cache.end()) {
      frontend::KernelRequest req;
      req.def = def;
      req.env = std::static_pointer_cast<void>(fn.closure);
      req.args = specs;
      req.qualified_name = fn.qualname;
      auto entry = ti::compile_kernel(req, *ti.host_env, prog, ti.options.keep_kernel_dumps ? &ti.dumps : nullptr, ev.err);
      entry->arg_prims = prims;
      for (size_t k = 0; k < np; k++)
        if (specs[k].kind == frontend::ArgSpec::Kind::template_) entry->keep_alive.push_back(vals[k].obj);
      it = ti.cache.emplace(key, std::move(entry)).first;
    }
    found = it->second.get();
    bool all_scalar = true;
    for (auto& s : specs) all_scalar &= s.kind == frontend::ArgSpec::Kind::scalar;
    if (all_scalar) {
      fast_entry = found;
      fast_epoch = ti.cache_epoch;
    }
  }
  CompiledEntry& ce = *found;

  // ---- launch
  // A Ctrl-C that came before this Program existed (the first kernel call
  // creates it) only reached the evaluator's flag.
  ev.check_interrupt(a.loc);
  std::vector<uint64_t> args((size_t)ce.num_args, 0);
  for (size_t k = 0; k < np; k++) {
    int slot = k < ce.arg_slot.size() ? ce.arg_slot[k] : -1;
    if (slot < 0) continue;
    // (the fast path leaves specs empty: every parameter is a scalar)
    if (!specs.empty() && (specs[k].kind == frontend::ArgSpec::Kind::ndarray ||
                           specs[k].kind == frontend::ArgSpec::Kind::sparse_builder)) {
      for (size_t i = 0; i < nd_slots[k].size() && (size_t)slot + i < args.size(); i++) args[(size_t)slot + i] = nd_slots[k][i];
      continue;
    }
    if (!specs.empty() && specs[k].kind == frontend::ArgSpec::Kind::compound) {
      std::vector<ConstVal> parts;
      flatten_arg(ev, annotations[k], vals[k], parts, a.loc);
      for (size_t i = 0; i < parts.size() && (size_t)slot + i < args.size(); i++)
        args[(size_t)slot + i] = prim_is_float(parts[i].prim) ? const_to_bits(parts[i]) : parts[i].u;
      continue;
    }
    Prim p = ce.arg_prims[k];
    ConstVal c = to_const(ev, vals[k], p, a.loc);
    // ints sign/zero-extended in the slot; floats as their bits (f32 in the low 4 bytes)
    args[(size_t)slot] = prim_is_float(p) ? const_to_bits(c) : c.u;
  }
  std::vector<uint64_t> ret_bits;
  ti::launch_kernel(ce, prog, args.data(), ret_bits);

  std::vector<ConstVal> slots;
  for (size_t k = 0; k < ret_bits.size(); k++) slots.push_back(ti::return_value(ce, k, ret_bits[k]));
  last_rets = slots;
  // Vectors, matrices, structs and tuples are rebuilt from their flattened slots.
  bool compound = ce.ret_is_tuple;
  for (auto& t : ce.ret_types) compound |= t.kind != frontend::StaticValue::Kind::dtype || t.rows > 0;
  if (compound) {
    size_t pos = 0;
    std::vector<Value> parts;
    for (auto& t : ce.ret_types) parts.push_back(rebuild_value(ev, t, slots, pos));
    if (ce.ret_is_tuple) return make_tuple(std::move(parts));
    return parts.empty() ? Value() : parts[0];
  }
  std::vector<Value> rets;
  for (auto& c : slots) rets.push_back(from_const(c));
  if (rets.empty()) return Value();
  if (rets.size() == 1) return rets[0];
  return make_tuple(std::move(rets));
}

}  // namespace kiln::host
