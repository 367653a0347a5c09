// ti.random on the device: the runtime's counter-based streams
// (vm/runtime/rng.h) in 64-bit integer arithmetic, so a draw depends only on
// (seed, launch, task, iteration index, draws so far in that iteration) and
// the device prints the numbers the CPU engines print.
#include "gpu/vulkan/codegen_state.h"
#include "vm/runtime/rng.h"

namespace kiln::vk {

using spv::Op;
using SC = spv::StorageClass;

// SplitMix64's finalizer (rng_mix) on a u64 value.
Id Gen::rng_mix(Id z) {
  Id t = u64();
  auto shift_xor = [&](Id v, uint32_t k) {
    return m.op(Op::OpBitwiseXor, t, {v, m.op(Op::OpShiftRightLogical, t, {v, m.c_bits(t, 64, k)})});
  };
  z = m.op(Op::OpIMul, t, {shift_xor(z, 30), m.c_bits(t, 64, 0xbf58476d1ce4e5b9ull)});
  z = m.op(Op::OpIMul, t, {shift_xor(z, 27), m.c_bits(t, 64, 0x94d049bb133111ebull)});
  return shift_xor(z, 31);
}

void Gen::random_init(const ir::Stmt& task, uint32_t task_no, Id call_key) {
  bool draws = false, calls = false;  // a ti.real_func call keys its callee's draws from the stream too
  for (ir::Block* blk : {task.tls_prologue(), task.body.get(), task.tls_epilogue()})
    if (blk)
      ir::walk(*blk, [&](ir::Stmt* s) {
        draws |= s->kind == ir::StmtKind::random;
        calls |= s->kind == ir::StmtKind::call;
      });
  if (!draws && !calls) return;
  if (!caps.int64) unsupported(task, "ti.random on a device without 64-bit integers");
  m.capability(spv::Capability::Int64);
  Id t = u64();
  Id launch_key = call_key ? call_key : load(ctx_slot(out.rng_slot(), Prim::u64));
  // The state a call's key mixes in before the task draws: 0, as a CPU thread
  // starts each chunk (in a parallel loop a call that draws follows a step of
  // the iteration's stream, which the frontend emits, so no invocation's
  // calls repeat another's).
  Id state0 = m.c_bits(t, 64, 0);
  // rng_task_key(launch key, task).
  Id gamma = m.c_bits(t, 64, kRngGamma);
  rng_key = rng_mix(m.op(Op::OpIAdd, t, {launch_key, m.op(Op::OpIMul, t, {m.c_bits(t, 64, (uint64_t)task_no + 1), gamma})}));
  // rng_init: no index yet (a draw's value does not depend on which
  // invocation makes it: its index starts the stream afresh).
  rng_index = m.function_var(m.t_ptr(SC::Function, t));
  rng_state = m.function_var(m.t_ptr(SC::Function, t));
  m.op_void(Op::OpStore, {rng_index, m.c_bits(t, 64, kRngNoIndex)});
  m.op_void(Op::OpStore, {rng_state, state0});
}

Id Gen::random(const ir::Stmt& s) {
  if (!rng_key) unsupported(s, "ti.random outside a task that set up its stream");
  Prim p = s.type.prim;
  if (p == Prim::f64 && !caps.float64) unsupported(s, "ti.random(ti.f64) on a device without f64");
  Id t = u64(), bt = m.t_bool();
  // rng_next: a new iteration index starts its stream afresh.
  Id idx = to_u64_reg(val.at(s.ops[0]), s.ops[0]->type.prim);
  Id fresh = m.op(Op::OpINotEqual, bt, {idx, m.op(Op::OpLoad, t, {rng_index})});
  Id base = rng_mix(m.op(Op::OpBitwiseXor, t, {rng_key, rng_mix(idx)}));
  Id state = m.op(Op::OpSelect, t, {fresh, base, m.op(Op::OpLoad, t, {rng_state})});
  state = m.op(Op::OpIAdd, t, {state, m.c_bits(t, 64, kRngGamma)});
  m.op_void(Op::OpStore, {rng_index, idx});
  m.op_void(Op::OpStore, {rng_state, state});
  Id bits = rng_mix(state);
  // rng_to_reg: floats from the top 24 / 53 bits, ints the top or all bits.
  auto top = [&](uint32_t k) { return m.op(Op::OpShiftRightLogical, t, {bits, m.c_bits(t, 64, 64 - k)}); };
  switch (p) {
    case Prim::f32: {
      Id f = type(Prim::f32);
      return m.op(Op::OpFMul, f, {m.op(Op::OpConvertUToF, f, {top(24)}), const_float(Prim::f32, 0x1.0p-24)});
    }
    case Prim::f64: {
      Id d = type(Prim::f64);
      return m.op(Op::OpFMul, d, {m.op(Op::OpConvertUToF, d, {top(53)}), const_float(Prim::f64, 0x1.0p-53)});
    }
    case Prim::i32:
    case Prim::u32: return cast(m.op(Op::OpUConvert, u32(), {top(32)}), Prim::u32, p, s);
    case Prim::i64:
    case Prim::u64: return cast(bits, Prim::u64, p, s);
    default: unsupported(s, std::string("ti.random(") + std::string(prim_name(p)) + ")");
  }
}

}  // namespace kiln::vk
