// Resumable parallel tasks: a range_for or struct_for task whose body may
// wait for a pool slot that another invocation is filling (pointer/dynamic
// activation, ti.append: codegen_pools.cpp). lavapipe's loop limiter (65535
// passes per invocation, docs/vulkan_sparse.md) counts those waits, and a
// waiter whose filler's thread was descheduled could pass it. So such a task
// runs few invocations (resumable_groups), each striding over many
// iterations, and each can stop and go on in the next dispatch:
//   - at the top of each grid-stride iteration, past half the limit;
//   - in a wait, after kWaitPasses passes of it or past half the limit.
// It saves every variable of its function (the loop index, TLS values, the
// random stream, the print sequence, values kept for skipped code) in its
// region of the stack buffer (kStackBinding), records where it stopped in
// its state word and returns. The next dispatch restores them: stopped at
// an iteration's top it enters the loop again; stopped in a wait it also
// re-enters the body at the statement holding the wait (its *site*), as a
// recursive function's frame resumes at a call (Gen::guarded_block): code
// before the site is skipped, ifs and loops holding it are entered, and the
// site runs again. Re-running an activation walk is safe (slots it claimed
// are only read again; no wait happens between a claim and its fill), a
// dynamic extension goes on from the chunk it waited for, and ti.append
// keeps the index it claimed instead of adding again.
//
// The same sites serve a serial task without top-level loops (those resume
// by loop: codegen_resume.cpp) that calls recursive functions in its own
// code (Gen::site_body): each such call is a site, the group's machine may
// stop past half the limit with its frames left on the stack and its state
// in the caller's variables (codegen_recursion.cpp), and the task saves its
// variables in its context words and records the site, to call the machine
// again in the next dispatch.
//
// Context words of resumable parallel task r (KernelShaders::resume_word(r)): the
// task's state (kResumeDone once every invocation finished: later tasks and
// the host's resubmits test it, as for a serial task), the invocations
// finished, then one state word per invocation (0: fresh, kTopSite: at an
// iteration's top, k: in wait site k, kResumeDone).
#include <algorithm>
#include <climits>
#include <functional>

#include "gpu/vulkan/codegen_state.h"
#include "vm/runtime/program.h"

namespace kiln::vk {

using spv::Op;
using SC = spv::StorageClass;
using ir::StmtKind;

namespace {

constexpr uint32_t kTopSite = 0xfffffffeu;  // stopped at the top of a grid-stride iteration
constexpr uint32_t kWaitPasses = 1024;      // passes a wait makes before the invocation stops
constexpr uint32_t kArithmetic = 4;         // VkSubgroupFeatureFlags' arithmetic bit

// Whether a statement may wait for a slot another invocation fills: an
// activating access or ti.activate / ti.append whose path has a pointer or
// dynamic level.
bool may_wait(const ir::Stmt& s, const Program& prog) {
  int sn = -1;
  if (s.kind == StmtKind::global_ptr && s.access->sparse_place >= 0 && s.access->activate) sn = s.access->sparse_place;
  if (s.kind == StmtKind::snode_op && (s.sop == ir::SNodeOpKind::activate || s.sop == ir::SNodeOpKind::append)) sn = s.snode;
  if (sn < 0 || !prog.snode(sn)) return false;
  for (const SNode* l : prog.snode(sn)->path)
    if (l->kind == SNodeKind::pointer || l->kind == SNodeKind::dynamic) return true;
  return false;
}

// Numbers the sites of a block (the statements `is_site` picks) from
// next + 1 in code order; each statement and block holding some maps to its
// first and last.
using IsSite = std::function<bool(const ir::Stmt&)>;
std::pair<uint32_t, uint32_t> number_sites(const ir::Block& b, Gen& g, const IsSite& is_site, uint32_t& next);

std::pair<uint32_t, uint32_t> number_sites(const ir::Stmt& s, Gen& g, const IsSite& is_site, uint32_t& next) {
  std::pair<uint32_t, uint32_t> r{UINT32_MAX, 0};
  auto add = [&](std::pair<uint32_t, uint32_t> in) {
    r.first = std::min(r.first, in.first);
    r.second = std::max(r.second, in.second);
  };
  if (is_site(s)) {
    g.wait_sites[&s] = ++next;
    add({next, next});
  }
  if (s.body) add(number_sites(*s.body, g, is_site, next));
  if (s.else_body) add(number_sites(*s.else_body, g, is_site, next));
  if (r.second) g.wait_ranges[&s] = r;
  return r;
}

std::pair<uint32_t, uint32_t> number_sites(const ir::Block& b, Gen& g, const IsSite& is_site, uint32_t& next) {
  std::pair<uint32_t, uint32_t> r{UINT32_MAX, 0};
  for (auto& s : b.stmts) {
    auto in = number_sites(*s, g, is_site, next);
    r.first = std::min(r.first, in.first);
    r.second = std::max(r.second, in.second);
  }
  if (r.second) g.wait_ranges[&b] = r;
  return r;
}

}  // namespace

bool resumable_parallel(const ir::Stmt& task, const ir::Kernel& k, const DeviceCaps& caps, const Program* prog) {
  if (!prog || !caps.loop_limit || !caps.int64 || task.kind != StmtKind::offloaded || !task.body) return false;
  if (task.task != ir::Task::range_for && task.task != ir::Task::struct_for) return false;
  // (an empty constant range dispatches nothing, so it could never finish)
  if (task.task == ir::Task::range_for && task.rare().begin_const && task.rare().end_const && task.end <= task.begin) return false;
  // (a block walk's end is the blocks taken when the dispatch starts: a
  // resumed one would also visit the blocks its own body took since)
  if (task.task == ir::Task::struct_for && struct_for_cells(*prog, task.snode) > INT32_MAX) return false;
  // (shared memory and subgroups must stay whole; a recursive call's stack
  // takes the stack buffer)
  if (uses_simt(task) || calls_recursion(task, k)) return false;
  bool waits = false, tape = false;
  for (ir::Block* blk : {task.tls_prologue(), task.body.get(), task.tls_epilogue()})
    if (blk) ir::walk(*blk, [&](ir::Stmt* s) { tape |= s->kind == StmtKind::ad_stack; });
  ir::walk(*task.body, [&](ir::Stmt* s) { waits |= may_wait(*s, *prog); });
  return waits && !tape;
}

uint32_t resumable_groups(const TaskShader& ts, const DeviceCaps& caps) {
  // One state word per invocation, 2 * kResumeSlots of them; few
  // invocations on a CPU device, which runs few at once anyway.
  uint32_t most = (uint32_t)(2 * kResumeSlots / std::max(1, ts.local_size));
  return std::max<uint32_t>(1, std::min({ts.groups, caps.cpu ? 8u : 16u, most}));
}

void Gen::parallel_entry(const ir::Stmt& task) {
  Id bt = m.t_bool();
  m.capability(spv::Capability::Int64);
  Id inv = builtin_x(spv::BuiltIn::GlobalInvocationId, 0);
  par_state = site_word = m.op(Op::OpIAdd, u32(), {cu32((uint32_t)out.resume_word(resume) + 2), inv});
  Id state = load(BufPtr{0, par_state, Prim::u32});
  if_then(m.op(Op::OpIEqual, bt, {state, cu32(kResumeDone)}), [&] {
    m.op_void(Op::OpReturn, {});
    terminated = true;
  });
  par_resumed = m.op(Op::OpINotEqual, bt, {state, cu32(0)});
  par_vars = m.fresh();
  par_saves = m.op(Op::OpIMul, u32(), {inv, par_vars});
  resume_var = m.function_var(m.t_ptr(SC::Function, u32()));
  if_then(par_resumed, [&] { restore_at = m.body.size(); });
  // (after the restore, which brings back the value it had when saved)
  Id site = m.op(Op::OpSelect, u32(), {m.op(Op::OpIEqual, bt, {state, cu32(kTopSite)}), cu32(0), state});
  m.op_void(Op::OpStore, {resume_var, site});
  uint32_t next = 0;
  number_sites(*task.body, *this, [&](const ir::Stmt& s) { return may_wait(s, *prog); }, next);
  resume_sites = &wait_ranges;
}

void Gen::site_body(const ir::Stmt& task) {
  Id bt = m.t_bool();
  site_word = cu32((uint32_t)out.resume_word(resume));
  Id state = load(BufPtr{0, site_word, Prim::u32});
  resume_var = m.function_var(m.t_ptr(SC::Function, u32()));
  if_then(m.op(Op::OpINotEqual, bt, {state, cu32(0)}), [&] { restore_at = m.body.size(); });
  m.op_void(Op::OpStore, {resume_var, state});  // (after the restore)
  uint32_t next = 0;
  number_sites(*task.body, *this, [&](const ir::Stmt& s) { return recursive_call(s, kernel); }, next);
  resume_sites = &wait_ranges;
  block(*task.body);
  ensure_open();
  store(BufPtr{0, site_word, Prim::u32}, cu32(kResumeDone));
}

void Gen::site_stop(Id stop) {
  if_then(stop, [&] {
    save_at.push_back(m.body.size());
    store(BufPtr{0, site_word, Prim::u32}, cu32(cur_site));
    m.op_void(Op::OpReturn, {});
    terminated = true;
  });
}

void Gen::grid_checkpoint() {
  Id count = m.op(Op::OpLoad, u32(), {loop_count});
  // The driver counts a pass of a loop when any lane of the SIMD batch (a
  // subgroup on lavapipe) makes it, so lanes that waited less than others
  // have used more than they counted: they take the batch's most.
  if (caps.subgroup_ops & kArithmetic) {
    m.capability(spv::Capability::GroupNonUniform);
    m.capability(spv::Capability::GroupNonUniformArithmetic);
    count = m.op(Op::OpGroupNonUniformUMax, u32(), {cu32((uint32_t)spv::Scope::Subgroup), (uint32_t)spv::GroupOperation::Reduce, count});
    m.op_void(Op::OpStore, {loop_count, count});
  }
  if_then(m.op(Op::OpUGreaterThanEqual, m.t_bool(), {count, cu32(caps.loop_limit / 2)}), [&] {
    save_at.push_back(m.body.size());
    store(BufPtr{0, site_word, Prim::u32}, cu32(kTopSite));
    m.op_void(Op::OpReturn, {});
    terminated = true;
  });
}

void Gen::wait_checkpoint(Id waiting, Id waited) {
  Id bt = m.t_bool();
  Id w = m.op(Op::OpIAdd, u32(), {m.op(Op::OpLoad, u32(), {waited}), m.op(Op::OpSelect, u32(), {waiting, cu32(1), cu32(0)})});
  m.op_void(Op::OpStore, {waited, w});
  Id count = m.op(Op::OpLoad, u32(), {loop_count});
  Id long_wait = m.op(Op::OpLogicalOr, bt, {m.op(Op::OpUGreaterThanEqual, bt, {w, cu32(kWaitPasses)}),
                                            m.op(Op::OpUGreaterThanEqual, bt, {count, cu32(caps.loop_limit / 2)})});
  site_stop(m.op(Op::OpLogicalAnd, bt, {waiting, long_wait}));
}

void Gen::enter_site(const ir::Stmt& s, uint32_t site) {
  cur_site = site;
  // Its progress: none in a fresh run, what it had when it stopped in a resumed one.
  Id here = m.op(Op::OpIEqual, m.t_bool(), {m.op(Op::OpLoad, u32(), {resume_var}), cu32(site)});
  for (Id* v : {&site_claim, &site_chunk}) {
    *v = m.function_var(m.t_ptr(SC::Function, u32()));
    m.op_void(Op::OpStore, {*v, m.op(Op::OpSelect, u32(), {here, m.op(Op::OpLoad, u32(), {*v}), cu32(kNoProgress)})});
  }
  size_t vars_before = m.fn_var_list.size();
  stmt(s);
  for (size_t i = vars_before; i < m.fn_var_list.size(); i++)
    if (!std::count(site_saved.begin(), site_saved.end(), m.fn_var_list[i].first)) unsaved.insert(m.fn_var_list[i].first);
  site_saved.clear();
  ensure_open();
  // Done with it: a resumed run goes on as a fresh one.
  m.op_void(Op::OpStore, {resume_var, cu32(0)});
  cur_site = 0;
  site_claim = site_chunk = 0;
}

void Gen::parallel_finish(const TaskShader& ts) {
  ensure_open();
  store(BufPtr{0, par_state, Prim::u32}, cu32(kResumeDone));
  uint32_t word = (uint32_t)out.resume_word(resume);
  Id n = m.op(Op::OpAtomicIAdd, u32(), {chain(BufPtr{0, cu32(word + 1), Prim::u32}), cu32((uint32_t)spv::Scope::Device),
                                        cu32(0), cu32(1)});
  uint32_t all = ts.groups * (uint32_t)ts.local_size;
  if_then(m.op(Op::OpIEqual, m.t_bool(), {n, cu32(all - 1)}), [&] {
    store(BufPtr{0, cu32(word), Prim::u32}, cu32(kResumeDone));
  });
}

bool Gen::splice_parallel(TaskShader& ts) {
  int n = splice_vars(loop_count, kResumeSlots,
                      [&](uint32_t i) { return BufPtr{kStackBinding, m.op(Op::OpIAdd, u32(), {par_saves, cu32(i)}), Prim::u64}; });
  if (n < 0) return false;
  uint32_t vars = (uint32_t)std::max(n, 1);
  m.define_constant(par_vars, u32(), vars);
  ts.stack_bytes = (uint64_t)ts.groups * (uint64_t)ts.local_size * vars * 8;
  return true;
}

}  // namespace kiln::vk
