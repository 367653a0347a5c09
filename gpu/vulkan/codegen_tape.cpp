// Autodiff tapes (ad_stack / ad_push / ad_pop / ad_top) in SPIR-V.
//
// On the CPU engines a tape lives past the frame's registers as
// [capacity, count, values...]. A shader invocation has no such frame, so a
// tape is two Function-storage variables: an array of `capacity` values of
// the tape's type and a u32 count. Each invocation (one loop iteration of the
// gradient kernel) owns its tapes, as each CPU thread owns its frame. A full
// tape fails the launch with the interpreter's message; the push is then
// dropped (the launch reports the error, never the results).
#include "gpu/vulkan/codegen_state.h"
#include "vm/bytecode/function.h"

namespace kiln::vk {

using spv::Op;
using SC = spv::StorageClass;

// Function memory per invocation that we allow one tape: a driver spills such
// arrays to scratch memory, and huge ones fail pipeline creation instead of
// giving a clear error.
static constexpr uint64_t kMaxTapeBytes = 1u << 20;

void Gen::tape_decl(const ir::Stmt& s) {
  Prim p = s.type.prim;
  uint64_t cap = (uint64_t)s.index;
  if (cap == 0 || cap * (uint64_t)(prim_bits(p) / 8) > kMaxTapeBytes)
    unsupported(s, "autodiff tapes of " + std::to_string(cap) + " values (more than " +
                       std::to_string(kMaxTapeBytes >> 10) + " KiB per invocation; lower ad_stack_size)");
  Tape t;
  t.prim = p;
  t.capacity = (uint32_t)cap;
  t.values = m.function_var(m.t_ptr(SC::Function, m.t_array(type(p, &s), t.capacity)));
  t.count = m.function_var(m.t_ptr(SC::Function, u32()));
  // Re-emptied where declared, as on the CPU engines.
  m.op_void(Op::OpStore, {t.count, cu32(0)});
  t.check = (int)out.checks.size();
  out.checks.push_back(CheckInfo{CheckInfo::tape_overflow, s.loc});
  out.checks.back().capacity = t.capacity;
  tapes[&s] = t;
}

void Gen::tape_push(const ir::Stmt& s) {
  const Tape& t = tapes.at(s.ops[0]);
  Id n = m.op(Op::OpLoad, u32(), {t.count});
  Id full = m.op(Op::OpUGreaterThanEqual, m.t_bool(), {n, cu32(t.capacity)});
  fail_if(full, t.check, {});
  if_then(m.op(Op::OpLogicalNot, m.t_bool(), {full}), [&] {
    Id slot = m.op(Op::OpAccessChain, m.t_ptr(SC::Function, type(t.prim)), {t.values, n});
    m.op_void(Op::OpStore, {slot, val.at(s.ops[1])});
    m.op_void(Op::OpStore, {t.count, m.op(Op::OpIAdd, u32(), {n, cu32(1)})});
  });
}

// Pops and reads never outnumber the pushes of the same iteration (the
// reverse pass mirrors the forward one), except after a dropped push, when the
// launch fails anyway: the count stays at zero and reads use slot 0.
void Gen::tape_pop(const ir::Stmt& s) {
  const Tape& t = tapes.at(s.ops[0]);
  Id n = m.op(Op::OpLoad, u32(), {t.count});
  Id empty = m.op(Op::OpIEqual, m.t_bool(), {n, cu32(0)});
  m.op_void(Op::OpStore, {t.count, m.op(Op::OpSelect, u32(), {empty, n, m.op(Op::OpISub, u32(), {n, cu32(1)})})});
}

Id Gen::tape_top(const ir::Stmt& s) {
  const Tape& t = tapes.at(s.ops[0]);
  Id n = m.op(Op::OpLoad, u32(), {t.count});
  Id empty = m.op(Op::OpIEqual, m.t_bool(), {n, cu32(0)});
  Id at = m.op(Op::OpSelect, u32(), {empty, cu32(0), m.op(Op::OpISub, u32(), {n, cu32(1)})});
  Id slot = m.op(Op::OpAccessChain, m.t_ptr(SC::Function, type(t.prim)), {t.values, at});
  return m.op(Op::OpLoad, type(t.prim), {slot});
}

}  // namespace kiln::vk
