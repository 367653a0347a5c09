// Loop exits as flags, so that autodiff sees structured bodies.
//
// The adjoint of a loop runs the body's adjoint once per forward iteration,
// last first. A `break` or `continue` in the middle of a body means that the
// tail of that iteration did not run, which the adjoint must know without
// re-running the forward code. So before differentiating, every loop whose
// body exits early is rewritten (same semantics):
//
//   while { a; if c { break }; b }
//   ->  brk = 0
//       while { ex = 0; a; if c { ex = 1; brk = 1 }; if !ex { b }; if brk { break } }
//
// `ex` (this iteration is over) guards whatever follows a statement that may
// exit; `brk` ends the loop at the body's end, its only exit. The guards are
// plain ifs on loaded flags: the adjoint reverses them like any other if.
#include "vm/autodiff/autodiff.h"
#include "vm/ir/builder.h"

namespace kiln::autodiff {

using ir::Block;
using ir::Stmt;
using ir::StmtKind;

namespace {

// Does `b` hold a break/continue of `loop` (in nested ifs or loops)?
bool exits(const Block& b, const Stmt* loop, StmtKind kind) {
  for (auto& s : b.stmts) {
    if (s->kind == kind && s->loop == loop) return true;
    if (s->body && exits(*s->body, loop, kind)) return true;
    if (s->else_body && exits(*s->else_body, loop, kind)) return true;
  }
  return false;
}
bool exits_any(const Block& b, const Stmt* loop) {
  return exits(b, loop, StmtKind::break_) || exits(b, loop, StmtKind::continue_);
}

struct Exits {
  Stmt* loop = nullptr;
  Stmt* ex = nullptr;   // this iteration is over
  Stmt* brk = nullptr;  // the loop is over

  Stmt* store(Block& b, Stmt* var, int v, SourceLoc loc) {
    Stmt* one = b.add(ir::make_stmt(StmtKind::const_, Type::scalar(Prim::i32), loc));
    one->value = ir::Const::of_int(Prim::i32, v);
    return b.add(ir::make_stmt(StmtKind::local_store, Type::none(), loc, {var, one}));
  }

  // Rebuilds `b`: exits of `loop` become flag stores, and what follows a
  // statement that may exit goes under `if !ex`.
  void guard(Block& b) {
    ir::StmtList in = ir::take_all(b);
    Block* out = &b;
    for (auto& owned : in) {
      Stmt* s = owned.get();
      if ((s->kind == StmtKind::break_ || s->kind == StmtKind::continue_) && s->loop == loop) {
        store(*out, ex, 1, s->loc);
        if (s->kind == StmtKind::break_) store(*out, brk, 1, s->loc);
        return;  // the rest of this block never runs
      }
      bool may_exit = s->kind == StmtKind::if_ && exits_any(*s, loop);
      if (may_exit) {
        guard(*s->body);
        if (s->else_body) guard(*s->else_body);
      }
      out->add(std::move(owned));
      if (may_exit) {
        SourceLoc loc = s->loc;
        Stmt* flag = out->add(ir::make_stmt(StmtKind::local_load, Type::scalar(Prim::i32), loc, {ex}));
        Stmt* zero = out->add(ir::make_stmt(StmtKind::const_, Type::scalar(Prim::i32), loc));
        zero->value = ir::Const::of_int(Prim::i32, 0);
        Stmt* go = out->add(ir::make_stmt(StmtKind::binary, Type::scalar(Prim::i32), loc, {flag, zero}));
        go->bop = ir::BinaryOp::cmp_eq;
        Stmt* iff = out->add(ir::make_stmt(StmtKind::if_, Type::none(), loc, {go}));
        ir::Builder::new_block(iff->body, iff);
        out = iff->body.get();
      }
    }
  }
  static bool exits_any(const Stmt& s, const Stmt* loop) {
    return (s.body && ::kiln::autodiff::exits_any(*s.body, loop)) ||
           (s.else_body && ::kiln::autodiff::exits_any(*s.else_body, loop));
  }
};

void run(Block& b) {
  ir::StmtList in = ir::take_all(b);
  for (auto& owned : in) {
    Stmt* s = owned.get();
    if (s->body) run(*s->body);
    if (s->else_body) run(*s->else_body);
    bool loop = s->kind == StmtKind::while_ || s->kind == StmtKind::range_for;
    if (loop && exits_any(*s->body, s)) {
      Exits x;
      x.loop = s;
      bool breaks = exits(*s->body, s, StmtKind::break_);
      if (breaks) x.brk = b.add(ir::make_stmt(StmtKind::alloca, Type::scalar(Prim::i32), s->loc));
      // ex is declared first in the body: zero at each iteration's start
      ir::StmtList body = ir::take_all(*s->body);
      x.ex = s->body->add(ir::make_stmt(StmtKind::alloca, Type::scalar(Prim::i32), s->loc));
      for (auto& t : body) s->body->add(std::move(t));
      x.guard(*s->body);
      if (breaks) {
        Stmt* f = s->body->add(ir::make_stmt(StmtKind::local_load, Type::scalar(Prim::i32), s->loc, {x.brk}));
        Stmt* iff = s->body->add(ir::make_stmt(StmtKind::if_, Type::none(), s->loc, {f}));
        ir::Builder::new_block(iff->body, iff);
        Stmt* br = iff->body->add(ir::make_stmt(StmtKind::break_, Type::none(), s->loc));
        br->loop = s;
      }
    }
    b.add(std::move(owned));
  }
}

}  // namespace

void structure_exits(ir::Kernel& k) { run(k.root); }

}  // namespace kiln::autodiff
