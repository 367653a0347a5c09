// ti.real_func calls that stay calls (recursive or early-returning
// functions; vm/ir/passes/inline_calls.cpp inlines the others). Each task
// of a function becomes a SPIR-V function of the module, made once per
// mapping of its arguments to the kernel's argument slots (an ndarray
// parameter is a binding of the kernel's, so each mapping is code of its
// own); a call is an OpFunctionCall of each in order, as the interpreter's
// call_real_func runs them. SPIR-V has no recursion: a recursive function
// runs on an explicit stack of frames (codegen_recursion.cpp).
//
// A task function's parameters: the caller's iteration (u32: prints and
// failed checks are the caller's), pointers to its print sequence and loop
// pass count (the driver inlines every call: its loops count against the
// invocation's limit, codegen.cpp), the random key of the call (u64, when
// the function draws or calls), the arguments, then a pointer per returned
// slot to the caller's variable; in a kernel that has recursive functions,
// then the caller's call depth (u32).
#include <algorithm>

#include "gpu/vulkan/codegen_state.h"
#include "vm/runtime/rng.h"

namespace kiln::vk {

using spv::Op;
using SC = spv::StorageClass;
using ir::StmtKind;

bool draws_or_calls(const ir::Kernel& f) {
  bool any = false;
  ir::walk(const_cast<ir::Block&>(f.root),
           [&](ir::Stmt* s) { any |= s->kind == StmtKind::random || s->kind == StmtKind::call; });
  return any;
}

// The kernel's argument slot each operand of `call` passes on: an argument
// load of the caller's (a kernel slot, or one its own caller passed on).
std::vector<int> arg_slots(const Gen& g, const ir::Stmt& call) {
  std::vector<int> slots;
  for (const ir::Stmt* a : call.ops) {
    int v = -1;
    if (a->kind == StmtKind::arg_load)
      v = !g.frame ? a->index : (size_t)a->index < g.frame->slot.size() ? g.frame->slot[(size_t)a->index] : -1;
    slots.push_back(v);
  }
  return slots;
}

// The instance of function `index` for argument slots `slots`, made now if
// the module lacks it.
static const FuncInstance& instance(Gen& g, const ir::Stmt& call, const std::vector<int>& slots) {
  ModuleState& ms = g.mod;
  int index = call.index;
  if (!g.owner || index < 0 || (size_t)index >= g.owner->funcs.size() || !g.owner->funcs[(size_t)index])
    g.unsupported(call, "a call of a function the kernel does not have");
  const ir::Kernel& fk = *g.owner->funcs[(size_t)index];
  auto key = std::make_pair(index, slots);
  if (!recursive_group(ms, *g.owner, index).empty()) return g.machine(call, key);
  if (auto it = ms.funcs.find(key); it != ms.funcs.end()) return it->second;
  SpirvModule& m = g.m;
  FuncInstance fi;
  fi.keyed = draws_or_calls(fk);
  Id u32p = m.t_ptr(SC::Function, g.u32());
  std::vector<Id> types{g.u32(), u32p};
  if (g.loop_count) types.push_back(u32p);
  if (fi.keyed) types.push_back(g.u64());
  for (const ir::KernelArg& a : fk.args) types.push_back(g.type(a.type.prim, &call));
  for (const Type& r : fk.rets) types.push_back(m.t_ptr(SC::Function, g.type(r.prim, &call)));
  if (ms.recursive) types.push_back(g.u32());
  fi.fn_type = m.t_fn(m.t_void(), types);
  uint32_t n = 0;
  for (auto& t : fk.root.stmts) {
    if (t->kind != StmtKind::offloaded || t->task != ir::Task::serial)
      g.unsupported(call, "a ti.real_func whose body is not serial code ('" + fk.name + "' has a struct-for over sparse SNodes)");
    std::vector<std::pair<Id, Id>> params;
    size_t p = 0;
    Gen sub = g.function_gen(fk, types, params, p);
    FuncFrame fr;
    fr.fn = &fk;
    fr.slot = slots;
    Id key = fi.keyed ? params[p++].second : 0;
    for (size_t a = 0; a < fk.args.size(); a++) fr.args.push_back(params[p++].second);
    for (size_t r = 0; r < fk.rets.size(); r++) fr.rets.push_back(params[p++].second);
    sub.frame = &fr;
    Id fn = m.fresh(), first = m.fresh();
    m.name(fn, fk.name + (fk.root.stmts.size() > 1 ? "." + std::to_string(n) : ""));
    SpirvModule::Streams caller = m.begin_function();
    if (ms.recursive) sub.depth = m.op(Op::OpIAdd, g.u32(), {params[p++].second, g.cu32(1)});
    if (key) sub.random_init(*t, n, key);
    sub.block(*t->body);
    if (!sub.terminated) m.op_void(Op::OpReturn, {});
    m.end_function(std::move(caller), fn, fi.fn_type, params, first);
    fi.tasks.push_back(fn);
    fi.loops += sub.task_loops;
    n++;
  }
  return ms.funcs[key] = std::move(fi);
}

Gen Gen::function_gen(const ir::Kernel& fk, const std::vector<Id>& types, std::vector<std::pair<Id, Id>>& params,
                      size_t& p) {
  Gen sub(fk, caps, out, mod);
  sub.prog = prog;
  sub.owner = owner;
  sub.task_index = task_index;
  for (Id ty : types) params.emplace_back(ty, m.fresh());
  p = 0;
  sub.iter = params[p++].second;
  sub.seq_var = params[p++].second;
  if (loop_count) sub.loop_count = params[p++].second;
  return sub;
}

Id Gen::call_key() {
  // The caller's stream advances by one step and keys the call (the
  // interpreter's call_real_func): rng_mix(key ^ rng_mix(state) ^ index).
  Id t = u64();
  Id state = m.op(Op::OpIAdd, t, {m.op(Op::OpLoad, t, {rng_state}), m.c_bits(t, 64, kRngGamma)});
  m.op_void(Op::OpStore, {rng_state, state});
  Id mixed = m.op(Op::OpBitwiseXor, t, {rng_key, rng_mix(state)});
  return rng_mix(m.op(Op::OpBitwiseXor, t, {mixed, m.op(Op::OpLoad, t, {rng_index})}));
}

void Gen::call(const ir::Stmt& s) {
  const ir::Kernel& fk = *owner->funcs.at((size_t)s.index);
  if (s.ops.size() != fk.args.size()) unsupported(s, "a call whose argument count differs from the function's");
  if (mbody && std::count(mbody->group->begin(), mbody->group->end(), s.index)) return machine_call(s);
  const FuncInstance& fi = instance(*this, s, arg_slots(*this, s));
  if (mod.recursive) check_depth(s, fk.name);
  std::vector<uint32_t> args{iter, seq_var};
  if (loop_count) args.push_back(loop_count);
  // A stopped machine's call made again (its frames are on the stack) draws no new key.
  Id here = fi.machine && cur_site && site_word
                ? m.op(Op::OpIEqual, m.t_bool(), {m.op(Op::OpLoad, u32(), {resume_var}), cu32(cur_site)})
                : 0;
  if (fi.keyed && here) {
    Id kv = m.function_var(m.t_ptr(SC::Function, u64()));
    m.op_void(Op::OpStore, {kv, m.c_bits(u64(), 64, 0)});
    if_then(m.op(Op::OpLogicalNot, m.t_bool(), {here}), [&] { m.op_void(Op::OpStore, {kv, call_key()}); });
    args.push_back(m.op(Op::OpLoad, u64(), {kv}));
  } else if (fi.keyed) {
    args.push_back(call_key());
  }
  for (const ir::Stmt* a : s.ops) args.push_back(val.at(a));
  std::vector<Id> rets;
  for (const Type& r : fk.rets) {
    Id v = m.function_var(m.t_ptr(SC::Function, type(r.prim, &s)));
    rets.push_back(v);
    args.push_back(v);
  }
  if (mod.recursive) args.push_back(depth ? depth : cu32(0));
  // A recursive group's machine: the mode, and the caller's variables for
  // its state (a site of a resumable serial task keeps them when it stops).
  Id sp = 0;
  if (fi.machine) {
    args.push_back(here ? m.op(Op::OpSelect, u32(), {here, cu32(kMachineResume), cu32(kMachineMayStop)}) : cu32(kMachineRun));
    sp = m.function_var(m.t_ptr(SC::Function, u32()));
    args.push_back(sp);
    site_saved.push_back(sp);
    for (uint32_t r = 0; r < fi.regs; r++) {
      args.push_back(m.function_var(m.t_ptr(SC::Function, u64())));
      site_saved.push_back(args.back());
    }
  }
  for (Id fn : fi.tasks) {
    std::vector<uint32_t> ops{fn};
    ops.insert(ops.end(), args.begin(), args.end());
    m.op(Op::OpFunctionCall, m.t_void(), ops);
  }
  // A machine that stopped left frames above this caller's depth: the task
  // stops here too, and calls it again (kMachineResume) in the next dispatch.
  if (fi.machine && cur_site && site_word && loop_count) {
    Id bt = m.t_bool();
    Id left = m.op(Op::OpUGreaterThan, bt, {m.op(Op::OpLoad, u32(), {sp}), depth ? depth : cu32(0)});
    site_stop(m.op(Op::OpLogicalAnd, bt, {left, m.op(Op::OpIEqual, bt, {error_flag(), cu32(0)})}));
  }
  std::vector<Id>& results = call_results[&s];
  for (size_t r = 0; r < rets.size(); r++) results.push_back(m.op(Op::OpLoad, type(fk.rets[r].prim), {rets[r]}));
  // The driver inlines the call: its loops are loops of this one (codegen.cpp's loop_close).
  (loop_inner.empty() ? task_loops : loop_inner.back()) += fi.loops;
}

}  // namespace kiln::vk
