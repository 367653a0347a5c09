// Four (or two) iterations of a parallel loop a pass, their data-dependent
// while loops run in lockstep (JamKind kJamWhile). With two:
//
//   for i in range(N):               for k in range((N + 1) // 2):
//     pre(i)                            i0 = 2k; i1 = i0 + 1   (an odd N's last i alone)
//     while True:                       pre(i0); pre(i1); live0 = live1 = 1
//       if c(i): break          ->      while True:
//       step(i)                           if live0: (if c(i0): live0 = 0) (if live0: step(i0))
//     post(i)                             if live1: (the same for i1)
//                                         if not (live0 | live1): break
//                                       post(i0); post(i1)
//
// Why: such a loop (an escape-time fractal's, an iteration to convergence)
// is one chain of dependent float operations, each waiting for the one
// before (bench/mandelbrot_break: x * x - y * y + cx, ~8.5 cycles an
// iteration on this host's Zen 4, g++'s code and LLVM's alike). Two pixels'
// chains are independent: run turn about in one loop, the core overlaps
// them (a C++ copy of the bench so written: two pixels 0.56x the time, four
// 0.35x, the same counts). Four copies where the loop is small (its copies'
// values then fit the registers), else two.
//
// It changes nothing any engine computes: each copy runs its own statements
// in their order on its own locals; a copy whose loop has ended skips its
// turns. Only the order of the iterations' parts changes: i1's part before
// the loop and its loop now run before i0's part after the loop. So
// those two must be pure, which the check asks: they read and write locals
// only (no global access, no call, print or random draw) and nothing in them
// can fail (no integer division by a variable); a break inside leaves that
// while loop only (no continue, no inner loop). The parts after the loop run
// in the iterations' order, and may do anything that does not leave the
// task's iteration early.
#include <vector>

#include "vm/ir/passes/jam_copy.h"
#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

constexpr size_t kMaxLoop = 200;  // statements in the while loop (for two copies; four take half)
constexpr size_t kMaxBody = 600;

// Computes from locals, constants and arguments, and cannot fail.
bool pure(const Stmt* s) {
  switch (s->kind) {
    case StmtKind::const_: case StmtKind::arg_load: case StmtKind::unary: case StmtKind::binary:
    case StmtKind::select: case StmtKind::fma: case StmtKind::alloca: case StmtKind::local_load:
    case StmtKind::local_store: case StmtKind::if_:
      return !jam_may_fail(s);
    default: return false;
  }
}

class JamWhile {
 public:
  explicit JamWhile(Stmt* task) : task_(task), cp_{task} {}

  bool check() {
    const Stmt* t = task_;
    if (!jammable_task(t)) return false;
    const Block& b = *t->body;
    for (size_t i = 0; i < b.stmts.size(); i++)
      if (b.stmts[i]->kind == StmtKind::while_) {
        if (loop_) return false;  // one while loop
        loop_ = b.stmts[i].get();
        at_ = i;
      }
    if (!loop_ || count_stmts(*loop_->body) > kMaxLoop || count_stmts(b) > kMaxBody) return false;
    bool ok = true, breaks = false;
    auto visit = [&](Stmt* s, size_t part) {  // part: 0 before the loop, 1 in it, 2 after it
      switch (s->kind) {
        case StmtKind::loop_index: ok &= part != 1 && s->loop == task_ && s->index == 0; return;
        case StmtKind::break_:
          ok &= part == 1 && s->loop == loop_;
          breaks = true;
          return;
        case StmtKind::while_: case StmtKind::range_for: case StmtKind::continue_: case StmtKind::print:
        case StmtKind::assert_: case StmtKind::random: case StmtKind::return_: case StmtKind::offloaded:
        case StmtKind::ad_stack: case StmtKind::ad_push: case StmtKind::ad_pop: case StmtKind::ad_top:
        case StmtKind::call: case StmtKind::call_ret: case StmtKind::shared_array: case StmtKind::shared_ptr:
        case StmtKind::simt: case StmtKind::matrix_init: case StmtKind::matrix_extract:
          ok = false;
          return;
        default: ok &= part == 2 || pure(s); return;
      }
    };
    for (size_t i = 0; i < b.stmts.size(); i++) {
      size_t part = i < at_ ? 0 : i == at_ ? 1 : 2;
      Stmt* s = b.stmts[i].get();
      if (s != loop_) visit(s, part);
      if (s->body) walk(*s->body, [&](Stmt* x) { visit(x, part); });
      if (s->else_body) walk(*s->else_body, [&](Stmt* x) { visit(x, part); });
    }
    return ok && breaks && float_chain();
  }

  // Four iterations a pass where the loop is small enough for four copies'
  // values to stay in registers and the count holds four, else two.
  int copies() const {
    return task_->end - task_->begin >= 4 && count_stmts(*loop_->body) <= kMaxLoop / 2 ? 4 : 2;
  }
  // One copy a lane (kJamWhileLanes): 8 f32 lanes of a ymm register, 4 of
  // f64; 0 where the loop is too long for that many copies or the range
  // holds fewer.
  int lane_copies() const {
    int k = carries(Prim::f64) ? 4 : 8;
    return task_->end - task_->begin >= k && count_stmts(*loop_->body) <= kMaxLoop / 4 ? k : 0;
  }

  void rewrite(int K) {
    StmtList old = take_all(*task_->body);
    std::vector<JamMap> maps(K);
    Block* group = cp_.open_group(old, maps);
    for (JamMap& m : maps) cp_.copy(old, 0, at_, *group, m);
    SourceLoc loc = loop_->loc;
    Type i32 = Type::scalar(Prim::i32);
    auto konst = [&](int64_t v) {
      auto c = make_stmt(StmtKind::const_, i32, loc);
      c->value = Const::of_int(Prim::i32, v);
      return group->add(std::move(c));
    };
    Stmt* one = konst(1);
    zero_ = konst(0);
    std::vector<Stmt*> live(K);
    for (Stmt*& l : live) {
      l = group->add(make_stmt(StmtKind::alloca, i32, loc));
      group->add(make_stmt(StmtKind::local_store, Type{}, loc, {l, one}));
    }
    Stmt* loop = group->add(clone_stmt(*loop_));
    loop->body = std::make_unique<Block>();
    loop->body->owner = loop;
    Block& in = *loop->body;
    for (int c = 0; c < K; c++) {
      Stmt* turn = in.add(JamCopier::new_if(in.add(make_stmt(StmtKind::local_load, i32, loc, {live[c]})), loc));
      guarded(loop_->body->stmts, 0, *turn->body, live[c], maps[c]);
      JamCopier::relink_from(*turn->body, 0, maps[c]);
    }
    Stmt* any = nullptr;
    for (Stmt* l : live) {
      Stmt* v = in.add(make_stmt(StmtKind::local_load, i32, loc, {l}));
      if (!any) {
        any = v;
        continue;
      }
      auto o = make_stmt(StmtKind::binary, i32, loc, {any, v});
      o->bop = BinaryOp::bit_or;
      any = in.add(std::move(o));
    }
    auto done = make_stmt(StmtKind::binary, i32, loc, {any, zero_});
    done->bop = BinaryOp::cmp_eq;
    Stmt* end = in.add(JamCopier::new_if(in.add(std::move(done)), loc));
    end->body->add(make_stmt(StmtKind::break_, Type{}, loc))->loop = loop;
    for (JamMap& m : maps) cp_.copy(old, at_ + 1, old.size(), *group, m);
    cp_.close_group(K);
  }

 private:
  // The loops that gain: the loop carries a float value (stores one into a
  // local declared before it), a chain of 3-4 cycle operations that the
  // copies' chains overlap. An integer loop's chain is of 1-cycle operations;
  // its cost is its branches, and in lockstep the copies run as long as the
  // longest of them (bench/early_exits' collatz steps, 1 to 48 a number:
  // 0.44x -> 0.68x the C++'s time jammed).
  bool float_chain() const { return carries(Prim::f32) || carries(Prim::f64); }
  // Whether the loop stores a `p` into a local declared before it.
  bool carries(Prim p) const {
    bool found = false;
    walk(*loop_->body, [&](Stmt* s) {
      if (s->kind != StmtKind::local_store || inside_loop(s->ops[0], loop_)) return;
      found |= s->ops[1]->type.prim == p;
    });
    return found;
  }
  static bool holds_break(const Stmt& s) {
    bool found = false;
    for (const auto* b : {s.body.get(), s.else_body.get()})
      if (b) walk(const_cast<Block&>(*b), [&](Stmt* x) { found |= x->kind == StmtKind::break_; });
    return found;
  }
  // Copies statements [from, end) of a block of the loop's body to `out`
  // for one copy: its break clears the copy's live flag (what follows it in
  // its block never runs), and what follows a statement holding a break runs
  // under `if live`.
  void guarded(const StmtList& src, size_t from, Block& out, Stmt* live, JamMap& m) {
    SourceLoc loc = loop_->loc;
    for (size_t i = from; i < src.size(); i++) {
      const Stmt& s = *src[i];
      if (s.kind == StmtKind::break_) {
        out.add(make_stmt(StmtKind::local_store, Type{}, loc, {live, zero_}));
        return;
      }
      if (!holds_break(s)) {
        cp_.copy_one(s, out, m);
        continue;
      }
      Stmt* n = out.add(clone_stmt(s));
      n->frame = s.frame;
      m[&s] = n;
      for (auto [from_b, to_b] : {std::pair{s.body.get(), &n->body}, std::pair{s.else_body.get(), &n->else_body}}) {
        if (!from_b) continue;
        *to_b = std::make_unique<Block>();
        (*to_b)->owner = n;
        guarded(from_b->stmts, 0, **to_b, live, m);
      }
      if (i + 1 == src.size()) return;
      Stmt* rest = out.add(JamCopier::new_if(out.add(make_stmt(StmtKind::local_load, Type::scalar(Prim::i32), loc, {live})), loc));
      guarded(src, i + 1, *rest->body, live, m);
      return;
    }
  }

  Stmt* task_;
  JamCopier cp_;
  Stmt* loop_ = nullptr;
  size_t at_ = 0;  // the while loop's position in the body
  Stmt* zero_ = nullptr;
};

}  // namespace

namespace {
bool jam_while_lanes_task(const Stmt* t) {
  if (t->kind != StmtKind::offloaded || !jammable_task(t)) return false;
  for (const auto& s : t->body->stmts)
    if (s->kind == StmtKind::while_) return true;
  return false;
}

}  // namespace

bool jam_while_lanes_wanted(const Kernel& k) {
  if (k.keep_names) return false;
  for (const auto& t : k.root.stmts)
    if (jam_while_lanes_task(t.get())) return true;
  return false;
}

int jam_while_loops(Stmt* task, bool lanes) {
  JamWhile j(task);
  if (!j.check()) return 1;
  int K = lanes ? j.lane_copies() : j.copies();
  if (K == 0) return 1;
  j.rewrite(K);
  return K;
}

}  // namespace kiln::ir
