// The reverse-mode builder's state, shared by its files: reverse.cpp (the
// design, forward values, adjoints, one IB, make_adjoint), reverse_fwd.cpp
// (FWD: the forward code again) and reverse_rev.cpp (REV: the statements
// backwards). Internal to vm/autodiff.
#pragma once
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "vm/autodiff/autodiff.h"
#include "vm/autodiff/derivatives.h"

namespace kiln::autodiff::rev {

using ir::Block;
using ir::Stmt;
using ir::StmtKind;


struct Ib;
struct Val {  // a forward value of the adjoint kernel, and the IB it lives in
  Ib* ib = nullptr;
  Stmt* v = nullptr;
};

struct Ib {
  Ib* parent = nullptr;
  Block* top = nullptr;                                // FWD, then REV
  ir::StmtList front;  // adjoint allocas and tapes (prepended)
  std::unordered_map<const Stmt*, Val> fwd;            // source statement -> its forward value
  std::unordered_map<const Stmt*, const Stmt*> origin; // forward clone -> source (for pops)
  std::unordered_map<const Stmt*, Val> outer_alloca;   // local declared outside -> its value here
  std::unordered_map<const Stmt*, Stmt*> adj;          // source value/local -> adjoint alloca
  std::unordered_map<const Stmt*, Stmt*> tape;         // forward clone -> ad_stack
  std::vector<Stmt*> pushes;                           // forward clones to push after
  std::unordered_map<const Stmt*, Stmt*> loops;        // source loop -> loop in the output
  std::unordered_map<const Stmt*, Val> count;          // carried loop -> its trip count
  std::unordered_map<const Stmt*, std::unordered_map<const Stmt*, Val>> snapshots;  // skipped loop -> locals
  std::unordered_map<const Stmt*, std::vector<Stmt*>> own_snapshots;  // the loads this IB made for them
  bool root = false;
  // The independent loop whose body this IB is, when it runs backwards (a
  // serial inner loop: iteration i may read what i - 1 wrote to global data,
  // so the adjoints go last iteration first, as in Taichi).
  const Stmt* reversed = nullptr;
  Stmt* rev_begin = nullptr;
  Stmt* rev_end = nullptr;
};

// Locals declared inside a block (its subtree).
void declared_in(const Block& b, std::unordered_set<const Stmt*>& out);
// Does the block write a local declared outside `inside`, or leave `loop` early?
bool writes_outside(const Block& b, const std::unordered_set<const Stmt*>& inside, const Stmt* loop);
// The locals declared outside `inside` that the block reads, in first-read order.
void reads_outside(const Block& b, const std::unordered_set<const Stmt*>& inside, std::vector<const Stmt*>& out,
                   std::unordered_set<const Stmt*>& seen);

struct Reverse {
  const CompanionFn& grad_of;
  int default_cap;
  Ib* ib = nullptr;   // the IB being generated
  Block* cur = nullptr;  // where code goes now

  Stmt* add(std::unique_ptr<Stmt> s) { return cur->add(std::move(s)); }
  Stmt* make(StmtKind kind, Type t, std::vector<Stmt*> ops, SourceLoc loc) {
    auto s = std::make_unique<Stmt>(kind);
    s->type = t;
    s->ops = std::move(ops);
    s->loc = loc;
    return add(std::move(s));
  }
  Emit emit(SourceLoc loc) { return Emit(*cur, loc); }
  // The if `s` again with condition `cond`, its arms filled by `walk` (FWD
  // or REV of the source arms).
  void walk_if(const Stmt* s, Stmt* cond, void (Reverse::*walk)(const Block&));

  // ---- forward values --------------------------------------------------
  Val lookup(const Stmt* s);
  int64_t trip(const Stmt* loop) const;
  Stmt* tape_of(Val v);
  // A forward value where the code now goes. A constant is made again
  // rather than taped.
  Stmt* resolve(Val v);
  Stmt* primal(const Stmt* s) { return resolve(lookup(s)); }
  // An operand while cloning forward code: this IB's clones are in scope.
  Stmt* fwd_op(const Stmt* s);

  // ---- adjoints ------------------------------------------------------
  Ib* owner_of(const Stmt* s);
  Stmt* adj_of(const Stmt* s);
  // A value's adjoint, null while nothing has added to it. A local's adjoint
  // always exists: in a loop, a later iteration's reads (emitted after this
  // point) may have added to it already.
  Stmt* read_adj(const Stmt* s);
  void reset_adj(const Stmt* s);
  bool real_target(const Stmt* s);
  // Can an adjoint flowing into `s` reach data with a gradient? Constants,
  // loads of data without one and what is computed from those only cannot:
  // their adjoints are never built, nor the primal values (often taped) that
  // their partials would need. Locals and the rest count as varying.
  std::unordered_map<const Stmt*, bool> varying;
  bool varies(const Stmt* s);
  void accumulate(const Stmt* s, Stmt* g);

  // ---- companions of global data -------------------------------------
  std::optional<ir::Access> companion(const Stmt* ptr);
  Stmt* grad_ptr(const Stmt* ptr, const ir::Access& acc);

  // ---- FWD -----------------------------------------------------------
  bool independent(const Stmt* s);
  void fwd_block(const Block& src);
  void set(const Stmt* s, Stmt* clone);
  void fwd_stmt(const Stmt* s);
  void skip_independent(const Stmt* s);
  void fwd_carried(const Stmt* s);

  // ---- REV -----------------------------------------------------------
  void rev_block(const Block& src);
  void rev_value(const Stmt* s);
  void rev_stmt(const Stmt* s);
  void rev_atomic(const Stmt* s);
  void rev_carried(const Stmt* s);
  void rev_independent(const Stmt* s);

  // ---- one IB --------------------------------------------------------
  void run_ib(const Block& src, Ib& me);
  // Pushes after their values, adjoints and tapes first in the IB.
  void finish(Ib& me);
};

}  // namespace kiln::autodiff::rev
