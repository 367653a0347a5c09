// Recursive ti.real_func calls on a device whose code cannot recurse
// (SPIR-V forbids a function calling itself, directly or not): the
// functions a recursive one calls through (its group: the strongly connected
// part of the call graph) run on an explicit stack of frames.
//
// A call into the group from outside it is a call of the group's *machine*
// (a SPIR-V function with the signature of any function instance): it
// pushes the callee's frame and loops while frames remain above its
// caller's: each pass calls the *body* of the function on top, by the number
// in the frame's header. A body is one function of the group as a SPIR-V
// function that runs its frame from its resume point until it calls a
// function of the group (it saves every variable in the frame, records the
// call site, pushes the callee's frame and returns to the machine) or
// returns (its results go to the machine's return registers, and its frame
// is popped). Resumed at call site k, a body restores its variables and
// runs again from the top, skipping what ran before the call: a statement
// runs when the frame is fresh (resume point 0), and a statement holding
// call site k is entered (an `if` takes the branch holding it, a loop keeps
// its index), down to the call, which takes its results and clears the
// resume point. Values computed in skipped code go through variables, which
// the frame holds (Gen::run_kept).
//
// The stack lives in a storage buffer (binding kStackBinding), one region
// per invocation of the task: depth_limit frames of frame_words u64 words,
// a frame [header: body number << 32 | resume point, random key, arguments,
// variables], frame d - 1 for the d-th nested call of the invocation (calls
// outside groups take a depth but no frame). Past depth_limit calls (the
// interpreter's 2000, or fewer when the task's invocations would need more
// than the device's stack window) a call is the interpreter's RecursionError.
#include <algorithm>
#include <climits>

#include "gpu/vulkan/codegen_state.h"
#include "vm/interp/interp.h"  // kMaxCallDepth

namespace kiln::vk {

using spv::Op;
using SC = spv::StorageClass;
using ir::StmtKind;

namespace {

// Per function of `k`, the functions its body calls.
std::vector<std::vector<int>> callees(const ir::Kernel& k) {
  std::vector<std::vector<int>> out(k.funcs.size());
  for (size_t i = 0; i < k.funcs.size(); i++)
    if (k.funcs[i])
      ir::walk(const_cast<ir::Block&>(k.funcs[i]->root), [&](ir::Stmt* s) {
        if (s->kind == StmtKind::call && s->index >= 0 && (size_t)s->index < k.funcs.size()) out[i].push_back(s->index);
      });
  return out;
}

// The functions reachable from `from` by one call or more.
std::vector<bool> reach(const std::vector<std::vector<int>>& calls, int from) {
  std::vector<bool> seen(calls.size());
  std::vector<int> todo{from};
  while (!todo.empty()) {
    int f = todo.back();
    todo.pop_back();
    for (int c : calls[(size_t)f])
      if (!seen[(size_t)c]) {
        seen[(size_t)c] = true;
        todo.push_back(c);
      }
  }
  return seen;
}

// The call sites of a body's group, numbered from 1 in the order of the
// code, each statement and block holding some mapped to its first and last.
std::pair<uint32_t, uint32_t> number_sites(const ir::Block& b, MachineBody& mb, uint32_t& next);

std::pair<uint32_t, uint32_t> number_sites(const ir::Stmt& s, MachineBody& mb, uint32_t& next) {
  std::pair<uint32_t, uint32_t> r{UINT32_MAX, 0};
  auto add = [&](std::pair<uint32_t, uint32_t> in) {
    r.first = std::min(r.first, in.first);
    r.second = std::max(r.second, in.second);
  };
  if (s.kind == StmtKind::call && std::count(mb.group->begin(), mb.group->end(), s.index)) add({++next, next});
  if (s.body) add(number_sites(*s.body, mb, next));
  if (s.else_body) add(number_sites(*s.else_body, mb, next));
  if (r.second) mb.sites[&s] = r;
  return r;
}

std::pair<uint32_t, uint32_t> number_sites(const ir::Block& b, MachineBody& mb, uint32_t& next) {
  std::pair<uint32_t, uint32_t> r{UINT32_MAX, 0};
  for (auto& s : b.stmts) {
    auto in = number_sites(*s, mb, next);
    r.first = std::min(r.first, in.first);
    r.second = std::max(r.second, in.second);
  }
  if (r.second) mb.sites[&b] = r;
  return r;
}

// The most values a function of the group returns: the machine's return registers.
size_t group_rets(const ir::Kernel& owner, const std::vector<int>& group) {
  size_t n = 0;
  for (int f : group) n = std::max(n, owner.funcs[(size_t)f]->rets.size());
  return n;
}

constexpr size_t kMaxFrameVars = 256;  // variables a body may save in its frame

}  // namespace

const std::vector<int>& recursive_group(ModuleState& ms, const ir::Kernel& owner, int index) {
  if (auto it = ms.groups.find(index); it != ms.groups.end()) return it->second;
  auto calls = callees(owner);
  std::vector<bool> from = reach(calls, index);
  std::vector<int> group;
  if (from[(size_t)index])
    for (size_t g = 0; g < calls.size(); g++)
      if (from[g] && reach(calls, (int)g)[(size_t)index]) group.push_back((int)g);
  return ms.groups[index] = std::move(group);
}

bool has_recursion(const ir::Kernel& k) {
  auto calls = callees(k);
  for (size_t f = 0; f < calls.size(); f++)
    if (reach(calls, (int)f)[f]) return true;
  return false;
}

bool recursive_call(const ir::Stmt& s, const ir::Kernel& k) {
  if (s.kind != StmtKind::call || s.index < 0 || (size_t)s.index >= k.funcs.size()) return false;
  return reach(callees(k), s.index)[(size_t)s.index];
}

bool calls_recursion(const ir::Stmt& task, const ir::Kernel& k) {
  auto calls = callees(k);
  bool any = false;
  for (ir::Block* blk : {task.tls_prologue(), task.body.get(), task.tls_epilogue()})
    if (blk)
      ir::walk(*blk, [&](ir::Stmt* s) {
        if (any || s->kind != StmtKind::call || s->index < 0 || (size_t)s->index >= calls.size()) return;
        std::vector<bool> r = reach(calls, s->index);
        r[(size_t)s->index] = true;
        for (size_t f = 0; f < r.size() && !any; f++) any = r[f] && reach(calls, (int)f)[f];
      });
  return any;
}

Id Gen::depth_limit() {
  if (!mod.depth_limit) mod.depth_limit = m.fresh();
  return mod.depth_limit;
}

Id Gen::frame_words() {
  if (!mod.frame_words) mod.frame_words = m.fresh();
  return mod.frame_words;
}

void Gen::check_depth(const ir::Stmt& call, const std::string& callee) {
  CheckInfo c{CheckInfo::recursion, call.loc};
  c.text = callee;
  mod.depth_checks.push_back(out.checks.size());
  out.checks.push_back(std::move(c));
  fail_if(m.op(Op::OpUGreaterThanEqual, m.t_bool(), {depth ? depth : cu32(0), depth_limit()}), (int)out.checks.size() - 1,
          {});
}

Id Gen::resuming_into(const void* p) {
  if (!resume_sites) return 0;
  auto it = resume_sites->find(p);
  if (it == resume_sites->end()) return 0;
  Id bt = m.t_bool(), r = m.op(Op::OpLoad, u32(), {resume_var});
  return m.op(Op::OpLogicalAnd, bt, {m.op(Op::OpUGreaterThanEqual, bt, {r, cu32(it->second.first)}),
                                     m.op(Op::OpULessThanEqual, bt, {r, cu32(it->second.second)})});
}

void Gen::guarded_block(const ir::Block& b) {
  Id bt = m.t_bool();
  auto fresh = [&] { return m.op(Op::OpIEqual, bt, {m.op(Op::OpLoad, u32(), {resume_var}), cu32(0)}); };
  std::vector<const ir::Stmt*> seg;
  auto flush = [&] {
    if (seg.empty()) return;
    ensure_open();
    run_kept(fresh(), seg);
    seg.clear();
  };
  for (auto& s : b.stmts) {
    if (!resume_sites->count(s.get())) {
      seg.push_back(s.get());
      continue;
    }
    flush();
    ensure_open();
    run_kept(m.op(Op::OpLogicalOr, bt, {fresh(), resuming_into(s.get())}), {s.get()});
  }
  flush();
}

const BodyFn& Gen::body_fn(const ir::Stmt& call, const FuncKey& key) {
  if (auto it = mod.bodies.find(key); it != mod.bodies.end()) return it->second;
  const ir::Kernel& fk = *owner->funcs[(size_t)key.first];
  if (fk.root.stmts.size() != 1 || fk.root.stmts[0]->task != ir::Task::serial)
    unsupported(call, "a recursive ti.real_func whose body is not serial code ('" + fk.name + "')");
  BodyFn& bf = mod.bodies[key];
  bf.fn = m.fresh();
  bf.number = (uint32_t)mod.bodies.size();
  mod.pending.back().push_back(key);
  return bf;
}

void Gen::machine_call(const ir::Stmt& s) {
  const ir::Kernel& fk = *owner->funcs[(size_t)s.index];
  const BodyFn& callee = body_fn(s, FuncKey{s.index, arg_slots(*this, s)});
  uint32_t site = mbody->sites.at(&s).first;
  Id bt = m.t_bool(), t = u64();
  auto word = [&](Id frame, uint32_t k) { return BufPtr{kStackBinding, m.op(Op::OpIAdd, u32(), {frame, cu32(k)}), Prim::u64}; };
  if_then(m.op(Op::OpIEqual, bt, {m.op(Op::OpLoad, u32(), {mbody->resume_var}), cu32(0)}), [&] {
    check_depth(s, fk.name);
    if_then(m.op(Op::OpUGreaterThanEqual, bt, {depth, depth_limit()}), [&] {
      m.op_void(Op::OpReturn, {});
      terminated = true;
    });
    Id key = call_key();
    store(word(mbody->frame, 0), m.c_bits(t, 64, (uint64_t)mbody->number << 32 | site));
    save_at.push_back(m.body.size());
    // The callee's frame, above this one.
    Id next = m.op(Op::OpIAdd, u32(), {mbody->base, m.op(Op::OpIMul, u32(), {depth, frame_words()})});
    store(word(next, 0), m.c_bits(t, 64, (uint64_t)callee.number << 32));
    store(word(next, 1), key);
    for (size_t i = 0; i < s.ops.size(); i++)
      store(word(next, 2 + (uint32_t)i), to_u64(val.at(s.ops[i]), type(fk.args[i].type.prim, &s)));
    m.op_void(Op::OpStore, {mbody->sp_ptr, m.op(Op::OpIAdd, u32(), {depth, cu32(1)})});
    m.op_void(Op::OpReturn, {});
    terminated = true;
  });
  // Resumed here: the callee has returned.
  std::vector<Id>& results = call_results[&s];
  for (size_t r = 0; r < fk.rets.size(); r++)
    results.push_back(from_u64(m.op(Op::OpLoad, t, {mbody->ret_regs[r]}), type(fk.rets[r].prim, &s)));
  m.op_void(Op::OpStore, {mbody->resume_var, cu32(0)});
}

void Gen::machine_ret(const ir::Stmt* s) {
  for (size_t i = 0; s && i < s->ops.size() && i < mbody->ret_regs.size(); i++)
    m.op_void(Op::OpStore, {mbody->ret_regs[i], to_u64(val.at(s->ops[i]), type(s->ops[i]->type.prim, s))});
  m.op_void(Op::OpStore, {mbody->sp_ptr, m.op(Op::OpISub, u32(), {depth, cu32(1)})});
  m.op_void(Op::OpReturn, {});
  terminated = true;
}

// A body's parameters: the caller's iteration, print sequence and loop pass
// count (as a function's), the machine's stack pointer, the invocation's
// first stack word, the machine's return registers.
static std::vector<Id> body_params(Gen& g, size_t rets) {
  SpirvModule& m = g.m;
  Id u32p = m.t_ptr(SC::Function, g.u32());
  std::vector<Id> types{g.u32(), u32p};
  if (g.loop_count) types.push_back(u32p);
  types.push_back(u32p);
  types.push_back(g.u32());
  for (size_t r = 0; r < rets; r++) types.push_back(m.t_ptr(SC::Function, g.u64()));
  return types;
}

void Gen::make_body(const FuncKey& key, BodyFn& bf) {
  const ir::Kernel& fk = *owner->funcs[(size_t)key.first];
  const ir::Stmt& task = *fk.root.stmts[0];
  ir::walk(*task.body, [&](ir::Stmt* s) {
    if (s->kind == StmtKind::ad_stack) unsupported(*s, "autodiff in a recursive ti.real_func ('" + fk.name + "')");
  });
  const std::vector<int>& group = recursive_group(mod, *owner, key.first);
  std::vector<Id> types = body_params(*this, group_rets(*owner, group));
  std::vector<std::pair<Id, Id>> params;
  size_t p = 0;
  Gen sub = function_gen(fk, types, params, p);
  FuncFrame fr;
  fr.fn = &fk;
  fr.slot = key.second;
  MachineBody mb;
  mb.group = &group;
  mb.number = bf.number;
  mb.sp_ptr = params[p++].second;
  mb.base = params[p++].second;
  while (p < params.size()) mb.ret_regs.push_back(params[p++].second);
  Id first = m.fresh();
  m.name(bf.fn, fk.name + ".frame");
  SpirvModule::Streams caller = m.begin_function();
  Id sp = sub.depth = m.op(Op::OpLoad, u32(), {mb.sp_ptr});
  mb.frame = m.op(Op::OpIAdd, u32(), {mb.base, m.op(Op::OpIMul, u32(), {m.op(Op::OpISub, u32(), {sp, cu32(1)}), frame_words()})});
  auto word = [&](uint32_t k) { return BufPtr{kStackBinding, m.op(Op::OpIAdd, u32(), {mb.frame, cu32(k)}), Prim::u64}; };
  Id resume_at = m.op(Op::OpUConvert, u32(), {sub.load(word(0))});
  Id call_key = sub.load(word(1));
  for (size_t a = 0; a < fk.args.size(); a++)
    fr.args.push_back(sub.from_u64(sub.load(word(2 + (uint32_t)a)), sub.type(fk.args[a].type.prim, &task)));
  sub.frame = &fr;
  sub.mbody = &mb;
  sub.resume_sites = &mb.sites;
  sub.random_init(task, 0, call_key);
  mb.resume_var = m.function_var(m.t_ptr(SC::Function, u32()));
  m.op_void(Op::OpStore, {mb.resume_var, resume_at});
  sub.resume_var = mb.resume_var;
  sub.if_then(m.op(Op::OpINotEqual, m.t_bool(), {resume_at, cu32(0)}), [&] { sub.restore_at = m.body.size(); });
  uint32_t sites = 0;
  number_sites(*task.body, mb, sites);
  sub.guarded_block(*task.body);
  if (!sub.terminated) sub.machine_ret(nullptr);
  uint32_t vars_at = 2 + (uint32_t)fk.args.size();
  int n = sub.splice_vars(mb.resume_var, kMaxFrameVars, [&](uint32_t i) { return word(vars_at + i); });
  if (n < 0)
    unsupported(task, "a recursive ti.real_func whose frame holds more than " + std::to_string(kMaxFrameVars) +
                          " variables, or one that is not a scalar ('" + fk.name + "')");
  mod.frame_max = std::max(mod.frame_max, vars_at + (uint32_t)n);
  m.end_function(std::move(caller), bf.fn, m.t_fn(m.t_void(), types), params, first);
  bf.loops = sub.task_loops;
}

const FuncInstance& Gen::machine(const ir::Stmt& call, const FuncKey& key) {
  if (auto it = mod.funcs.find(key); it != mod.funcs.end()) return it->second;
  if (!caps.int64) unsupported(call, "recursive ti.real_func calls on a device without 64-bit integers");
  m.capability(spv::Capability::Int64);
  const ir::Kernel& fk = *owner->funcs[(size_t)key.first];
  const std::vector<int>& group = recursive_group(mod, *owner, key.first);
  // The bodies this entry can reach, each made once.
  mod.pending.emplace_back();
  uint32_t entry = body_fn(call, key).number;
  while (!mod.pending.back().empty()) {
    FuncKey k = mod.pending.back().back();
    mod.pending.back().pop_back();
    make_body(k, mod.bodies.at(k));
  }
  mod.pending.pop_back();
  FuncInstance fi;
  fi.keyed = true;  // a recursive function calls
  fi.machine = true;
  fi.regs = (uint32_t)group_rets(*owner, group);
  Id u32p = m.t_ptr(SC::Function, u32()), t = u64();
  std::vector<Id> types{u32(), u32p};
  if (loop_count) types.push_back(u32p);
  types.push_back(t);
  for (const ir::KernelArg& a : fk.args) types.push_back(type(a.type.prim, &call));
  for (const Type& r : fk.rets) types.push_back(m.t_ptr(SC::Function, type(r.prim, &call)));
  types.push_back(u32());
  types.push_back(u32());  // the mode
  types.push_back(u32p);   // the stack pointer
  for (uint32_t r = 0; r < fi.regs; r++) types.push_back(m.t_ptr(SC::Function, t));
  fi.fn_type = m.t_fn(m.t_void(), types);
  std::vector<std::pair<Id, Id>> params;
  size_t p = 0;
  Gen g = function_gen(fk, types, params, p);
  Id call_key = params[p++].second;
  std::vector<Id> args, rets;
  for (size_t a = 0; a < fk.args.size(); a++) args.push_back(params[p++].second);
  for (size_t r = 0; r < fk.rets.size(); r++) rets.push_back(params[p++].second);
  Id caller_depth = params[p++].second;
  Id mode = params[p++].second;
  // The machine's state lives in the caller's variables: a machine that
  // stops past half the loop limit (mode kMachineMayStop or kMachineResume)
  // leaves its frames on the stack and goes on when called again with
  // kMachineResume (codegen_resume_parallel.cpp's Gen::site_body).
  Id sp = params[p++].second;
  std::vector<Id> regs;
  while (p < params.size()) regs.push_back(params[p++].second);
  Id fn = m.fresh(), first = m.fresh();
  m.name(fn, fk.name);
  SpirvModule::Streams caller = m.begin_function();
  Id bt = m.t_bool();
  Id gid = g.builtin_x(spv::BuiltIn::GlobalInvocationId, 0);
  Id base = m.op(Op::OpIMul, u32(), {gid, m.op(Op::OpIMul, u32(), {g.depth_limit(), g.frame_words()})});
  auto word = [&](Id frame, uint32_t k) { return BufPtr{kStackBinding, m.op(Op::OpIAdd, u32(), {frame, cu32(k)}), Prim::u64}; };
  // (the caller checked the depth: past the limit the call does nothing)
  g.if_then(m.op(Op::OpULessThan, bt, {caller_depth, g.depth_limit()}), [&] {
    g.if_then(m.op(Op::OpINotEqual, bt, {mode, cu32(kMachineResume)}), [&] {
      Id frame = m.op(Op::OpIAdd, u32(), {base, m.op(Op::OpIMul, u32(), {caller_depth, g.frame_words()})});
      g.store(word(frame, 0), m.c_bits(t, 64, (uint64_t)entry << 32));
      g.store(word(frame, 1), call_key);
      for (size_t a = 0; a < args.size(); a++)
        g.store(word(frame, 2 + (uint32_t)a), g.to_u64(args[a], g.type(fk.args[a].type.prim, &call)));
      m.op_void(Op::OpStore, {sp, m.op(Op::OpIAdd, u32(), {caller_depth, cu32(1)})});
    });
    Id top = 0;
    loop(
        g, &call,
        [&] {
          top = m.op(Op::OpLoad, u32(), {sp});
          Id ok = m.op(Op::OpIEqual, bt, {g.error_flag(), cu32(0)});
          return m.op(Op::OpLogicalAnd, bt, {m.op(Op::OpUGreaterThan, bt, {top, caller_depth}), ok});
        },
        [&] {
          if (g.loop_count) {  // past half the limit, a machine that may stop does
            Id count = m.op(Op::OpLoad, u32(), {g.loop_count});
            Id stop = m.op(Op::OpLogicalAnd, bt, {m.op(Op::OpINotEqual, bt, {mode, cu32(kMachineRun)}),
                                                  m.op(Op::OpUGreaterThanEqual, bt, {count, cu32(caps.loop_limit / 2)})});
            g.if_then(stop, [&] { g.branch(g.loops.at(&call).merge); });
          }
          Id at = m.op(Op::OpIAdd, u32(), {base, m.op(Op::OpIMul, u32(), {m.op(Op::OpISub, u32(), {top, cu32(1)}), g.frame_words()})});
          Id hdr = g.load(BufPtr{kStackBinding, at, Prim::u64});
          Id number = m.op(Op::OpUConvert, u32(), {m.op(Op::OpShiftRightLogical, t, {hdr, m.c_bits(t, 64, 32)})});
          for (auto& [k, bf] : mod.bodies) {
            if (!std::count(group.begin(), group.end(), k.first)) continue;
            g.if_then(m.op(Op::OpIEqual, bt, {number, cu32(bf.number)}), [&] {
              std::vector<uint32_t> ops{bf.fn, g.iter, g.seq_var};
              if (g.loop_count) ops.push_back(g.loop_count);
              ops.push_back(sp);
              ops.push_back(base);
              ops.insert(ops.end(), regs.begin(), regs.end());
              m.op(Op::OpFunctionCall, m.t_void(), ops);
            });
            g.loop_inner.back() += bf.loops;  // the driver inlines the body
          }
        },
        [] {});
  });
  for (size_t r = 0; r < rets.size(); r++)
    m.op_void(Op::OpStore, {rets[r], g.from_u64(m.op(Op::OpLoad, t, {regs[r]}), g.type(fk.rets[r].prim, &call))});
  m.op_void(Op::OpReturn, {});
  m.end_function(std::move(caller), fn, fi.fn_type, params, first);
  fi.tasks.push_back(fn);
  fi.loops = g.task_loops;
  return mod.funcs[key] = std::move(fi);
}

}  // namespace kiln::vk
