// IR -> bytecode for ti.real_func calls (op call, Function::calls) and for
// the kernel-wide table of real functions they run.
#include "vm/bytecode/builder.h"
#include "vm/bytecode/flat_rows.h"
#include "vm/ir/clone.h"

namespace kiln::bc {

// A ti.real_func call: arguments travel in the launch representation (f16
// and bf16 as their 16-bit encoding, as kernel arguments do), and results
// come back the same way into registers reserved for this call.
void lower_call(Builder& b, const ir::Stmt& s) {
  if (s.index < 0 || (size_t)s.index >= b.func_rets.size()) b.fail("call of a function the kernel does not have");
  CallDesc d;
  d.callee = (uint32_t)s.index;
  d.name = s.rare().text;
  for (const ir::Stmt* a : s.ops) {
    uint16_t r = b.reg(a);
    Prim p = a->type.prim;
    if (p == Prim::f16 || p == Prim::bf16) {
      uint16_t t = b.new_reg();
      b.emit(Op::bitcast, t, r, (uint16_t)((int)p | (int)Prim::u16 << 8));
      r = t;
    }
    d.args.push_back(r);
  }
  d.nrets = (uint16_t)b.func_rets[(size_t)s.index];
  d.ret_base = b.new_regs(d.nrets);
  b.call_base[b.ix.at(&s)] = d.ret_base;
  if (b.fn.calls.size() >= 0xffff) b.fail("more than 65535 calls in one task");
  b.fn.calls.push_back(std::move(d));
  b.emit(Op::call, (uint16_t)(b.fn.calls.size() - 1));
}

void lower_call_ret(Builder& b, const ir::Stmt& s) {
  if (!b.ix.in(s.ops[0]) || b.call_base[b.ix.at(s.ops[0])] < 0) b.fail("call result before its call");
  int base = b.call_base[b.ix.at(s.ops[0])];
  uint16_t r = b.def(&s);
  b.emit(Op::mov, r, (uint16_t)(base + s.index));
  Prim p = s.type.prim;
  if (p == Prim::f16 || p == Prim::bf16) b.emit(Op::bitcast, r, r, (uint16_t)((int)Prim::u16 | (int)p << 8));
}

namespace {

// Whether ids run in pre-order from `next` over b, in ir::walk's order (what
// TaskIndex needs).
bool numbered(const ir::Block& b, int& next) {
  for (auto& s : b.stmts) {
    if (s->id != next++) return false;
    for (ir::Block* blk : {s->tls_prologue(), s->body.get(), s->else_body.get(), s->tls_epilogue()})
      if (blk && !numbered(*blk, next)) return false;
  }
  return true;
}

// The statements of a kernel's (or real function's) root when their ids run
// in pre-order from 0, else -1: lower_tasks takes each task's size from the
// ids, without a walk of its own.
int numbered(const ir::Block& root) {
  int next = 0;
  return numbered(root, next) ? next : -1;
}

Kernel lower_all(const ir::Kernel& k, bool keep_vars, bool flat_rows, const WordRowsOf& word_rows = {}) {
  // run_pipeline numbers what it passes on; IR built by hand is numbered
  // here, in a copy.
  int n = numbered(k.root);
  bool ok = n >= 0;
  std::vector<int> fn_stmts;
  for (auto& f : k.funcs) {
    fn_stmts.push_back(numbered(f->root));
    ok &= fn_stmts.back() >= 0;
  }
  if (!ok) {
    auto copy = ir::clone_kernel(k);
    copy->renumber();
    for (auto& f : copy->funcs) f->renumber();
    return lower_all(*copy, keep_vars, flat_rows, word_rows);
  }
  std::vector<int> func_rets;
  for (auto& f : k.funcs) func_rets.push_back((int)f->rets.size());
  Kernel out = lower_tasks(k, n, keep_vars, flat_rows, func_rets, word_rows);
  if (k.funcs.empty()) return out;
  // Real functions run in their caller's thread: one serial task each.
  out.funcs = std::make_shared<std::vector<Kernel>>();
  for (size_t i = 0; i < k.funcs.size(); i++) {
    const ir::Kernel* f = k.funcs[i].get();
    out.funcs->push_back(lower_tasks(*f, fn_stmts[i], keep_vars, false, func_rets));
    for (auto& t : out.funcs->back().tasks)
      if (t.kind != ir::Task::serial)
        raise("InternalError", "bytecode lowering of ti.real_func '" + f->name + "': a " + ir::task_name(t.kind) +
                                   " task (a real function's body must be serial)", f->loc);
  }
  for (auto& t : out.tasks) t.fn.callees = out.funcs.get();
  for (auto& f : *out.funcs)
    for (auto& t : f.tasks) t.fn.callees = out.funcs.get();
  return out;
}

}  // namespace

Kernel lower_kernel(const ir::Kernel& k, bool keep_vars) { return lower_all(k, keep_vars, false); }

Kernel lower_kernel_flat_rows(const ir::Kernel& k, const WordRowsOf& word_rows) {
  return lower_all(k, false, true, word_rows);
}

}  // namespace kiln::bc
