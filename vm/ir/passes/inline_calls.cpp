// Inlines ti.real_func calls whose callee can never recurse and returns only
// at its end: such a call means exactly its body, so the engines see one
// straight-line program (the JIT traces through it, the LLVM tier compiles
// it, Vulkan runs it, autodiff differentiates it), and only recursive or
// early-returning functions stay real calls (op call).
//
// A callee qualifies when its body holds no call (so it cannot recurse) and
// no ti.random draw, and its one return is its last top-level statement. Functions are visited
// first, to a fixpoint: one whose calls were all inlined may qualify next.
// The copy maps the callee's argument loads to the call's operands and the
// call's results to the return's operands; its inline frames join the
// caller's, under the call's frame, so the debugger shows the function.
#include <unordered_map>

#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

// A call, or a ti.random draw: the callee's draws are keyed by its own
// stream index (0), which copied into a parallel loop would give every
// iteration the same numbers; as a call, they key from the caller's stream.
bool stays_call(Block& b) {
  bool c = false;
  walk(b, [&](Stmt* s) { c |= s->kind == StmtKind::call || s->kind == StmtKind::random; });
  return c;
}

// The callee's one return, its last top-level statement; null if it has others.
const Stmt* final_return(Kernel& f) {
  int n = 0;
  walk(f.root, [&](Stmt* s) { n += s->kind == StmtKind::return_; });
  if (n != 1 || f.root.stmts.empty() || f.root.stmts.back()->kind != StmtKind::return_) return nullptr;
  return f.root.stmts.back().get();
}

// Whether `call`'s ndarray arguments (the slots the callee's accesses name)
// are the caller's own argument loads, so the copy can name the caller's slots.
bool can_inline(Kernel& f, const Stmt* call) {
  bool ok = true;
  walk(f.root, [&](Stmt* s) {
    if (s->kind != StmtKind::global_ptr || s->access->ext_arg < 0) return;
    size_t a = (size_t)s->access->ext_arg;
    ok &= a < call->ops.size() && call->ops[a]->kind == StmtKind::arg_load;
  });
  return ok;
}

struct Copier {
  const Stmt* call = nullptr;
  int frame_base = 0;
  std::unordered_map<const Stmt*, Stmt*> map;  // callee statement -> its copy (or the call's operand)

  Stmt* mapped(Stmt* s) const {
    auto it = map.find(s);
    return it == map.end() ? s : it->second;
  }
  void copy_block(const Block& from, Block& to) {
    for (auto& s : from.stmts) {
      if (s->kind == StmtKind::return_) continue;  // the final one: its operands are the results
      if (s->kind == StmtKind::arg_load) {
        map[s.get()] = call->ops[(size_t)s->index];
        continue;
      }
      auto c = clone_stmt(*s);
      for (Stmt*& o : c->ops) o = mapped(o);
      // An ndarray parameter's accesses name its argument slot: the caller's
      // slot of the same array (can_inline checked it is an argument load).
      if (c->kind == StmtKind::global_ptr && c->access->ext_arg >= 0)
        c->access->ext_arg = call->ops[(size_t)c->access->ext_arg]->index;
      if (c->loop) c->loop = mapped(c->loop);
      c->frame = frame_base + s->frame;
      Stmt* placed = to.add(std::move(c));
      map[s.get()] = placed;  // before its blocks: a break or loop index inside names it
      if (s->body) {
        placed->body = std::make_unique<Block>();
        placed->body->owner = placed;
        copy_block(*s->body, *placed->body);
      }
      if (s->else_body) {
        placed->else_body = std::make_unique<Block>();
        placed->else_body->owner = placed;
        copy_block(*s->else_body, *placed->else_body);
      }
    }
  }
};

struct Inliner {
  std::vector<std::unique_ptr<Kernel>>& funcs;
  std::vector<const Stmt*> returns;  // per function: its final return when it qualifies
  std::unordered_map<const Stmt*, Stmt*> results;  // call_ret -> the inlined value
  // The calls and results inlined away, kept alive to the end: a new
  // statement at a freed one's address would be taken for it.
  StmtList gone;
  bool changed = false;

  Stmt* resolve(Stmt* v) const {
    for (auto it = results.find(v); it != results.end(); it = results.find(v)) v = it->second;
    return v;
  }
  // Inlines into `holder`'s body, then points every use of an inlined call's
  // result at its value (before `holder` itself may be copied into a caller).
  void run(Kernel& holder) {
    changed = false;
    block(holder, holder.root);
    if (!changed) return;
    walk(holder.root, [&](Stmt* s) {
      for (Stmt*& o : s->ops) o = resolve(o);
    });
  }

  // Inlines the qualifying calls of `b`, a block of `holder` (the kernel or a function).
  void block(Kernel& holder, Block& b) {
    StmtList old = take_all(b);
    std::unordered_map<const Stmt*, std::vector<Stmt*>> inlined;  // call -> its results
    for (auto& sp : old) {
      Stmt* s = sp.get();
      if (s->kind == StmtKind::call_ret) {
        auto it = inlined.find(s->ops[0]);
        if (it != inlined.end()) {
          results[s] = resolve(it->second.at((size_t)s->index));
          gone.push_back(std::move(sp));
          continue;
        }
      }
      if (s->kind == StmtKind::call && s->index >= 0 && (size_t)s->index < returns.size() && returns[(size_t)s->index] &&
          can_inline(*funcs[(size_t)s->index], s)) {
        Kernel& f = *funcs[(size_t)s->index];
        for (Stmt*& o : s->ops) o = resolve(o);  // an earlier inlined call's result
        Copier c;
        c.call = s;
        c.frame_base = (int)holder.frames.size();
        for (size_t j = 0; j < f.frames.size(); j++) {
          InlineFrame fr = f.frames[j];
          fr.parent = j == 0 ? s->frame : c.frame_base + fr.parent;
          if (j == 0) fr.call = s->loc;
          holder.frames.push_back(fr);
        }
        c.copy_block(f.root, b);
        std::vector<Stmt*>& out = inlined[s];
        for (Stmt* r : returns[(size_t)s->index]->ops) out.push_back(c.mapped(r));
        changed = true;
        gone.push_back(std::move(sp));
        continue;
      }
      if (s->body) block(holder, *s->body);
      if (s->else_body) block(holder, *s->else_body);
      b.stmts.push_back(std::move(sp));
    }
  }

  void qualify() {
    returns.assign(funcs.size(), nullptr);
    for (size_t i = 0; i < funcs.size(); i++)
      if (!stays_call(funcs[i]->root)) returns[i] = final_return(*funcs[i]);
  }
};

}  // namespace

bool inline_calls(Kernel& k) {
  if (k.funcs.empty()) return false;
  Inliner in{k.funcs, {}, {}, {}, false};
  // Functions first, until none changes: inlining may make a caller qualify.
  bool any = false;
  for (size_t round = 0; round <= k.funcs.size(); round++) {
    bool more = false;
    in.qualify();
    for (auto& f : k.funcs) {
      in.run(*f);
      more |= in.changed;
    }
    any |= more;
    if (!more) break;
  }
  in.qualify();
  in.run(k);
  return any || in.changed;
}

}  // namespace kiln::ir
