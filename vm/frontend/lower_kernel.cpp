// Entry point of the frontend: sets up the kernel's arguments and return
// type, lowers its body, and hands back the IR.
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

void Lowerer::bind(const std::string& name, Binding b) { frame().scopes.back().vars[name] = std::move(b); }

LoweredKernel lower_kernel(const KernelRequest& req, HostEnv& env, Program& prog) {
  const ast::FunctionDef* def = req.def;
  LoweredKernel out;
  out.kernel = std::make_unique<ir::Kernel>();
  ir::Kernel& k = *out.kernel;
  k.name = req.qualified_name.empty() ? def->name : req.qualified_name;
  k.loc = def->loc;

  Lowerer L(env, prog, k);
  L.types = prog.config.types;
  L.debug = prog.config.debug;
  L.blocks.push_back(&k.root);
  Frame fr;
  fr.def = def;
  fr.env = req.env;
  fr.is_kernel = true;
  fr.scopes.emplace_back();
  L.frames.push_back(std::move(fr));

  if (def->returns) {
    StaticValue rt = L.eval_static(def->returns);
    if (rt.kind == StaticValue::Kind::dtype && rt.rows == 0) {
      k.rets.push_back(Type::scalar(rt.prim));
      out.ret_types.push_back(rt);
    }
    else if (rt.kind != StaticValue::Kind::none)
      raise("TypeError", "kernel '" + def->name + "' has an unsupported return type annotation " + describe_static(rt) +
                             " (scalar types such as ti.i32 are supported)", def->returns->loc);
  }
  out.rets = k.rets;

  const auto& params = def->args.args;
  for (size_t i = 0; i < req.args.size(); i++) {
    const ArgSpec& a = req.args[i];
    SourceLoc loc = i < params.size() ? params[i]->loc : def->loc;
    Binding b;
    if (a.kind == ArgSpec::Kind::template_) {
      b.kind = Binding::Kind::static_;
      b.s = a.value;
      out.arg_slot.push_back(-1);
    } else {
      auto s = std::make_unique<Stmt>(StmtKind::arg_load);
      s->index = (int)k.args.size();
      s->type = Type::scalar(a.prim);
      out.arg_slot.push_back((int)k.args.size());
      k.args.push_back({a.name, Type::scalar(a.prim)});
      b.kind = Binding::Kind::value;
      b.stmt = L.emit(std::move(s), loc);
      b.what = "kernel argument";
    }
    L.bind(a.name, b);
  }

  L.lower_body(def->body);
  out.warnings = std::move(L.warnings);
  return out;
}

}  // namespace kiln::frontend
