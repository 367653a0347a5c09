// Entry point of the frontend: sets up the kernel's arguments and return
// type, lowers its body, and hands back the IR.
#include <algorithm>

#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::Stmt;
using ir::StmtKind;

Binding* Lowerer::find_local(const std::string& name) {
  auto& scopes = frame().scopes;
  for (size_t i = scopes.size(); i-- > 0;) {
    auto it = scopes[i].vars.find(name);
    if (it != scopes[i].vars.end()) return &it->second;
  }
  return nullptr;
}

// Binds `name` in the innermost scope and names the statements holding it,
// so that the debugger finds "x", "v" (a tensor, split later into v[0], ...)
// and "p.mass" in the bytecode's variable table.
static void name_binding(const std::string& name, const Binding& b) {
  uint8_t kind = std::string_view(b.what) == "kernel argument" ? 1 : std::string_view(b.what) == "loop variable" ? 2 : 0;
  auto tag = [&](ir::Stmt* s) {
    if (s && s->name.empty()) {
      s->name = name;
      s->var_kind = kind;
    }
  };
  switch (b.kind) {
    case Binding::Kind::local:
    case Binding::Kind::value:
      tag(b.stmt);
      break;
    case Binding::Kind::struct_:
      if (b.s.names.size() == b.members.size())
        for (size_t i = 0; i < b.members.size(); i++) name_binding(name + "." + b.s.names[i], b.members[i]);
      break;
    case Binding::Kind::tuple:
      for (size_t i = 0; i < b.tuple.elems.size(); i++)
        if (b.list && b.members[i].kind == Binding::Kind::local) name_binding(name + "[" + std::to_string(i) + "]", b.members[i]);
        else if (b.tuple.elems[i].is_value()) tag(b.tuple.elems[i].v);
      break;
    default: break;
  }
}

void Lowerer::bind(const std::string& name, Binding b) {
  name_binding(name, b);
  frame().scopes.back().vars[name] = std::move(b);
}

// The scalar type of each flattened slot of a value of type `t`.
void slot_prims(const StaticValue& t, std::vector<Prim>& out) {
  if (t.kind == StaticValue::Kind::struct_type) {
    for (auto& m : t.elems) slot_prims(m, out);
    return;
  }
  for (int i = 0; i < std::max(1, t.rows * std::max(1, t.cols)); i++) out.push_back(t.prim);
}

// The binding of one kernel parameter, whose argument slots are appended to
// the kernel's (python/core/kernel.cpp fills them in the same order).
Binding bind_param(Lowerer& L, ir::Kernel& k, const ArgSpec& a, SourceLoc loc) {
  Binding b;
  if (a.kind == ArgSpec::Kind::template_) {
    b.kind = Binding::Kind::static_;
    b.s = a.value;
  } else if (a.kind == ArgSpec::Kind::ndarray) {
    // Indexed like a field whose memory is the argument's (ir::Access::ext_arg);
    // a vector/matrix ndarray is one such field per component.
    int slot = (int)k.args.size();
    k.args.push_back({a.name + ".ptr", Type::scalar(Prim::u64)});
    for (int d = 0; d < a.ndim; d++) k.args.push_back({a.name + ".shape[" + std::to_string(d) + "]", Type::scalar(Prim::i32)});
    int comps = a.rows ? a.rows * std::max(1, a.cols) : 1;
    StaticValue sv;
    for (int c = 0; c < comps; c++) {
      FieldInfo& f = L.ndarrays.emplace_back();
      f.name = a.name;
      f.dtype = a.prim;
      f.shape.assign((size_t)a.ndim, -1);
      f.ndarray_arg = slot;
      f.ndarray_comps = comps;
      f.ndarray_comp = c;
      sv.fields.push_back(&f);
    }
    if (a.rows) {
      sv.kind = StaticValue::Kind::matrix_field;
      sv.rows = a.rows;
      sv.cols = a.cols;
      sv.s = a.name;
    } else {
      sv.kind = StaticValue::Kind::field;
      sv.field = sv.fields[0];
      sv.fields.clear();
    }
    b.kind = Binding::Kind::static_;
    b.s = sv;
  } else if (a.kind == ArgSpec::Kind::sparse_builder) {
    int slot = (int)k.args.size();
    for (const char* part : {".indices", ".values", ".count"}) {
      k.args.push_back({a.name + part + ".ptr", Type::scalar(Prim::u64)});
      k.args.push_back({a.name + part + ".shape[0]", Type::scalar(Prim::i32)});
    }
    b.kind = Binding::Kind::static_;
    b.s = L.bind_sparse_builder(a.name, slot);
  } else if (a.kind == ArgSpec::Kind::pack) {
    // An argpack: its members' own slots one after another, read as
    // `pack.member` through a struct value whose members are the arguments.
    KVal pv;
    pv.kind = KVal::Kind::struct_;
    pv.s.kind = StaticValue::Kind::struct_type;
    pv.s.s = "argpack";
    for (const ArgSpec& m : a.members) {
      Binding mb = bind_param(L, k, m, loc);
      pv.s.names.push_back(m.name.substr(a.name.size() + 1));
      pv.s.elems.push_back(m.kind == ArgSpec::Kind::pack       ? mb.tuple.s
                           : m.kind == ArgSpec::Kind::compound ? m.type
                                                               : StaticValue::of_dtype(m.prim));
      pv.elems.push_back(mb.kind == Binding::Kind::static_ ? KVal::of(mb.s)
                         : mb.tuple.is_struct()             ? mb.tuple
                                                            : KVal::of(mb.stmt));
    }
    b.kind = Binding::Kind::value;
    b.tuple = pv;
    b.what = "kernel argument";
  } else {
    // Scalars take one slot; vectors, matrices and structs one per scalar inside.
    StaticValue t = a.kind == ArgSpec::Kind::compound ? a.type : StaticValue::of_dtype(a.prim);
    if (t.kind != StaticValue::Kind::dtype && t.kind != StaticValue::Kind::struct_type)
      raise("TypeError", "parameter '" + a.name + "' has an unsupported type: " + describe_static(t), loc);
    std::vector<Prim> prims;
    slot_prims(t, prims);
    std::vector<Stmt*> slots;
    for (size_t e = 0; e < prims.size(); e++) {
      auto s = std::make_unique<Stmt>(StmtKind::arg_load);
      s->index = (int)k.args.size();
      s->type = Type::scalar(prims[e]);
      k.args.push_back({prims.size() > 1 ? a.name + "[" + std::to_string(e) + "]" : a.name, Type::scalar(prims[e])});
      slots.push_back(L.emit(std::move(s), loc));
    }
    size_t pos = 0;
    KVal v = L.from_slots(t, slots, pos, loc);
    b.kind = Binding::Kind::value;
    if (v.is_struct()) b.tuple = v;
    else b.stmt = v.v;
    b.what = "kernel argument";
  }
  return b;
}

LoweredKernel lower_kernel(const KernelRequest& req, HostEnv& env, Program& prog) {
  const ast::FunctionDef* def = req.def;
  LoweredKernel out;
  out.kernel = std::make_unique<ir::Kernel>();
  ir::Kernel& k = *out.kernel;
  k.name = req.qualified_name.empty() ? def->name : req.qualified_name;
  k.loc = def->loc;
  k.frames[0].func = def->name;

  Lowerer L(env, prog, k);
  L.types = prog.config.types;
  L.debug = prog.config.debug;
  L.ad_mode = req.ad_mode;
  L.blocks.push_back(&k.root);
  Frame fr;
  fr.def = def;
  fr.env = req.env;
  fr.is_kernel = true;
  fr.scopes.emplace_back();
  L.frames.push_back(std::move(fr));

  if (def->returns) {
    StaticValue rt = L.eval_static(def->returns);
    // `-> bool`: a truth value, i32 like Kiln's comparisons (Taichi's u1)
    if (rt.kind == StaticValue::Kind::builtin && rt.s == "bool") rt = StaticValue::of_dtype(Prim::i32);
    if (rt.kind == StaticValue::Kind::tuple) {  // -> (ti.i32, ti.f32)
      out.ret_is_tuple = true;
      out.ret_types = rt.elems;
    } else if (rt.kind != StaticValue::Kind::none) {
      out.ret_types.push_back(rt);
    }
    std::vector<Prim> prims;
    for (auto& t : out.ret_types) {
      if (t.kind != StaticValue::Kind::dtype && t.kind != StaticValue::Kind::struct_type)
        raise("TypeError", "kernel '" + def->name + "' has an unsupported return type annotation: " + describe_static(t) +
                               " (use a type such as ti.i32, a vector/matrix/struct type, or a tuple of them)",
              def->returns->loc);
      slot_prims(t, prims);
    }
    for (Prim p : prims) k.rets.push_back(Type::scalar(p));
  }
  L.ret_types = out.ret_types;
  L.ret_is_tuple = out.ret_is_tuple;
  out.rets = k.rets;

  const auto& params = def->args.args;
  for (size_t i = 0; i < req.args.size(); i++) {
    const ArgSpec& a = req.args[i];
    SourceLoc loc = i < params.size() ? params[i]->loc : def->loc;
    bool slotless = a.kind == ArgSpec::Kind::template_;
    out.arg_slot.push_back(slotless ? -1 : (int)k.args.size());
    L.bind(a.name, bind_param(L, k, a, loc));
  }

  // Companion arrays of ndarray arguments (autodiff kernels): pointer and
  // shape again, after every parameter's own slots.
  out.companion_slot.assign(req.args.size(), -1);
  for (size_t i = 0; i < req.args.size(); i++) {
    const ArgSpec& a = req.args[i];
    if (a.kind != ArgSpec::Kind::ndarray || !a.companion) continue;
    int slot = (int)k.args.size();
    out.companion_slot[i] = slot;
    std::string cn = a.name + (req.ad_mode == AutodiffMode::forward ? ".dual" : ".grad");
    k.args.push_back({cn + ".ptr", Type::scalar(Prim::u64)});
    for (int d = 0; d < a.ndim; d++) k.args.push_back({cn + ".shape[" + std::to_string(d) + "]", Type::scalar(Prim::i32)});
    k.ext_companion.push_back({out.arg_slot[i], slot});
    L.ndarray_companion[out.arg_slot[i]] = {slot, cn};
  }

  L.lower_body(def->body);
  if (!k.rets.empty() && L.frames.front().returns_seen == 0)
    raise("SyntaxError", "kernel '" + def->name + "' has a return type annotation but no return statement", def->loc);
  out.warnings = std::move(L.warnings);
  return out;
}

}  // namespace kiln::frontend
