// The global data access rule (Taichi's autodiff docs): within what a Tape
// records, a global element that a kernel has read must not be written
// afterwards, because the adjoint recomputes from the data as it is at the
// end. Validating kernels (ti.ad.Tape(validation=True)) check it: every read
// of a field with a gradient marks the element's checkbit, every write first
// asserts that the mark is clear.
#include "vm/autodiff/autodiff.h"
#include "vm/ir/builder.h"

namespace kiln::autodiff {

using ir::Block;
using ir::Stmt;
using ir::StmtKind;

namespace {

struct Checks {
  const CompanionFn& checkbit;
  std::string kernel;

  Stmt* mark_ptr(ir::Builder& b, const Stmt* ptr, const ir::Access& acc) {
    Stmt* p = b.global_ptr(acc, Prim::u8, ptr->ops.vec());
    p->loc = ptr->loc;
    return p;
  }

  void run(Block& blk) {
    ir::StmtList in = ir::take_all(blk);
    ir::Builder b(blk);
    for (auto& owned : in) {
      Stmt* s = owned.get();
      if (s->body) run(*s->body);
      if (s->else_body) run(*s->else_body);
      const Stmt* ptr = s->ops.empty() ? nullptr : s->ops[0];
      bool writes = (s->kind == StmtKind::global_store || s->kind == StmtKind::atomic) && ptr->kind == StmtKind::global_ptr;
      std::optional<ir::Access> cb;
      if ((writes || s->kind == StmtKind::global_load) && ptr->kind == StmtKind::global_ptr) cb = checkbit(ptr->access);
      if (writes && cb) {
        Stmt* p = mark_ptr(b, ptr, *cb);
        Stmt* v = b.global_load(p);
        Stmt* zero = b.const_int(Prim::u8, 0);
        Stmt* ok = b.binary(ir::BinaryOp::cmp_eq, v, zero);
        Stmt* a = b.assert_(ok, "(kernel=" + kernel + ") Breaks the global data access rule. Snode " + ptr->access->snode +
                                    " (field '" + ptr->access->field + "') is overwritten unexpectedly.");
        for (Stmt* x : {v, zero, ok, a}) x->loc = s->loc;
      }
      blk.add(std::move(owned));
      if (s->kind == StmtKind::global_load && cb) {
        Stmt* p = mark_ptr(b, ptr, *cb);
        Stmt* one = b.const_int(Prim::u8, 1);
        b.global_store(p, one)->loc = s->loc;
        one->loc = s->loc;
      }
    }
  }
};

}  // namespace

void add_access_checks(ir::Kernel& k, const CompanionFn& checkbit) {
  Checks c{checkbit, k.name};
  c.run(k.root);
}

}  // namespace kiln::autodiff
