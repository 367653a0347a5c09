// ti.simt on the device: block-shared arrays as Workgroup variables, block
// and subgroup barriers as OpControlBarrier / OpMemoryBarrier, and the
// subgroup operations as SPIR-V's OpGroupNonUniform* instructions.
//
// A shared array is an array of words, u32 (u64 for 64-bit dtypes), one
// element (one component of a vector element) a word: Workgroup memory has
// no views of other types, and a word per element lets every dtype's
// atomics be a native atomic or a compare-and-swap on its word
// (codegen_memory.cpp's loop). Indices are checked against the shape as a
// field's are (an IndexError after the launch). The array is not cleared:
// what a block reads before it writes is undefined, as on every GPU.
//
// A task's workgroup is ti.loop_config(block_dim=N)'s N invocations (else
// kLocalSize), and its grid-stride loop (codegen.cpp) gives each round of a
// workgroup N consecutive iterations: iterations k*N .. k*N + N - 1 of the
// range share an array and a barrier, as Taichi's blocks do.
#include "gpu/vulkan/codegen_state.h"
#include "vm/ir/simt.h"

namespace kiln::vk {

using spv::Op;
using SC = spv::StorageClass;
using ir::SimtOp;

bool uses_simt(const ir::Stmt& task) { return ir::uses_simt(task); }

static Prim shared_word(Prim p) { return prim_bits(p) == 64 ? Prim::u64 : Prim::u32; }

void Gen::shared_array(const ir::Stmt& s) {
  Prim word = shared_word(s.type.prim);
  uint32_t bytes = (uint32_t)s.index * (uint32_t)(prim_bits(word) / 8);
  mod.shared_bytes += bytes;
  if (mod.shared_bytes > caps.max_shared_bytes)
    raise("ValueError",
          "shared arrays of " + std::to_string(mod.shared_bytes) + " bytes in a task: the vulkan device gives a workgroup at most " +
              std::to_string(caps.max_shared_bytes) + " bytes of shared memory",
          s.loc);
  type(s.type.prim, &s);  // the dtype's capability (Int8, Float16, ...)
  Id arr = m.t_array(type(word), (uint32_t)s.index);
  shared_vars[&s] = m.global_var(m.t_ptr(SC::Workgroup, arr), SC::Workgroup);
}

void Gen::shared_ptr(const ir::Stmt& s) {
  const ir::Stmt* arr = s.ops[0];
  const std::vector<int64_t>& shape = arr->access->shape;
  Id bt = m.t_bool();
  Id flat = cu32(0), ok = 0;
  for (size_t a = 0; a < shape.size(); a++) {
    const ir::Stmt* i = s.ops[a + 1];
    Prim q = i->type.prim;
    if (prim_bits(q) != 32) unsupported(s, "a shared array index of type " + std::string(prim_name(q)));
    Id v = val.at(i);
    Id u = as_unsigned(v, q);  // a negative index is past the end as a u32
    Id in = m.op(Op::OpULessThan, bt, {u, cu32((uint32_t)shape[a])});
    CheckInfo c{CheckInfo::shared_bounds, s.loc};
    c.field = arr->access->field;
    c.axis = (int)a;
    c.shape = shape;
    out.checks.push_back(c);
    fail_if(m.op(Op::OpLogicalNot, bt, {in}), (int)out.checks.size() - 1, {to_u64_reg(v, q)});
    ok = ok ? m.op(Op::OpLogicalAnd, bt, {ok, in}) : in;
    flat = m.op(Op::OpIAdd, u32(), {m.op(Op::OpIMul, u32(), {flat, cu32((uint32_t)shape[a])}), u});
  }
  Id index = m.op(Op::OpIAdd, u32(),
                  {m.op(Op::OpIMul, u32(), {flat, cu32((uint32_t)arr->access->ext_comps)}), cu32((uint32_t)s.index)});
  // A failed check has been recorded; the access goes to element 0.
  if (ok) index = m.op(Op::OpSelect, u32(), {ok, index, cu32(0)});
  BufPtr bp{-1, index, arr->type.prim};
  bp.wg = shared_vars.at(arr);
  ptr[&s] = bp;
}

// A word holds its element's bits in its low bits (bf16: the pattern).
Id Gen::shared_load(const BufPtr& bp) {
  Prim p = bp.prim, w = shared_word(p);
  BufPtr word = bp;
  word.prim = w;
  Id bits = m.op(Op::OpLoad, type(w), {chain(word)});
  int n = prim_bits(p);
  if (p == Prim::bf16) return bf16_from_bits(m.op(Op::OpUConvert, type(Prim::u16), {bits}));
  if (p == w) return bits;
  if (n < 32) bits = m.op(Op::OpUConvert, m.t_int(n, false), {bits});
  return p == Prim::u8 || p == Prim::u16 ? bits : m.op(Op::OpBitcast, type(p), {bits});
}

void Gen::shared_store(const BufPtr& bp, Id v) {
  Prim p = bp.prim, w = shared_word(p);
  BufPtr word = bp;
  word.prim = w;
  int n = prim_bits(p);
  Id bits;
  if (p == Prim::bf16) bits = bf16_bits(v);
  else if (p == w) bits = v;
  else if (n < 32)
    bits = m.op(Op::OpUConvert, u32(), {prim_is_float(p) ? m.op(Op::OpBitcast, m.t_int(n, false), {v}) : as_unsigned(v, p)});
  else bits = m.op(Op::OpBitcast, type(w), {v});
  m.op_void(Op::OpStore, {chain(word), bits});
}

// 32- and 64-bit integer atomics other than mul are native on the word;
// the rest go through the compare-and-swap loop of Gen::atomic (0 here).
Id Gen::shared_atomic(const ir::Stmt& s, const BufPtr& bp, Id v) {
  Prim p = bp.prim;
  if (!prim_is_int(p) || prim_bits(p) < 32 || s.aop == ir::AtomicOp::mul) return 0;
  bool sg = prim_is_signed(p);
  Prim w = shared_word(p);
  BufPtr word = bp;
  word.prim = w;
  Id wt = type(w);
  Id x = sg ? m.op(Op::OpBitcast, wt, {v}) : v;
  Id old = m.op(int_atomic_op(s.aop, sg), wt, {chain(word), cu32((uint32_t)spv::Scope::Workgroup), cu32(0), x});
  return sg ? m.op(Op::OpBitcast, type(p), {old}) : old;
}

Id Gen::builtin_scalar(spv::BuiltIn b) {
  Id& var = mod.builtin_vars[(uint32_t)b];
  if (!var) {
    var = m.global_var(m.t_ptr(SC::Input, u32()), SC::Input);
    m.decorate(var, spv::Decoration::BuiltIn, {(uint32_t)b});
  }
  return m.op(Op::OpLoad, u32(), {var});
}

namespace {

// VkSubgroupFeatureFlagBits, and the capability each needs in SPIR-V.
enum SubgroupFeature : uint32_t { kBasic = 1, kVote = 2, kArithmetic = 4, kBallot = 8, kShuffle = 16, kRelative = 32 };

uint32_t feature_of(SimtOp op) {
  switch (op) {
    case SimtOp::all_true:
    case SimtOp::any_true:
    case SimtOp::all_equal: return kVote;
    case SimtOp::broadcast:
    case SimtOp::broadcast_first: return kBallot;
    case SimtOp::shuffle:
    case SimtOp::shuffle_xor: return kShuffle;
    case SimtOp::shuffle_up:
    case SimtOp::shuffle_down: return kRelative;
    case SimtOp::reduce:
    case SimtOp::inclusive:
    case SimtOp::exclusive: return kArithmetic;
    default: return kBasic;
  }
}

spv::Capability capability_of(uint32_t feature) {
  switch (feature) {
    case kVote: return spv::Capability::GroupNonUniformVote;
    case kArithmetic: return spv::Capability::GroupNonUniformArithmetic;
    case kBallot: return spv::Capability::GroupNonUniformBallot;
    case kShuffle: return spv::Capability::GroupNonUniformShuffle;
    case kRelative: return spv::Capability::GroupNonUniformShuffleRelative;
    default: return spv::Capability::GroupNonUniform;
  }
}

const char* feature_name(uint32_t feature) {
  switch (feature) {
    case kVote: return "vote";
    case kArithmetic: return "arithmetic";
    case kBallot: return "ballot";
    case kShuffle: return "shuffle";
    case kRelative: return "relative shuffle";
    default: return "basic";
  }
}

// The group instruction of a reduction or scan with `aop` on values of `p`.
Op group_arith(ir::AtomicOp aop, Prim p) {
  bool f = prim_is_float(p), sg = prim_is_signed(p);
  switch (aop) {
    case ir::AtomicOp::add: return f ? Op::OpGroupNonUniformFAdd : Op::OpGroupNonUniformIAdd;
    case ir::AtomicOp::mul: return f ? Op::OpGroupNonUniformFMul : Op::OpGroupNonUniformIMul;
    case ir::AtomicOp::min: return f ? Op::OpGroupNonUniformFMin : sg ? Op::OpGroupNonUniformSMin : Op::OpGroupNonUniformUMin;
    case ir::AtomicOp::max: return f ? Op::OpGroupNonUniformFMax : sg ? Op::OpGroupNonUniformSMax : Op::OpGroupNonUniformUMax;
    case ir::AtomicOp::bit_and: return Op::OpGroupNonUniformBitwiseAnd;
    case ir::AtomicOp::bit_or: return Op::OpGroupNonUniformBitwiseOr;
    default: return Op::OpGroupNonUniformBitwiseXor;
  }
}

}  // namespace

void Gen::simt(const ir::Stmt& s) {
  auto op = (SimtOp)s.index;
  Id bt = m.t_bool();
  // Workgroup memory, made visible to the other invocations at the barrier.
  Id sem = cu32((uint32_t)(spv::MemorySemanticsMask::AcquireRelease | spv::MemorySemanticsMask::WorkgroupMemory));
  Id wg = cu32((uint32_t)spv::Scope::Workgroup), sub = cu32((uint32_t)spv::Scope::Subgroup);
  switch (op) {
    case SimtOp::block_sync: m.op_void(Op::OpControlBarrier, {wg, wg, sem}); return;
    case SimtOp::block_mem_sync: m.op_void(Op::OpMemoryBarrier, {wg, sem}); return;
    case SimtOp::thread_idx: val[&s] = m.op(Op::OpBitcast, i32(), {builtin_x(spv::BuiltIn::LocalInvocationId, 0)}); return;
    case SimtOp::global_thread_idx:
      val[&s] = m.op(Op::OpBitcast, i32(), {builtin_x(spv::BuiltIn::GlobalInvocationId, 0)});
      return;
    default: break;
  }
  uint32_t feature = feature_of(op);
  std::string what = std::string("ti.simt.subgroup.") + ir::simt_op_name(op);
  if (!(caps.subgroup_ops & feature))
    unsupported(s, what + " (this device has no " + feature_name(feature) + " subgroup operations)");
  m.capability(spv::Capability::GroupNonUniform);
  m.capability(capability_of(feature));
  Prim p = s.ops.empty() ? Prim::i32 : s.ops[0]->type.prim;
  if (!s.ops.empty() && prim_bits(p) != 32 && p != Prim::bf16 && !caps.subgroup_extended_types)
    unsupported(s, what + " on " + std::string(prim_name(p)) + " (this device's subgroup operations take 32-bit values)");
  Id x = s.ops.empty() ? 0 : val.at(s.ops[0]);
  Id t = s.ops.empty() ? 0 : type(p, &s);
  Id lane = s.ops.size() > 1 ? m.op(Op::OpBitcast, u32(), {val.at(s.ops[1])}) : 0;
  Id r = 0;
  switch (op) {
    case SimtOp::subgroup_barrier: m.op_void(Op::OpControlBarrier, {sub, sub, sem}); return;
    case SimtOp::subgroup_memory_barrier: m.op_void(Op::OpMemoryBarrier, {sub, sem}); return;
    case SimtOp::group_size: r = m.op(Op::OpBitcast, i32(), {builtin_scalar(spv::BuiltIn::SubgroupSize)}); break;
    case SimtOp::invocation_id:
      r = m.op(Op::OpBitcast, i32(), {builtin_scalar(spv::BuiltIn::SubgroupLocalInvocationId)});
      break;
    case SimtOp::elect: r = from_bool(m.op(Op::OpGroupNonUniformElect, bt, {sub}), Prim::i32); break;
    case SimtOp::all_true:
    case SimtOp::any_true:
      r = from_bool(m.op(op == SimtOp::all_true ? Op::OpGroupNonUniformAll : Op::OpGroupNonUniformAny, bt,
                         {sub, to_bool(x, p)}),
                    Prim::i32);
      break;
    case SimtOp::all_equal: r = from_bool(m.op(Op::OpGroupNonUniformAllEqual, bt, {sub, x}), Prim::i32); break;
    case SimtOp::broadcast_first: r = m.op(Op::OpGroupNonUniformBroadcastFirst, t, {sub, x}); break;
    case SimtOp::broadcast: r = m.op(Op::OpGroupNonUniformBroadcast, t, {sub, x, lane}); break;
    case SimtOp::shuffle: r = m.op(Op::OpGroupNonUniformShuffle, t, {sub, x, lane}); break;
    case SimtOp::shuffle_xor: r = m.op(Op::OpGroupNonUniformShuffleXor, t, {sub, x, lane}); break;
    case SimtOp::shuffle_up: r = m.op(Op::OpGroupNonUniformShuffleUp, t, {sub, x, lane}); break;
    case SimtOp::shuffle_down: r = m.op(Op::OpGroupNonUniformShuffleDown, t, {sub, x, lane}); break;
    case SimtOp::reduce:
    case SimtOp::inclusive:
    case SimtOp::exclusive: {
      auto g = op == SimtOp::reduce      ? spv::GroupOperation::Reduce
               : op == SimtOp::inclusive ? spv::GroupOperation::InclusiveScan
                                         : spv::GroupOperation::ExclusiveScan;
      r = m.op(group_arith(s.aop, p), t, {sub, (uint32_t)g, x});
      if (p == Prim::bf16 && (s.aop == ir::AtomicOp::add || s.aop == ir::AtomicOp::mul)) r = round_bf16(r);
      break;
    }
    default: unsupported(s, what);
  }
  val[&s] = r;
}

}  // namespace kiln::vk
