// Legalize dtypes: make a kernel compute only in the types its engine
// supports (vm/types/dtype_support.h). Without a casting mode, the first
// statement using an unsupported type is a TypeError naming the type, the
// engine and the line. With one, computation moves to the mapped type:
// constants are converted, arithmetic, locals and loops are retyped, and at
// the memory boundary (kernel arguments, field loads and stores, return
// values) a cast converts between the storage type, which stays as declared,
// and the computation type. Engines therefore need the storage types only for
// loads, stores and conversions.
#include <unordered_map>

#include "vm/ir/passes/passes.h"
#include "vm/types/value.h"

namespace kiln::ir {

namespace {

struct Legalizer {
  Kernel& k;
  const std::function<bool(Prim)>& ok;
  const std::string& engine;
  CastMode mode;
  const TypeConfig& types;
  std::unordered_map<int, Prim> memo;

  Prim map(Prim p, const Stmt* s) {
    if (p == Prim::none || ok(p)) return p;
    auto it = memo.find((int)p);
    if (it != memo.end()) return it->second;
    std::optional<Prim> q = map_dtype(p, ok, mode, types);
    if (!q) {
      std::string msg = std::string(prim_name(p)) + " is not supported by the " + engine;
      msg += mode == CastMode::none
                 ? " (ti.init(dtype_cast_mode=\"upcast\"|\"downcast\"|\"crosscast\"|\"cast\") maps it to a supported type)"
                 : std::string(" and dtype_cast_mode=\"") + cast_mode_name(mode) + "\" finds no type to map it to";
      raise("TypeError", msg, s->loc);
    }
    return memo[(int)p] = *q;
  }

  std::unique_ptr<Stmt> cast(Stmt* v, Prim to, SourceLoc loc) {
    auto c = std::make_unique<Stmt>(StmtKind::unary);
    c->uop = UnaryOp::cast_value;
    c->type = v->type;
    c->type.prim = to;
    c->type.is_ptr = false;
    c->ops = {v};
    c->loc = loc;
    return c;
  }

  // Loads whose value is now read through a cast after them -> that cast.
  std::unordered_map<const Stmt*, Stmt*> converted;

  // Each block is rebuilt in one pass, users renamed as they are reached
  // (uses follow definitions in pre-order), so the pass stays linear in the
  // kernel's size.
  void run(Block& b) {
    StmtList in = take_all(b);
    for (auto& owned : in) {
      Stmt* s = owned.get();
      rename_operands(*s, converted);
      if (s->body) run(*s->body);
      if (s->else_body) run(*s->else_body);
      std::unique_ptr<Stmt> after;  // a cast of s's value, placed right after it
      switch (s->kind) {
        case StmtKind::arg_load:
        case StmtKind::global_load: {
          // Storage keeps its type; the value is converted right after the load.
          Prim q = map(s->type.prim, s);
          if (q == s->type.prim) break;
          after = cast(s, q, s->loc);
          converted[s] = after.get();
          break;
        }
        case StmtKind::global_store: {
          Prim storage = s->ops[0]->type.prim;
          if (s->ops[1]->type.prim != storage) s->ops[1] = b.add(cast(s->ops[1], storage, s->loc));
          break;
        }
        case StmtKind::atomic:
          if (s->ops[0]->type.is_ptr && !ok(s->ops[0]->type.prim))
            raise("TypeError", "atomics on " + std::string(prim_name(s->ops[0]->type.prim)) + " are not supported by the " +
                                   engine + ", whatever the casting mode", s->loc);
          s->type.prim = map(s->type.prim, s);
          break;
        case StmtKind::return_:
          for (size_t r = 0; r < s->ops.size() && r < k.rets.size(); r++) {
            if (s->ops[r]->type.prim == k.rets[r].prim) continue;
            s->ops[r] = b.add(cast(s->ops[r], k.rets[r].prim, s->loc));
          }
          break;
        case StmtKind::global_ptr:
        case StmtKind::global_temp:
          break;  // pointers name storage
        case StmtKind::const_: {
          Prim q = map(s->type.prim, s);
          if (q == s->type.prim) break;
          ConstVal v = prim_is_float(s->value.prim) ? ConstVal::make_float(s->value.prim, s->value.f)
                                                    : ConstVal::make_int(s->value.prim, s->value.i);
          ConstVal c = cast_const(v, q);
          s->value = prim_is_float(q) ? Const::of_float(q, c.f) : Const::of_int(q, c.i);
          s->type.prim = q;
          break;
        }
        default:
          if (s->has_value()) s->type.prim = map(s->type.prim, s);
          // A cast to an unsupported type becomes a cast to its mapped type
          // (the statement's type above); one from an unsupported type now
          // reads the mapped value, so nothing else changes.
          break;
      }
      // Operands of other statements were retyped in place, so binary ops
      // still see equal types.
      b.stmts.push_back(std::move(owned));
      if (after) b.add(std::move(after));
    }
  }
};

}  // namespace

void legalize_dtypes(Kernel& k, const std::function<bool(Prim)>& supported, const std::string& engine, CastMode mode,
                     const TypeConfig& types) {
  Legalizer l{k, supported, engine, mode, types, {}};
  l.run(k.root);
  for (auto& f : k.funcs) legalize_dtypes(*f, supported, engine, mode, types);
}

}  // namespace kiln::ir
