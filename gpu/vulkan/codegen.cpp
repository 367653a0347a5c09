// SPIR-V code generation: each offloaded task becomes one compute shader.
// The IR's hierarchical control flow maps one to one onto SPIR-V's
// structured control flow: if -> OpSelectionMerge, while/range_for ->
// OpLoopMerge with a continue block, break/continue -> branches to the
// loop's merge/continue block.
#include "gpu/vulkan/codegen.h"

#include <algorithm>
#include <climits>

#include "gpu/vulkan/codegen_state.h"
#include "vm/interp/interp.h"  // kMaxCallDepth
#include "vm/runtime/chunks.h"
#include "vm/runtime/program.h"

namespace kiln::vk {

using spv::Op;
using SC = spv::StorageClass;
using ir::StmtKind;

void Gen::unsupported(const ir::Stmt& s, const std::string& what) {
  raise("NotImplementedError",
        "the vulkan backend does not support " + what + " yet (statement '" + ir::stmt_kind_name(s.kind) +
            "' in kernel '" + kernel.name + "')",
        s.loc);
}

Id Gen::builtin_x(spv::BuiltIn b, uint32_t component) {
  Id v3 = m.t_vec(u32(), 3);
  Id& var = mod.builtin_vars[(uint32_t)b];
  if (!var) {
    var = m.global_var(m.t_ptr(SC::Input, v3), SC::Input);
    m.decorate(var, spv::Decoration::BuiltIn, {(uint32_t)b});
  }
  return m.op(Op::OpCompositeExtract, u32(), {m.op(Op::OpLoad, v3, {var}), component});
}

void Gen::ensure_open() {
  if (!terminated) return;
  m.label(m.fresh());
  terminated = false;
}

void Gen::branch(Id to) {
  if (terminated) return;
  m.op_void(Op::OpBranch, {to});
  terminated = true;
}

void Gen::block(const ir::Block& b) {
  // A run resuming at a site (a recursive function's frame, a parallel
  // task's invocation that stopped in a wait) in this block.
  if (resume_sites && resume_sites->count(&b)) return guarded_block(b);
  for (auto& s : b.stmts) {
    ensure_open();
    stmt(*s);
  }
}

// lavapipe's loop limiter: one counter per invocation, decremented at the
// end of every pass of every loop; at zero every loop exits, silently. The
// driver runs SIMD lanes in step, so a pass runs its whole body, and a loop
// inside an if that no lane takes still makes one (empty) pass of itself
// and of each loop inside it. So a pass of loop L costs 1 + the loops
// inside L (at any depth), less those the invocation enters, which cost
// their own passes. loop_count models that exactly for one lane: the task
// pays at its start for one pass of each of its loops, and each back edge of
// L pays 1 + inner(L) for the pass it starts; headers check the count, so
// an invocation the driver may have cut short records a loop_limit error
// instead of returning what it got. (Before, the count was of headers run:
// a loop beside an untaken if with a loop in it cost twice that, and
// capped_collatz lost iterations without an error.)
void Gen::loop_open(const ir::Stmt* owner) {
  loop_inner.push_back(0);
  if (!loop_count) return;
  Id count = m.op(Op::OpLoad, u32(), {loop_count});
  out.checks.push_back(CheckInfo{CheckInfo::loop_limit, owner ? owner->loc : SourceLoc{}});
  fail_if(m.op(Op::OpUGreaterThanEqual, m.t_bool(), {count, cu32(caps.loop_limit - 1)}), (int)out.checks.size() - 1,
          {});
}

void Gen::loop_back_edge() {
  if (!loop_count) return;
  Id count = m.op(Op::OpLoad, u32(), {loop_count});
  m.op_void(Op::OpStore, {loop_count, m.op(Op::OpIAdd, u32(), {count, cu32(1 + loop_inner.back())})});
}

void Gen::loop_close() {
  uint32_t subtree = 1 + loop_inner.back();
  loop_inner.pop_back();
  (loop_inner.empty() ? task_loops : loop_inner.back()) += subtree;
}

void Gen::stmt(const ir::Stmt& s) {
  Id bt = m.t_bool();
  // A wait site of a resumable parallel task: its waits may stop the
  // invocation there; once it is done, a resumed run goes on as a fresh one.
  if (!cur_site && !wait_sites.empty())
    if (auto w = wait_sites.find(&s); w != wait_sites.end()) return enter_site(s, w->second);
  switch (s.kind) {
    case StmtKind::const_: val[&s] = constant(s.type.prim, s.value); return;
    case StmtKind::arg_load: val[&s] = arg_load(s); return;
    case StmtKind::unary:
    case StmtKind::binary: {
      if (s.kind == StmtKind::unary && s.ops[0]->type.is_ptr) {
        val[&s] = element_address(s);  // ti.get_addr
        return;
      }
      // bf16 results are computed in f32 and rounded, as the interpreter's are.
      Id v = s.kind == StmtKind::unary ? unary(s) : binary(s);
      bool cast = s.kind == StmtKind::unary && s.uop == ir::UnaryOp::cast_value;
      val[&s] = s.type.prim == Prim::bf16 && !cast ? round_bf16(v) : v;
      return;
    }
    case StmtKind::select: {
      Id c = to_bool(val.at(s.ops[0]), s.ops[0]->type.prim);
      val[&s] = m.op(Op::OpSelect, type(s.type.prim, &s), {c, val.at(s.ops[1]), val.at(s.ops[2])});
      return;
    }
    case StmtKind::fma: val[&s] = fma(s.type.prim, val.at(s.ops[0]), val.at(s.ops[1]), val.at(s.ops[2])); return;
    case StmtKind::alloca: {
      Id t = type(s.type.prim, &s);
      Id v = m.function_var(m.t_ptr(SC::Function, t));
      // Locals start at zero, as the interpreter's registers do.
      m.op_void(Op::OpStore, {v, prim_is_float(s.type.prim) ? const_float(s.type.prim, 0) : const_int(s.type.prim, 0)});
      local[&s] = v;
      return;
    }
    case StmtKind::local_load: val[&s] = m.op(Op::OpLoad, type(s.type.prim, &s), {local.at(s.ops[0])}); return;
    case StmtKind::local_store: m.op_void(Op::OpStore, {local.at(s.ops[0]), val.at(s.ops[1])}); return;
    case StmtKind::global_ptr: global_ptr(s); return;
    case StmtKind::global_temp:
      if (frame) unsupported(s, "a global temporary in a ti.real_func");
      ptr[&s] = ctx_slot(out.temp_slot() + s.index, s.type.prim);
      return;
    case StmtKind::global_load: {
      const BufPtr& bp = ptr.at(s.ops[0]);
      Id v = load(bp);
      if (bp.active) {
        Id zero = prim_is_float(bp.prim) ? const_float(bp.prim, 0) : const_int(bp.prim, 0);
        v = m.op(Op::OpSelect, type(bp.prim), {bp.active, v, zero});
      }
      val[&s] = v;
      return;
    }
    case StmtKind::global_store: {
      const BufPtr& bp = ptr.at(s.ops[0]);
      if (bp.active) if_then(bp.active, [&] { store(bp, val.at(s.ops[1])); });
      else store(bp, val.at(s.ops[1]));
      return;
    }
    case StmtKind::atomic: val[&s] = atomic(s); return;
    case StmtKind::if_: {
      Id c = to_bool(val.at(s.ops[0]), s.ops[0]->type.prim);
      // A frame resuming inside the if takes the branch holding its call site.
      if (resuming_into(&s)) {
        Id fresh = m.op(Op::OpIEqual, bt, {m.op(Op::OpLoad, u32(), {resume_var}), cu32(0)});
        Id into_then = s.body ? resuming_into(s.body.get()) : 0;
        c = m.op(Op::OpSelect, bt, {fresh, c, into_then ? into_then : m.c_bool(false)});
      }
      Id t = m.fresh(), merge = m.fresh();
      bool has_else = s.else_body && !s.else_body->stmts.empty();
      Id e = has_else ? m.fresh() : merge;
      m.op_void(Op::OpSelectionMerge, {merge, 0});
      m.op_void(Op::OpBranchConditional, {c, t, e});
      m.label(t);
      terminated = false;
      if (s.body) block(*s.body);
      branch(merge);
      if (has_else) {
        m.label(e);
        terminated = false;
        block(*s.else_body);
        branch(merge);
      }
      m.label(merge);
      terminated = false;
      return;
    }
    case StmtKind::while_: {
      int top = std::exchange(top_loop, -1);  // a resumable task's top-level loop checks its passes
      loop(
          *this, &s, [] { return Id(0); },
          [&] {
            if (top >= 0) checkpoint(top);
            block(*s.body);
          },
          [] {});
      return;
    }
    case StmtKind::range_for: {
      if (s.snode >= 0) unsupported(s, "a struct-for over sparse SNodes");
      Prim p = s.ops[0]->type.prim;
      Id t = type(p, &s);
      int top = std::exchange(top_loop, -1);
      Id var = m.function_var(m.t_ptr(SC::Function, t));
      // Resumed at this loop (a serial task's, or a recursive function's
      // frame at a call inside it), its index is the one saved.
      Id kept = top >= 0 ? m.op(Op::OpIEqual, bt, {resume_state, cu32((uint32_t)top + 1)}) : resuming_into(&s);
      if (kept) if_then(m.op(Op::OpLogicalNot, bt, {kept}), [&] { m.op_void(Op::OpStore, {var, val.at(s.ops[0])}); });
      else m.op_void(Op::OpStore, {var, val.at(s.ops[0])});
      loop_var[&s] = var;
      Id end = val.at(s.ops[1]);
      Id cur = 0;
      bool sg = prim_is_signed(p);
      loop(
          *this, &s,
          [&] {
            cur = m.op(Op::OpLoad, t, {var});
            return m.op(sg ? Op::OpSLessThan : Op::OpULessThan, bt, {cur, end});
          },
          [&] {
            if (top >= 0) checkpoint(top);
            block(*s.body);
          },
          [&] { m.op_void(Op::OpStore, {var, m.op(Op::OpIAdd, t, {cur, const_int(p, 1)})}); });
      return;
    }
    case StmtKind::loop_index: {
      if (s.loop->kind == StmtKind::offloaded && s.loop->task == ir::Task::struct_for) {
        // The visited cell's indices (i32), then its address (i64).
        if (s.index < (int)sf_index.size())
          val[&s] = cast(sf_index[(size_t)s.index], Prim::u32, s.type.prim, s);
        else
          val[&s] = cast(m.op(Op::OpUConvert, u64(), {sf_cell}), Prim::u64, s.type.prim, s);
        return;
      }
      auto it = loop_var.find(s.loop);
      if (it == loop_var.end() || s.index != 0) unsupported(s, "this loop index");
      Id v = it->second;
      Prim vp = s.loop->kind == StmtKind::offloaded ? out.tasks.back().index_prim : s.loop->ops[0]->type.prim;
      Id x = m.op(Op::OpLoad, type(vp), {v});
      val[&s] = cast(x, vp, s.type.prim, s);
      return;
    }
    case StmtKind::break_: branch(loops.at(s.loop).merge); return;
    case StmtKind::continue_: branch(loops.at(s.loop).cont); return;
    case StmtKind::print: print(s); return;
    case StmtKind::assert_: assert_(s); return;
    case StmtKind::return_: ret(s); return;
    case StmtKind::ad_stack: tape_decl(s); return;
    case StmtKind::ad_push: tape_push(s); return;
    case StmtKind::ad_pop: tape_pop(s); return;
    case StmtKind::ad_top: val[&s] = tape_top(s); return;
    case StmtKind::random: val[&s] = random(s); return;
    case StmtKind::snode_op: snode_op(s); return;
    case StmtKind::call: call(s); return;
    case StmtKind::shared_array: shared_array(s); return;
    case StmtKind::shared_ptr: shared_ptr(s); return;
    case StmtKind::simt: simt(s); return;
    case StmtKind::call_ret: {
      auto it = call_results.find(s.ops[0]);
      if (it == call_results.end() || s.index < 0 || (size_t)s.index >= it->second.size())
        unsupported(s, "a call result without its call");
      val[&s] = it->second[(size_t)s.index];
      return;
    }
    default: unsupported(s, std::string("statement kind '") + ir::stmt_kind_name(s.kind) + "'");
  }
}

// The type a range_for task's index has: its loop_index statements' (the
// frontend gives them the bounds' type), i32 when the body reads none.
static Prim task_index_prim(const ir::Stmt& task) {
  Prim p = Prim::i32;
  ir::walk(*task.body, [&](ir::Stmt* s) {
    if (s->kind == StmtKind::loop_index && s->loop == &task) p = s->type.prim;
  });
  return p;
}

// Whether a task's code holds a loop of its own (while or range), or may:
// sparse activation and SNode ops wait and retry in loops on pointer and
// dynamic levels (codegen_pools.cpp), which must be counted too: a wait
// that lavapipe's limiter cut short would leave a slot unfilled. A
// ti.real_func call may hold loops too.
static bool has_loops(const ir::Stmt& task) {
  bool any = false;
  for (ir::Block* blk : {task.tls_prologue(), task.body.get(), task.tls_epilogue()})
    if (blk)
      ir::walk(*blk, [&](ir::Stmt* s) {
        any |= s->kind == StmtKind::while_ || s->kind == StmtKind::range_for || s->kind == StmtKind::snode_op ||
               s->kind == StmtKind::call ||
               (s->kind == StmtKind::global_ptr && s->access->sparse_place >= 0 && s->access->activate);
      });
  return any;
}

// Below how many iterations a range_for task runs as one chunk (0: never):
// when its TLS epilogue adds float sums into the global, whose bits depend
// on how the range was cut. And the CPU engines run it as one chunk (few
// iterations, one thread, debug=True: vm/runtime/chunks.h), so that it
// prints the CPU's bits. Within the driver's loop limit: a longer range
// stays cut (on lavapipe a one-thread program's float sum over more than
// about 65000 iterations may differ in the last bits). (A ti.real_func call
// that draws needs no chunk of its own: the frontend steps the iteration's
// stream before it, so its key does not depend on the cut.)
static int64_t one_chunk_below(const ir::Stmt& task, const DeviceCaps& caps, const Program* prog) {
  if (task.task != ir::Task::range_for || uses_simt(task)) return 0;
  bool order = sums_by_chunk(task);
  if (!order) return 0;
  if (!one_chunk_always(prog) || has_loops(task)) return kMinParallel;
  return caps.loop_limit ? std::max<int64_t>(kMinParallel, (int64_t)caps.loop_limit - 2) : INT64_MAX;
}

// Workgroups for a task: one invocation for serial work; enough for one
// iteration each when the bounds are known, capped (the loop strides). On a
// CPU device a workgroup costs microseconds of its own, so a loop-free body
// gets kCpuIterations iterations per invocation there (a body with loops
// keeps one: the driver's loop limit counts all of an invocation's loops).
// A task using ti.simt keeps one too: each workgroup then runs one block of
// iterations, as Taichi's blocks, unless the range needs more than 65535
// workgroups or is known only at launch (then a workgroup runs its blocks
// one after another, sharing its shared arrays).
static uint32_t groups(const ir::Stmt& task, const TaskShader& ts, const DeviceCaps& caps) {
  constexpr int64_t kCpuIterations = 16;
  if (task.task == ir::Task::clear_list) return 0;  // no lists on the device
  if (task.task == ir::Task::listgen && ts.end == 0) return 0;  // listgen: copies the snapshot, if any
  bool ranged = task.task == ir::Task::range_for || task.task == ir::Task::struct_for || task.task == ir::Task::listgen;
  if (!ranged || task.serialize) return 1;
  if (!(ts.begin_const && ts.end_const)) return 1024;
  int64_t n = ts.end - ts.begin;
  if (n <= 0) return 0;
  int64_t per_group = ts.local_size * (caps.cpu && !has_loops(task) && !uses_simt(task) ? kCpuIterations : 1);
  return (uint32_t)std::min<int64_t>((n + per_group - 1) / per_group, 65535);
}

// The code of a task (inside gen_task's guard).
static void task_code(Gen& g, const ir::Stmt& task, TaskShader& ts) {
  SpirvModule& m = g.m;
  if (task.task == ir::Task::serial) {
    if (g.resume >= 0 && has_top_loop(task)) g.resumable_body(task);
    else if (g.resume >= 0) g.site_body(task);
    else g.block(*task.body);
    return;
  }
  // A struct-for visits the cells of its target's containers (codegen_sparse.cpp);
  // list tasks have nothing to do.
  if (task.task == ir::Task::clear_list || (task.task == ir::Task::listgen && ts.end == 0)) {
    g.device_snode(task, task.snode);
    return;
  }
  bool sf = task.task == ir::Task::struct_for, snap = task.task == ir::Task::listgen;
  if (task.task != ir::Task::range_for && !sf && !snap)
    g.unsupported(task, std::string("offloaded ") + ir::task_name(task.task) + " tasks");
  Prim p = ts.index_prim = sf || snap ? Prim::i32 : task_index_prim(task);
  Id t = g.type(p);
  auto bound = [&](bool is_const, int64_t v) {
    return is_const ? g.const_int(p, v) : g.load(g.ctx_slot(g.out.temp_slot() + (int)v, p));
  };
  Id begin = bound(ts.begin_const, ts.begin), end = bound(ts.end_const, ts.end);
  if (sf)  // a block walk ends after the blocks taken so far
    if (Id e = g.struct_for_end(task)) end = e;
  Id gid = g.builtin_x(spv::BuiltIn::GlobalInvocationId, 0);
  Id groups = g.builtin_x(spv::BuiltIn::NumWorkgroups, 0);
  Id stride = g.cast(m.op(Op::OpIMul, g.u32(), {groups, g.cu32((uint32_t)ts.local_size)}), Prim::u32, p, task);
  Id first = g.cast(gid, Prim::u32, p, task);
  // A float reduction the CPU runs in one chunk runs in one invocation.
  Id skip = 0;
  if (ts.one_chunk_below > 0) {
    Id bt = m.t_bool();
    Id n = m.op(Op::OpISub, t, {end, begin});
    int64_t below = prim_bits(p) < 64 ? std::min<int64_t>(ts.one_chunk_below, INT32_MAX) : ts.one_chunk_below;
    Id one = m.op(prim_is_signed(p) ? Op::OpSLessThan : Op::OpULessThan, bt, {n, g.const_int(p, below)});
    stride = m.op(Op::OpSelect, t, {one, g.const_int(p, 1), stride});
    first = m.op(Op::OpSelect, t, {one, g.const_int(p, 0), first});
    skip = m.op(Op::OpLogicalAnd, bt, {one, m.op(Op::OpINotEqual, bt, {gid, g.cu32(0)})});
  }
  g.iter = gid;
  // A resumable task's invocation that stopped in an earlier dispatch
  // restores its variables (the loop index and TLS values among them) and
  // skips the prologue (codegen_resume_parallel.cpp).
  bool par = g.resume >= 0;
  if (par) g.parallel_entry(task);
  Id fresh = par ? m.op(Op::OpLogicalNot, m.t_bool(), {g.par_resumed}) : 0;
  // The chunk: prologue, grid-stride loop, epilogue.
  auto chunk = [&] {
    if (task.tls_prologue()) {
      if (par) {
        std::vector<const ir::Stmt*> pro;
        for (auto& st : task.tls_prologue()->stmts) pro.push_back(st.get());
        g.run_kept(fresh, pro);
      } else {
        g.block(*task.tls_prologue());
      }
    }
    g.ensure_open();
    Id var = m.function_var(m.t_ptr(SC::Function, t));
    bool sg = prim_is_signed(p);
    // The index must never step past the type's maximum and wrap (a range
    // ending near it). With constant bounds and grid, begin + first and
    // cur + stride stay below max(begin, end) + stride_n: when that fits, the
    // plain grid-stride loop is exact. Otherwise an invocation starts at
    // begin + first only when first < end - begin (unsigned: exact whenever
    // begin < end), else at end, and a step that would pass end lands on it.
    int64_t stride_n = std::max<int64_t>(1, (int64_t)ts.groups * ts.local_size);
    __int128 type_max = sg ? ((__int128)1 << (prim_bits(p) - 1)) - 1 : ((__int128)1 << prim_bits(p)) - 1;
    bool may_wrap = !(ts.begin_const && ts.end_const && ts.groups) ||
                    (__int128)std::max(ts.begin, ts.end) + stride_n - 1 > type_max;
    Id bt = m.t_bool();
    Id start = m.op(Op::OpIAdd, t, {begin, first});
    if (may_wrap)
      start = m.op(Op::OpSelect, t,
                   {m.op(Op::OpLogicalAnd, bt,
                         {m.op(sg ? Op::OpSLessThan : Op::OpULessThan, bt, {begin, end}),
                          m.op(Op::OpULessThan, bt, {first, m.op(Op::OpISub, t, {end, begin})})}),
                    start, end});
    if (par) g.if_then(fresh, [&] { m.op_void(Op::OpStore, {var, start}); });
    else m.op_void(Op::OpStore, {var, start});
    g.loop_var[&task] = var;
    Id cur = 0;
    // A loop-free body with known bounds makes a known number of iterations
    // per invocation: below the driver's limit it needs no count.
    Id counter = g.loop_count;
    int64_t n = ts.end - ts.begin;
    int64_t per = n < ts.one_chunk_below ? n : (n + stride_n - 1) / stride_n;
    if (counter && !has_loops(task) && ts.begin_const && ts.end_const && ts.groups && per + 2 < (int64_t)g.caps.loop_limit)
      g.loop_count = 0;
    loop(
        g, &task,
        [&] {
          cur = m.op(Op::OpLoad, t, {var});
          return m.op(sg ? Op::OpSLessThan : Op::OpULessThan, m.t_bool(), {cur, end});
        },
        [&] {
          if (par) g.grid_checkpoint();
          // Prints and errors are ordered by iteration (as a serial run prints).
          g.iter = g.cast(m.op(Op::OpISub, t, {cur, begin}), p, Prim::u32, task);
          if (snap) {
            g.snapshot_copy(task, g.iter);
            return;
          }
          if (!sf) {
            g.block(*task.body);
            return;
          }
          Id active = g.struct_for_cell(task, g.iter);
          if (active) g.if_then(active, [&] { g.block(*task.body); });
          else g.block(*task.body);
        },
        [&] {
          Id next = m.op(Op::OpIAdd, t, {cur, stride});
          if (may_wrap)
            next = m.op(Op::OpSelect, t,
                        {m.op(Op::OpULessThanEqual, m.t_bool(), {m.op(Op::OpISub, t, {end, cur}), stride}), end, next});
          m.op_void(Op::OpStore, {var, next});
        });
    g.loop_count = counter;
    g.iter = gid;
    if (task.tls_epilogue()) g.block(*task.tls_epilogue());
  };
  if (skip) g.if_then(m.op(Op::OpLogicalNot, m.t_bool(), {skip}), chunk);
  else chunk();
  if (par) g.parallel_finish(ts);
}

// Recursive ti.real_func calls: the task's call depth limit and the words
// of a frame, now that its functions are made (codegen_recursion.cpp). The
// interpreter's limit, unless the frames of all the task's invocations
// would not fit the device's stack window.
static void call_stack(Gen& g, TaskShader& ts, uint32_t local_x) {
  uint64_t frame = std::max<uint32_t>(g.mod.frame_max, 2);
  uint64_t invocations = std::max<uint64_t>(1, (uint64_t)ts.groups * local_x);
  uint64_t limit = std::min<uint64_t>(interp::kMaxCallDepth, g.caps.stack_window / (invocations * frame * 8));
  if (g.mod.frame_words) g.m.define_constant(g.mod.frame_words, g.u32(), (uint32_t)frame);
  if (g.mod.depth_limit) g.m.define_constant(g.mod.depth_limit, g.u32(), (uint32_t)limit);
  for (size_t c : g.mod.depth_checks) g.out.checks[c].capacity = (uint32_t)limit;
  ts.call_depth = (uint32_t)limit;
  if (g.mod.frame_words) ts.stack_bytes = invocations * limit * frame * 8;
}

// False when a resumable task has more variables than it can save.
static bool gen_task(Gen& g, const ir::Stmt& task) {
  SpirvModule& m = g.m;
  TaskShader& ts = g.out.tasks.back();
  Id main_fn = m.fresh(), first = m.fresh();
  m.name(main_fn, "main");
  g.seq_var = m.function_var(m.t_ptr(SC::Function, g.u32()));
  m.op_void(Op::OpStore, {g.seq_var, g.cu32(0)});
  // One pass of each of the task's loops, paid up front (loop_open): the
  // constant's value is known once the task is emitted.
  Id first_passes = 0;
  if (g.caps.loop_limit) {
    g.loop_count = m.function_var(m.t_ptr(SC::Function, g.u32()));
    first_passes = m.fresh();
    m.op_void(Op::OpStore, {g.loop_count, first_passes});
  }
  g.random_init(task, (uint32_t)g.task_index);
  g.iter = g.cu32(0);
  int local_x = task.task == ir::Task::range_for || task.task == ir::Task::struct_for ||
                        (task.task == ir::Task::listgen && ts.end > 0)
                    ? ts.local_size
                    : 1;
  // The task runs unless a check failed in an earlier task (the launch stops
  // there), and only in the workgroup's own invocations: lavapipe (Mesa 22)
  // runs a workgroup of 1 in 8 SIMD lanes and, in a loop nested in an if in
  // a loop, let the 7 lanes outside the workgroup iterate (on zeros from
  // their masked loads) until its loop limiter stopped every loop of the
  // invocation: capped_collatz left its while loop after one iteration. An
  // explicit index test masks them off (tests/vulkan/nested_loop_exits).
  Id lii = m.global_var(m.t_ptr(SC::Input, g.u32()), SC::Input);
  m.decorate(lii, spv::Decoration::BuiltIn, {(uint32_t)spv::BuiltIn::LocalInvocationIndex});
  Id own = m.op(Op::OpULessThan, m.t_bool(), {m.op(Op::OpLoad, g.u32(), {lii}), g.cu32((uint32_t)local_x)});
  Id ok = m.op(Op::OpIEqual, m.t_bool(), {g.error_flag(), g.cu32(0)});
  // ... and the resumable tasks before it are done (this one is not yet).
  for (const TaskShader& before : g.out.tasks)
    if (before.resume >= 0) {
      Id word = g.load(BufPtr{0, g.cu32((uint32_t)g.out.resume_word(before.resume)), Prim::u32});
      Id done = m.op(&before == &ts ? Op::OpINotEqual : Op::OpIEqual, m.t_bool(), {word, g.cu32(kResumeDone)});
      ok = m.op(Op::OpLogicalAnd, m.t_bool(), {ok, done});
    }
  g.if_then(m.op(Op::OpLogicalAnd, m.t_bool(), {ok, own}), [&] { task_code(g, task, ts); });
  if (!g.terminated) m.op_void(Op::OpReturn, {});
  if (first_passes) m.define_constant(first_passes, g.u32(), g.task_loops);
  if (g.mod.depth_limit || g.mod.frame_words) call_stack(g, ts, (uint32_t)local_x);
  if (g.resume >= 0 && !(g.par_state ? g.splice_parallel(ts) : g.splice_resume())) return false;
  ts.spirv = m.finish(main_fn, first, local_x);
  return true;
}

KernelShaders generate(const ir::Kernel& k, const DeviceCaps& caps, const Program* prog) {
  KernelShaders out;
  out.name = k.name;
  out.ndarrays = ir::ndarray_uses(k);
  out.num_args = (int)k.args.size();
  out.num_rets = (int)k.rets.size();
  out.num_temps = k.num_global_temps;
  // The resumable tasks' state words lie before the list snapshots.
  int next_resume = 0;
  for (auto& s : k.root.stmts) out.num_resumable += resumable_task(*s, k, caps) || resumable_parallel(*s, k, caps, prog);
  for (auto& s : k.root.stmts) {
    if (s->kind != StmtKind::offloaded)
      raise("InternalError", "vulkan codegen: kernel '" + k.name + "' was not offloaded", s->loc);
    TaskShader ts;
    ts.kind = s->task;
    ts.loc = s->loc;
    ts.begin_const = s->rare().begin_const;
    ts.end_const = s->rare().end_const;
    ts.begin = s->begin;
    ts.end = s->end;
    ts.block_dim = s->rare().block_dim;
    if (s->rare().block_dim > 0 && (s->task == ir::Task::range_for || s->task == ir::Task::struct_for)) {
      if ((uint32_t)s->rare().block_dim > caps.max_local_x)
        raise("ValueError", "ti.loop_config(block_dim=" + std::to_string(s->rare().block_dim) +
                                "): the vulkan device runs at most " + std::to_string(caps.max_local_x) +
                                " invocations in a workgroup", s->loc);
      ts.local_size = s->rare().block_dim;
    }
    ts.serialize = s->serialize;
    if (s->task == ir::Task::struct_for && prog) {
      ts.begin_const = ts.end_const = true;
      ts.begin = 0;
      ts.end = struct_for_cells(*prog, s->snode);
      // Its invocations number every cell of every container the target can
      // have (i32), active or not: a domain past that is refused, not cut.
      // (at most 2^31 - 1) unless it can walk the blocks of a pointer level
      // instead (codegen_sparse.cpp's block_walk).
      BlockWalk bw;
      if (ts.end > INT32_MAX && block_walk(*prog, s->snode, bw)) ts.end = (int64_t)bw.per_block * bw.capacity;
      if (ts.end > INT32_MAX)
        raise("NotImplementedError",
              "the vulkan backend does not support a struct-for over " + prog->snode(s->snode)->name() +
                  " yet: its containers can hold " + std::to_string(ts.end) +
                  " cells and the device numbers each in an i32, unless only dense levels lie below a pointer level "
                  "whose pool's blocks hold at most 2^31 - 1 cells in all",
              s->loc);
    }
    // The target's last listgen copies the snapshot its struct-for reads.
    if (s->task == ir::Task::listgen && prog) {
      ts.begin_const = ts.end_const = true;
      ts.begin = 0;
      ts.end = s->index + 1 == (int)prog->snode(s->snode)->path.size()
                   ? snapshot_words(list_snapshot(out, *prog, s->snode))
                   : 0;
      if (s->index + 1 == (int)prog->snode(s->snode)->path.size())
        out.listgen_const += list_elements_const(*prog->snode(s->snode));
    }
    ts.groups = groups(*s, ts, caps);
    // Each invocation has a call stack of its own: fewer invocations, deeper
    // stacks (a CPU device runs few at once anyway).
    if (calls_recursion(*s, k)) ts.groups = std::min<uint32_t>(ts.groups, caps.cpu ? 8 : 64);
    ts.one_chunk_below = one_chunk_below(*s, caps, prog);
    bool par = resumable_parallel(*s, k, caps, prog);
    if (resumable_task(*s, k, caps) || par) ts.resume = next_resume++;
    uint32_t all_groups = ts.groups;
    if (par) ts.groups = resumable_groups(ts, caps);
    out.tasks.push_back(std::move(ts));
    for (;;) {
      ModuleState ms;
      ms.recursive = has_recursion(k);
      Gen g(k, caps, out, ms);
      g.owner = &k;
      g.prog = prog;
      g.task_index = (int)out.tasks.size() - 1;
      g.resume = out.tasks.back().resume;
      if (gen_task(g, *s)) break;
      out.tasks.back().resume = -1;  // it keeps its state words, unused
      out.tasks.back().groups = all_groups;
    }
  }
  return out;
}

}  // namespace kiln::vk
