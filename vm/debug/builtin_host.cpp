// The debugger's host side on Kiln's built-in evaluator (`kiln debug
// --host=builtin`, the DAP server): host statements reach the session
// through the evaluator's on_stmt hook; expressions are parsed once and
// evaluated by the evaluator.
#include "vm/debug/builtin_host.h"

#include "vm/host/ti_objects.h"
#include "vm/lang/ast.h"

namespace kiln::debug {

int BuiltinHost::run(Session& s) {
  HostOptions o = base;
  o.argv = s.argv;
  o.debugger = &s;
  o.out = s.io.out;
  o.err = s.io.err;
  host = make_host(o);
  parsed.clear();  // their ASTs lived in the previous run's evaluator
  host->ev->on_stmt = [this, &s](const ast::Stmt* st, host::Env& env) {
    s.last_fn = nullptr;  // back in host code: the next kernel instruction is a new place
    Place p;
    p.loc = st->loc;
    p.depth = depth();
    p.env = &env;
    s.consider(p);
  };
  try {
    run_source(*host, s.path, s.text);
  } catch (const SystemExit& e) {
    return e.code;
  } catch (const Error& e) {
    s.io.err(format_error(e));
    return 1;
  }
  return 0;
}

int BuiltinHost::depth() const { return (int)host->ev->frames.size(); }

std::string BuiltinHost::where(const Place&) const {
  return host->ev->frames.empty() ? "<module>" : host->ev->frames.back().name;
}

void BuiltinHost::frames(const Place& p, std::vector<FrameView>& out) const {
  auto& hf = host->ev->frames;
  size_t first = out.size();
  for (size_t i = hf.size(); i-- > 0;) {
    Place v;
    v.loc = hf[i].cur;
    v.env = hf[i].env;
    v.depth = (int)i + 1;
    out.push_back({hf[i].name, hf[i].cur, v});
  }
  if (!p.kernel && out.size() > first) out[first].view = p;  // the stopped statement's own scope
}

std::vector<VarView> BuiltinHost::variables(const Place& p) {
  std::vector<VarView> out;
  std::map<std::string, host::Value> sorted(p.env->vars.begin(), p.env->vars.end());
  for (auto& [name, v] : sorted) {
    if (name.rfind("__", 0) == 0) continue;
    if (p.env->type == host::Env::Type::Module &&
        (v.kind == host::Kind::Module || v.kind == host::Kind::Function || v.kind == host::Kind::Class ||
         v.kind == host::Kind::Builtin || v.kind == host::Kind::Host))
      continue;
    out.push_back({name, host->ev->repr(v), 0, {}});
  }
  return out;
}

// Parses `expr` as one Python expression (kept alive by the evaluator; each
// text once: a breakpoint condition is evaluated at every pass).
const ast::Expr* BuiltinHost::parse(const std::string& expr) {
  auto it = parsed.find(expr);
  if (it != parsed.end()) return it->second;
  host::Evaluator& ev = *host->ev;
  const SourceFile* f = ev.sources.add("<debugger>", expr);
  ev.asts.push_back(ast::parse(f));
  const ast::Module& m = *ev.asts.back();
  if (m.body.size() != 1 || m.body[0]->kind != ast::StmtKind::ExprStmt)
    raise("SyntaxError", "'" + expr + "' is not an expression");
  return parsed[expr] = m.body[0]->as<ast::ExprStmt>()->value;
}

host::Value BuiltinHost::eval(const Session& s, const Place& p, const std::string& expr) {
  const ast::Expr* e = parse(expr);
  host::Evaluator& ev = *host->ev;
  if (!p.kernel) return ev.eval(e, *p.env);
  // Kernel locals in a scope of their own over the module's globals.
  host::Env* globals = ev.frames.empty() ? ev.main_env.get() : ev.frames.back().env->module;
  auto env = host::Env::make(host::Env::Type::Function, globals->shared_from_this(), globals);
  for (auto& [name, v] : s.kernel_values(p)) env->vars[name] = v;
  return ev.eval(e, *env);
}

std::string BuiltinHost::value_text(Session& s, const Place& p, const std::string& expr) {
  return host->ev->repr(eval(s, p, expr));
}

bool BuiltinHost::truthy(Session& s, const Place& p, const std::string& expr) {
  return host->ev->truthy(eval(s, p, expr));
}

std::vector<VarView> BuiltinHost::fields(Session& s) {
  std::vector<VarView> out;
  if (!host) return out;
  host::Evaluator& ev = *host->ev;
  std::map<std::string, host::Value> globals(ev.main_env->vars.begin(), ev.main_env->vars.end());
  Place at_module;
  at_module.env = ev.main_env.get();
  for (auto& [name, v] : globals) {
    if (v.kind != host::Kind::Host || !dynamic_cast<host::FieldObj*>(v.as<host::HostObj>())) continue;
    VarView f{name, ev.repr(v), 0, {}};
    try {
      host::Value shape = eval(s, at_module, name + ".shape");
      if (shape.kind == host::Kind::Tuple && shape.as<host::TupleObj>()->items.size() == 1) {
        int64_t n = shape.as<host::TupleObj>()->items[0].as_int();
        for (int64_t i = 0; i < n && i < 64; i++)
          f.children.push_back({"[" + std::to_string(i) + "]", value_text(s, at_module, name + "[" + std::to_string(i) + "]"), 0, {}});
      }
    } catch (const Error&) {
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::unique_ptr<HostSide> builtin_host(HostOptions base) {
  auto h = std::make_unique<BuiltinHost>();
  h->base = std::move(base);
  return h;
}

}  // namespace kiln::debug
