// IR -> bytecode: one Function per offloaded task. This file holds control
// flow (if/while/range_for/break/continue), locals, print, assert, return and
// the tasks; builder.cpp the Builder; lower_expr.cpp the value computations.

#include "vm/bytecode/builder.h"

namespace kiln::bc {

namespace {

// ---- statements and control flow ------------------------------------------------

// `if x == 0:` on an int x, compared by the statement just lowered and read
// by nothing else (a while loop's exit test, `if not (n != 1): break`),
// branches on x itself: the compare (and its 0, when just loaded for it
// alone) are taken back, and jnz replaces jz. They only wrote dead registers,
// so jump targets at or after them now land on the branch, which follows.
// Returns the register to test and sets `jump`.
uint16_t zero_test(Builder& b, const ir::Stmt* c, Op& jump) {
  jump = Op::jz;
  uint16_t creg = b.reg(c);
  if (c->kind != ir::StmtKind::binary || c->bop != ir::BinaryOp::cmp_eq || !c->name.empty()) return creg;
  const ir::Stmt* x = c->ops[0];
  const ir::Stmt* k = c->ops[1];
  if (!prim_is_int(x->type.prim) || k->kind != ir::StmtKind::const_ || k->value.u != 0) return creg;
  if (b.use_count(c) != 1 || b.last_stmt != c || b.here() != b.last_start + 1) return creg;
  Insn cmp = b.fn.code.back();
  if (cmp.op < Op::cmp_eq_i32 || cmp.op > Op::cmp_eq_u64 || cmp.a != creg || cmp.b != b.reg(x)) return creg;
  auto drop = [&] {
    b.fn.code.pop_back();
    b.fn.lines.pop_back();
    b.fn.frame_at.pop_back();
  };
  drop();
  if (b.use_count(k) == 1 && !b.flag(b.hoisted, k) && !b.fn.code.empty() &&
      b.fn.code.back().op == Op::kimm && b.fn.code.back().a == cmp.c && b.fn.code.back().d() == 0)
    drop();
  b.last_stmt = nullptr;  // its code is gone: nothing may fuse into it
  jump = Op::jnz;
  return cmp.b;
}

void lower_if(Builder& b, const ir::Stmt& s) {
  Op jump;
  uint16_t cond = zero_test(b, s.ops[0], jump);
  uint32_t jz = b.emit_d(jump, cond, 0);
  if (s.body) lower_block(b, *s.body);
  if (s.else_body && !s.else_body->stmts.empty()) {
    uint32_t jend = b.emit_d(Op::jmp, 0, 0);
    b.patch(jz, b.here());
    lower_block(b, *s.else_body);
    b.patch(jend, b.here());
  } else {
    b.patch(jz, b.here());
  }
}

}  // namespace

void close_loop(Builder& b, uint32_t cont_target, uint32_t exit_target) {
  for (uint32_t pc : b.loops.back().continues) b.patch(pc, cont_target);
  for (uint32_t pc : b.loops.back().breaks) b.patch(pc, exit_target);
  b.loops.pop_back();
}

namespace {

// A while loop whose body ends in its own break and never continues runs
// its body at most once: a ti.func with an early return is inlined as such a
// loop (each return breaks out of it). It gets no `loop` op: there is no
// back edge to count, and a JIT that treated each entry as one would try to
// trace a loop that always leaves.
bool runs_once(const ir::Stmt& s) {
  if (!s.body || s.body->stmts.empty()) return false;
  const ir::Stmt& last = *s.body->stmts.back();
  if (last.kind != ir::StmtKind::break_ || last.loop != &s) return false;
  bool continues = false;
  ir::walk(*s.body, [&](ir::Stmt* t) { continues |= t->kind == ir::StmtKind::continue_ && t->loop == &s; });
  return !continues;
}

void lower_while(Builder& b, const ir::Stmt& s) {
  if (runs_once(s)) {
    b.loops.push_back({&s, 0, {}, {}});
    lower_block(b, *s.body);
    close_loop(b, b.here(), b.here());
    return;
  }
  uint16_t counter = b.new_reg();
  b.emit_d(Op::kimm, counter, 0);
  uint32_t head = b.emit(Op::loop, counter);
  b.fn.loops.push_back(LoopInfo{head, 0, counter, false});
  b.loops.push_back({&s, 0, {}, {}});
  if (s.body) lower_block(b, *s.body);
  b.emit_d(Op::jmp, 0, (int32_t)head);
  close_loop(b, head, b.here());
}

bool is_64(Prim p) { return prim_bits(p) == 64; }

// A counted loop over [index, end) held in base, base+1 (counter at base+2).
// The body is emitted by `body`; break/continue targets are patched here.
template <class F>
void counted_loop(Builder& b, const ir::Stmt* loop, uint16_t base, Prim p, F&& body) {
  Op fori = is_64(p) ? Op::fori_i64 : Op::fori_i32;
  Op forl = is_64(p) ? Op::forl_i64 : Op::forl_i32;
  uint32_t pre = b.emit_d(fori, base, 0);
  uint32_t top = b.here();
  b.loops.push_back({loop, base, {}, {}});
  body();
  // The back edge belongs to the loop's own line (a debugger steps through
  // it between iterations), not to the body's last statement.
  if (loop->loc.known()) b.loc = loop->loc;
  b.frame = (uint16_t)loop->frame;
  uint32_t cont = b.emit_d(forl, base, (int32_t)top);
  for (size_t v : b.loops.back().index_vars) b.fn.vars[v].end = b.here();
  b.fn.loops.push_back(LoopInfo{cont, base, (uint16_t)(base + 2), true});
  b.patch(pre, b.here());
  close_loop(b, cont, b.here());
}

void lower_range_for(Builder& b, const ir::Stmt& s) {
  uint16_t base = b.new_regs(3);
  b.emit(Op::mov, base, b.reg(s.ops[0]));
  b.emit(Op::mov, base + 1, b.reg(s.ops[1]));
  b.emit_d(Op::kimm, base + 2, 0);
  counted_loop(b, &s, base, s.ops[0]->type.prim, [&] {
    if (s.body) lower_block(b, *s.body);
  });
}

Builder::Loop* find_loop(Builder& b, const ir::Stmt* loop) {
  for (auto it = b.loops.rbegin(); it != b.loops.rend(); ++it)
    if (it->stmt == loop) return &*it;
  return nullptr;
}

void lower_print(Builder& b, const ir::Stmt& s) {
  for (auto& part : s.rare().print_parts) {
    if (!part.is_value) {
      if (!part.text.empty()) b.emit_d(Op::pr_str, 0, b.add_string(part.text));
      continue;
    }
    if (part.op < 0 || part.op >= (int)s.ops.size()) b.fail("print part names a missing operand");
    const ir::Stmt* v = s.ops[part.op];
    uint16_t spec = part.text.empty() ? kNoStr : b.add_string(part.text);
    b.emit(Op::pr_val, b.reg(v), (uint16_t)v->type.prim, spec);
  }
  b.emit(Op::pr_flush);
}

void lower_assert(Builder& b, const ir::Stmt& s) {
  AssertDesc d;
  d.text = s.rare().text;
  for (size_t i = 1; i < s.ops.size(); i++) {
    d.regs.push_back(b.reg(s.ops[i]));
    d.prims.push_back(s.ops[i]->type.prim);
  }
  b.fn.asserts.push_back(std::move(d));
  b.emit_d(Op::assert_, b.reg(s.ops[0]), (int32_t)b.fn.asserts.size() - 1);
}

// Return slots use the LaunchContext representation: as registers, except
// that f16/bf16 travel as their 16-bit encoding.
void lower_return(Builder& b, const ir::Stmt& s) {
  if ((int)s.ops.size() > b.num_rets) b.fail("return of more values than the kernel declares");
  for (size_t i = 0; i < s.ops.size(); i++) {
    uint16_t r = b.reg(s.ops[i]);
    Prim p = s.ops[i]->type.prim;
    if (p == Prim::f16 || p == Prim::bf16) {
      uint16_t t = b.new_reg();
      b.emit(Op::bitcast, t, r, (uint16_t)((int)p | (int)Prim::u16 << 8));
      r = t;
    }
    b.emit_d(Op::ret, r, (int32_t)i);
  }
  b.emit(Op::end);
}

// `var = value` right after the value's own code, when nothing else reads the
// value: the value's code writes the local's register directly, saving the
// move that accumulation loops would otherwise pay every iteration.
void lower_local_store(Builder& b, const ir::Stmt& s) {
  const ir::Stmt* v = s.ops[1];
  uint16_t to = b.reg(s.ops[0]), from = b.reg(v);
  auto is_reg = [](Mode m) { return m == Mode::dst || m == Mode::reg || m == Mode::acc; };
  // The value's code may read the local itself (an in-place load): once the
  // code has written `to`, no later instruction of it may read the old value.
  auto reads_to_after_write = [&] {
    bool written = false;
    for (uint32_t pc = b.last_start; pc < b.here(); pc++) {
      const Insn& in = b.fn.code[pc];
      const OpInfo& info = kOpInfo[(int)in.op];
      bool reads = (info.a != Mode::dst && is_reg(info.a) && in.a == to) ||
                   (!mode_is_d(info.b) && ((is_reg(info.b) && in.b == to) || (is_reg(info.c) && in.c == to)));
      if (written && reads) return true;
      written |= is_reg(info.a) && info.a != Mode::reg && in.a == from;
    }
    return false;
  };
  if (b.last_stmt == v && b.use_count(v) == 1 && b.last_start < b.here() && from != to &&
      !reads_to_after_write()) {
    for (uint32_t pc = b.last_start; pc < b.here(); pc++) {
      Insn& in = b.fn.code[pc];
      const OpInfo& info = kOpInfo[(int)in.op];
      if (is_reg(info.a) && in.a == from) in.a = to;
      if (mode_is_d(info.b)) continue;
      if (is_reg(info.b) && in.b == from) in.b = to;
      if (is_reg(info.c) && in.c == from) in.c = to;
    }
    b.release(from);
    b.reg_of[b.ix.at(v)] = to;
    b.fused[b.ix.at(v)] = 1;  // its register is the local's now: its death frees nothing
    return;
  }
  b.emit(Op::mov, to, from);
}

void lower_stmt_kind(Builder& b, const ir::Stmt& s);

}  // namespace

void lower_stmt(Builder& b, const ir::Stmt& s) {
  if (b.flag(b.hoisted, &s)) return;  // lowered once, before the task's loop
  uint32_t start = b.here();
  lower_stmt_kind(b, s);
  if (!s.name.empty() && s.type.is_scalar()) {
    Builder::Loop* l = s.kind == ir::StmtKind::loop_index ? find_loop(b, s.loop) : nullptr;
    if (b.has_reg(&s)) {
      uint16_t r = (uint16_t)b.reg_of[b.ix.at(&s)];
      if (!l) {
        if (b.open_on_reg.size() <= r) b.open_on_reg.resize(r + 1, 0);
        b.open_on_reg[r]++;
      }
      (l ? l->index_vars : b.open_vars).push_back(b.fn.vars.size());
      b.fn.vars.push_back(VarRange{r, s.name, b.here(), UINT32_MAX, s.type.prim, (uint16_t)s.frame, s.var_kind});
    }
  }
  b.last_stmt = &s;
  b.last_start = start;
  if (!b.ix.in(&s) || b.dies_after.start.empty()) return;
  uint32_t at = b.ix.at(&s);
  for (uint32_t k = b.dies_after.start[at]; k < b.dies_after.start[at + 1]; k++) {
    uint32_t v = b.ix.at(b.dies_after.values[k]);
    if (b.reg_of[v] >= 0 && !b.fused[v]) b.release((uint16_t)b.reg_of[v]);
  }
}

namespace {

void lower_stmt_kind(Builder& b, const ir::Stmt& s) {
  if (s.loc.known()) b.loc = s.loc;
  b.frame = (uint16_t)s.frame;
  switch (s.kind) {
    case ir::StmtKind::arg_load: {
      if (s.index < 0 || s.index >= b.num_args) b.fail("argument " + std::to_string(s.index) + " does not exist");
      uint16_t r = b.def(&s);
      b.emit_d(Op::arg, r, s.index);
      Prim p = s.type.prim;
      if (p == Prim::f16 || p == Prim::bf16)
        b.emit(Op::bitcast, r, r, (uint16_t)((int)Prim::u16 | (int)p << 8));
      return;
    }
    case ir::StmtKind::alloca: {
      // Taichi zero-initialises a local where it is declared (each iteration).
      b.emit_d(Op::kimm, b.def(&s), 0);
      return;
    }
    case ir::StmtKind::local_load:
      if (b.flag(b.in_place, &s)) b.share(&s, b.reg(s.ops[0]));  // no write before its last read
      else b.emit(Op::mov, b.def(&s), b.reg(s.ops[0]));
      return;
    case ir::StmtKind::local_store: lower_local_store(b, s); return;
    case ir::StmtKind::global_temp:
      if (s.index < 0 || s.index >= b.num_temps) b.fail("global temporary " + std::to_string(s.index) + " does not exist");
      b.emit_d(Op::gtemp, b.def(&s), s.index);
      return;
    case ir::StmtKind::if_: lower_if(b, s); return;
    case ir::StmtKind::while_: lower_while(b, s); return;
    case ir::StmtKind::range_for: lower_range_for(b, s); return;
    case ir::StmtKind::loop_index: {
      Builder::Loop* l = find_loop(b, s.loop);
      if (!l || l->stmt->kind == ir::StmtKind::while_) b.fail("loop index of a loop not enclosing it");
      if (!l->cell_regs.empty()) {  // a word row's cell (lower_word_cells)
        if (s.index < 0 || s.index >= (int)l->cell_regs.size()) b.fail("struct-for index out of range");
        b.share(&s, l->cell_regs[s.index]);
        return;
      }
      if (l->stmt->kind == ir::StmtKind::offloaded && l->stmt->task == ir::Task::struct_for) {
        // The cell's index comes from the launcher's table (register 3): a
        // row of num_loop_indices indices, then the cell's address.
        int n = l->stmt->rare().num_loop_indices;
        if (s.index < 0 || s.index > n || n > 254) b.fail("struct-for index out of range");
        b.emit(Op::sfidx, b.def(&s), l->index_reg, (uint16_t)(s.index | (n + 1) << 8));
        return;
      }
      b.share(&s, l->index_reg);  // read-only inside the body: no copy needed
      return;
    }
    case ir::StmtKind::break_:
    case ir::StmtKind::continue_: {
      Builder::Loop* l = find_loop(b, s.loop);
      if (!l) b.fail("break/continue outside its loop");
      uint32_t j = b.emit_d(Op::jmp, 0, 0);
      (s.kind == ir::StmtKind::break_ ? l->breaks : l->continues).push_back(j);
      return;
    }
    case ir::StmtKind::print: lower_print(b, s); return;
    case ir::StmtKind::assert_: lower_assert(b, s); return;
    case ir::StmtKind::random:
      if (b.fn.rng_reg == 0xffff) b.fail("ti.random in a task that set up no random stream");
      b.emit(Op::rand, b.def(&s), b.reg(s.ops[0]), (uint16_t)s.type.prim);
      return;
    case ir::StmtKind::return_: lower_return(b, s); return;
    case ir::StmtKind::call: lower_call(b, s); return;
    case ir::StmtKind::call_ret: lower_call_ret(b, s); return;
    case ir::StmtKind::ad_stack: {
      // Re-emptied where declared, like an alloca is re-zeroed.
      int64_t slots = (int64_t)b.fn.stack_slots + kStackHeader + s.index;
      if (slots > (int64_t)1 << 26)
        raise("RuntimeError", "the gradient kernel '" + b.fn.name + "' needs autodiff tapes of more than 2^26 values in one task "
                              "(loops carrying locals over too many constant iterations, or ad_stack_size too large)", s.loc);
      b.fn.stacks.push_back(StackDesc{b.fn.stack_slots, (uint32_t)s.index});
      b.fn.stack_slots = (uint32_t)slots;
      b.emit_d(Op::stk_init, b.def(&s), (int32_t)b.fn.stacks.size() - 1);
      return;
    }
    case ir::StmtKind::ad_push: b.emit(Op::stk_push, b.reg(s.ops[0]), b.reg(s.ops[1])); return;
    case ir::StmtKind::ad_pop: b.emit(Op::stk_pop, b.reg(s.ops[0])); return;
    case ir::StmtKind::ad_top: b.emit(Op::stk_top, b.def(&s), b.reg(s.ops[0])); return;
    case ir::StmtKind::stop_grad: b.emit(Op::mov, b.def(&s), b.reg(s.ops[0])); return;
    case ir::StmtKind::offloaded: b.fail("offloaded task nested inside a task");
    case ir::StmtKind::shared_array:
    case ir::StmtKind::shared_ptr:
    case ir::StmtKind::simt:  // the frontend refuses ti.simt for the CPU engines; a GPU engine keeps such tasks
      raise("ValueError", "ti.simt needs a GPU backend: the task of kernel '" + b.fn.name + "' cannot run on the host", s.loc);
    default:
      if (!lower_value(b, s)) b.fail(std::string("statement kind '") + ir::stmt_kind_name(s.kind) + "'");
  }
}

}  // namespace

void lower_block(Builder& b, const ir::Block& blk) {
  size_t open = b.open_vars.size();
  for (auto& s : blk.stmts) lower_stmt(b, *s);
  b.close_vars(open);  // a block's variables go out of scope at its end
}

namespace {

// The type of a task's loop index, from the loop_index statements naming it.
Prim task_index_prim(const ir::Stmt& task) {
  Prim p = Prim::i32;
  std::vector<const ir::Block*> todo{task.body.get()};
  while (!todo.empty()) {
    const ir::Block* blk = todo.back();
    todo.pop_back();
    if (!blk) continue;
    for (auto& s : blk->stmts) {
      if (s->kind == ir::StmtKind::loop_index && s->loop == &task) p = s->type.prim;
      todo.push_back(s->body.get());
      todo.push_back(s->else_body.get());
    }
  }
  return p;
}

// A range_for task's body starts with what offload put there: constants,
// argument loads, global temporaries and loads of values earlier tasks left
// in them. None changes between iterations, so they run once, before the
// loop, in registers that are never reused.
void hoist_invariants(Builder& b, const ir::Block& body) {
  for (auto& s : body.stmts) {
    bool invariant = s->kind == ir::StmtKind::const_ || s->kind == ir::StmtKind::arg_load ||
                     s->kind == ir::StmtKind::global_temp ||
                     (s->kind == ir::StmtKind::global_load && b.flag(b.hoisted, s->ops[0]));
    if (!invariant) break;
    lower_stmt(b, *s);
    b.hoisted[b.ix.at(s.get())] = 1;
    uint16_t r = b.reg(s.get());
    if (r < b.refs.size()) b.refs[r] = 0;  // pinned: its last use inside the loop must not free it
  }
  b.last_stmt = nullptr;  // nothing in the loop may fuse into code before it
}

// A task that draws ti.random keeps its stream in three registers for its
// whole run (key, iteration index, state; vm/runtime/rng.h), set up once at
// entry; being ordinary registers, the JIT's snapshots carry them.
void init_random(Builder& b, const ir::Stmt& task) {
  bool draws = false;  // a ti.real_func call keys its callee's draws from the stream too
  if (task.body)
    ir::walk(*task.body, [&](ir::Stmt* s) { draws |= s->kind == ir::StmtKind::random || s->kind == ir::StmtKind::call; });
  if (!draws) return;
  b.fn.rng_reg = b.new_regs(3);
  b.emit(Op::rng_init, b.fn.rng_reg);
}

// A task's TLS prologue or epilogue (make_thread_local): straight-line code
// run once per chunk, around the loop, by whichever engine runs the function
// (the JIT traces only the loop). A chunk of a range_for is [R0, R1); one of a
// struct_for, a piece of the list.
void lower_tls(Builder& b, const ir::Block* blk) {
  if (!blk) return;
  b.last_stmt = nullptr;  // nothing fuses across the loop boundary
  for (auto& s : blk->stmts) lower_stmt(b, *s);
  b.last_stmt = nullptr;
}

TaskCode lower_task(const ir::Kernel& k, const ir::Stmt& task, int size, int n, bool keep_vars, bool flat_rows,
                    const std::vector<int>& func_rets, const WordRowsOf& word_rows) {
  Builder b;
  b.keep_vars = keep_vars;
  b.func_rets = func_rets;
  b.fn.frames = k.frames;
  b.loc = task.loc;
  b.num_args = (int)k.args.size();
  b.num_rets = (int)k.rets.size();
  b.num_temps = k.num_global_temps;
  // The task's statements follow it in pre-order (TaskIndex).
  std::vector<ir::Block*> blocks;
  for (ir::Block* blk : {task.tls_prologue(), task.body.get(), task.tls_epilogue()})
    if (blk) blocks.push_back(blk);
  b.ix.first = task.id + 1;  // lower_kernel made sure ids are a pre-order numbering
  b.ix.size = (uint32_t)size;  // (the task's statements: its blocks')
  b.reg_of.assign(b.ix.size, -1);
  b.uses.assign(b.ix.size, 0);
  b.fused.assign(b.ix.size, 0);
  b.hoisted.assign(b.ix.size, 0);
  b.call_base.assign(b.ix.size, -1);
  for (ir::Block* blk : blocks)
    ir::walk(*blk, [&](ir::Stmt* s) {
      for (ir::Stmt* o : s->ops)
        if (b.ix.in(o)) b.uses[b.ix.at(o)]++;
    });
  // The TLS prologue's values (accumulators) are not in the body's liveness:
  // they keep their registers across the loop and the epilogue.
  if (task.body) b.dies_after = dying_after(*task.body, b.ix);
  b.in_place = loads_in_place(blocks, b.ix);
  b.fn.name = k.name + ".task" + std::to_string(n) + "_" + ir::task_name(task.task);
  b.fn.task_no = (uint32_t)n;
  TaskCode tc;
  tc.kind = task.task;
  tc.begin_const = task.rare().begin_const;
  tc.end_const = task.rare().end_const;
  tc.begin = task.begin;
  tc.end = task.end;
  tc.serialize = task.serialize;
  tc.block_dim = task.rare().block_dim;
  switch (task.task) {
    case ir::Task::serial:
      init_random(b, task);
      if (task.body) lower_block(b, *task.body);
      break;
    case ir::Task::range_for: {
      tc.index_prim = task_index_prim(task);
      uint16_t base = b.new_regs(3);  // chunk begin (the index), chunk end, hot counter
      if (tc.begin_const && tc.end_const && task.begin >= 0 && prim_is_int(tc.index_prim) &&
          task.end < (tc.index_prim == Prim::i64 ? INT64_MAX : tc.index_prim == Prim::i32 ? INT32_MAX : 0))
        b.fn.nonneg_reg = base;
      init_random(b, task);
      if (task.body) hoist_invariants(b, *task.body);
      lower_tls(b, task.tls_prologue());
      counted_loop(b, &task, base, tc.index_prim, [&] {
        if (task.body) lower_block(b, *task.body);
      });
      lower_tls(b, task.tls_epilogue());
      break;
    }
    case ir::Task::struct_for: {
      tc.snode = task.snode;
      tc.num_indices = task.rare().num_loop_indices;
      uint16_t base = b.new_regs(3);  // cell begin (the counter), cell end, hot counter
      if (b.new_regs(1) != 3) b.fail("struct-for index table is not register 3");
      init_random(b, task);
      if (task.body) hoist_invariants(b, *task.body);
      int64_t per_row = flat_rows ? flat_row_cells(task) : 0;
      WordRowLayout wl;
      tc.word_rows = flat_rows && !per_row && word_rows && task.body && task.rare().num_loop_indices >= 1 &&
                     word_rows(task.snode, task.rare().num_loop_indices, wl) && word_rows_body(task);
      uint16_t cells = 0;
      if (per_row) {  // rows [begin, end) -> cells [begin * C, end * C)
        cells = b.new_reg();
        b.emit_d(Op::kimm, cells, (int32_t)per_row);
        b.emit(Op::mul_i32, base, base, cells);
        b.emit(Op::mul_i32, (uint16_t)(base + 1), (uint16_t)(base + 1), cells);
      }
      uint16_t bits_counter = 0;
      if (tc.word_rows) {
        bits_counter = b.new_reg();
        b.emit_d(Op::kimm, bits_counter, 0);
      }
      lower_tls(b, task.tls_prologue());
      counted_loop(b, &task, base, Prim::i32, [&] {
        if (per_row) lower_flat_cells(b, *task.body, base, cells);
        else if (tc.word_rows) lower_word_cells(b, task, wl, bits_counter);
        else if (task.body) lower_block(b, *task.body);
      });
      lower_tls(b, task.tls_epilogue());
      break;
    }
    case ir::Task::clear_list:
    case ir::Task::listgen:
      tc.snode = task.snode;
      tc.level = task.index;
      break;
    default:
      b.fail(std::string("task kind '") + ir::task_name(task.task) + "' is not supported yet");
  }
  b.loc = task.loc;
  b.frame = 0;
  b.close_vars(0);
  b.emit(Op::end);
  tc.fn = std::move(b.fn);
  return tc;
}

}  // namespace

Kernel lower_tasks(const ir::Kernel& k, int num_stmts, bool keep_vars, bool flat_rows, const std::vector<int>& func_rets,
                   const WordRowsOf& word_rows) {
  Kernel out;
  out.name = k.name;
  out.num_args = (int)k.args.size();
  out.num_rets = (int)k.rets.size();
  out.num_global_temps = k.num_global_temps;
  int n = 0;
  const auto& tasks = k.root.stmts;
  for (size_t i = 0; i < tasks.size(); i++) {
    const ir::Stmt* s = tasks[i].get();
    if (s->kind != ir::StmtKind::offloaded)
      raise("InternalError",
            "bytecode lowering of '" + k.name + "': the kernel root holds a '" +
                ir::stmt_kind_name(s->kind) + "' statement (offload must run first)",
            s->loc);
    int next = i + 1 < tasks.size() ? tasks[i + 1]->id : num_stmts;  // (ids in pre-order: the task's statements lie between)
    out.tasks.push_back(lower_task(k, *s, next - s->id - 1, n++, keep_vars, flat_rows, func_rets, word_rows));
  }
  return out;
}

}  // namespace kiln::bc
