// Buffers and what goes through them: field and temp pointers, loads,
// stores, atomics (compare-and-swap loops where the device lacks a float
// atomic), kernel arguments and returns, prints, and failed checks.
#include <algorithm>

#include "gpu/vulkan/codegen_state.h"

namespace kiln::vk {

using spv::Op;
using SC = spv::StorageClass;

static bool is_signed(Prim p) { return prim_is_int(p) && prim_is_signed(p); }

Id Gen::view(int binding, Prim p) {
  auto key = std::make_pair(binding, p);
  auto it = mod.views.find(key);
  if (it != mod.views.end()) return it->second;
  int bytes = prim_bits(p) / 8;
  if (bytes == 1) {
    if (!caps.storage8) raise("NotImplementedError", "vulkan: this device cannot store 8-bit values in buffers");
    m.capability(spv::Capability::StorageBuffer8BitAccess);
  }
  if (bytes == 2) {
    if (!caps.storage16) raise("NotImplementedError", "vulkan: this device cannot store 16-bit values in buffers");
    m.capability(spv::Capability::StorageBuffer16BitAccess);
  }
  Id block = m.t_buffer_block(type(p), bytes);
  Id var = m.global_var(m.t_ptr(SC::StorageBuffer, block), SC::StorageBuffer);
  m.decorate(var, spv::Decoration::DescriptorSet, {0});
  m.decorate(var, spv::Decoration::Binding, {(uint32_t)binding});
  // Several views of one buffer (a tree holds fields of many types) alias.
  m.decorate(var, spv::Decoration::Aliased);
  return mod.views[key] = var;
}

Id Gen::chain(const BufPtr& bp) {
  if (bp.wg) return m.op(Op::OpAccessChain, m.t_ptr(SC::Workgroup, type(bp.prim)), {bp.wg, bp.index});
  return m.op(Op::OpAccessChain, m.t_ptr(SC::StorageBuffer, type(bp.prim)), {view(bp.binding, bp.prim), cu32(0), bp.index});
}

// bf16 elements are u16 patterns in memory, f32 values in the shader.
Id Gen::load(const BufPtr& bp) {
  if (bp.wg) return shared_load(bp);
  if (bp.prim == Prim::bf16) {
    BufPtr u = bp;
    u.prim = Prim::u16;
    return bf16_from_bits(m.op(Op::OpLoad, type(Prim::u16), {chain(u)}));
  }
  return m.op(Op::OpLoad, type(bp.prim), {chain(bp)});
}

void Gen::store(const BufPtr& bp, Id v) {
  if (bp.wg) return shared_store(bp, v);
  if (bp.prim == Prim::bf16) {
    BufPtr u = bp;
    u.prim = Prim::u16;
    m.op_void(Op::OpStore, {chain(u), m.op(Op::OpUConvert, type(Prim::u16), {bf16_bits(v)})});
    return;
  }
  m.op_void(Op::OpStore, {chain(bp), v});
}

BufPtr Gen::ctx_slot(int slot, Prim p) { return BufPtr{0, cu32((uint32_t)(slot * 8 / (prim_bits(p) / 8))), p}; }

Id Gen::error_flag() { return load(BufPtr{0, cu32((uint32_t)out.err_word()), Prim::u32}); }

static Id scope_device(Gen& g) { return g.cu32((uint32_t)spv::Scope::Device); }
static Id relaxed(Gen& g) { return g.cu32(0); }

void Gen::fail_if(Id failed, int check, const std::vector<Id>& values) {
  if_then(failed, [&] {
    Id flag = chain(BufPtr{0, cu32((uint32_t)out.err_word()), Prim::u32});
    Id old = m.op(Op::OpAtomicCompareExchange, u32(),
                  {flag, scope_device(*this), relaxed(*this), relaxed(*this), cu32((uint32_t)check + 1), cu32(0)});
    if_then(m.op(Op::OpIEqual, m.t_bool(), {old, cu32(0)}), [&] {
      uint32_t w = (uint32_t)out.err_word();
      store(BufPtr{0, cu32(w + 1), Prim::u32}, cu32((uint32_t)task_index));
      store(BufPtr{0, cu32(w + 2), Prim::u32}, iter);
      store(BufPtr{0, cu32(w + 3), Prim::u32}, m.op(Op::OpLoad, u32(), {seq_var}));
      for (size_t k = 0; k < values.size() && k < 8; k++) store(BufPtr{0, cu32(w / 2 + 2 + (uint32_t)k), Prim::u64}, values[k]);
    });
  });
}

// An ndarray argument's element: bounds against the shape arguments, then
// the C-order index ((i0 * s1 + i1) * s2 + ...) * comps + comp in elements
// of its type, in the ndarray's own buffer.
void Gen::ndarray_ptr(const ir::Stmt& s) {
  const ir::Access& acc = s.access;
  // In a ti.real_func the argument is the kernel's that the calls pass on.
  int arg = acc.ext_arg;
  if (frame) arg = (size_t)arg < frame->slot.size() ? frame->slot[(size_t)arg] : -1;
  int nb = 0;
  while (nb < (int)out.ndarrays.size() && out.ndarrays[(size_t)nb].arg != arg) nb++;
  if (arg < 0 || nb == (int)out.ndarrays.size()) unsupported(s, "an ndarray argument that was not bound");
  Id bt = m.t_bool();
  size_t n = s.ops.size();
  std::vector<Id> shape(n), idx(n);
  for (size_t k = 0; k < n; k++) shape[k] = load(ctx_slot(arg + 1 + (int)k, Prim::i32));
  Id ok = 0;
  for (size_t k = 0; k < n; k++) {
    Prim q = s.ops[k]->type.prim;
    Id v = val.at(s.ops[k]);
    // Compared as i64: an index of any integer type against an i32 extent.
    Id v64 = cast(v, q, Prim::i64, s);
    if (acc.checked) {
      Id in = m.op(Op::OpLogicalAnd, bt,
                   {m.op(Op::OpSGreaterThanEqual, bt, {v64, const_int(Prim::i64, 0)}),
                    m.op(Op::OpSLessThan, bt, {v64, cast(shape[k], Prim::i32, Prim::i64, s)})});
      CheckInfo c{CheckInfo::ndarray_bounds, s.loc};
      c.field = acc.field;
      c.axis = (int)k;
      c.ndim = (int)n;
      out.checks.push_back(c);
      std::vector<Id> vals{m.op(Op::OpBitcast, u64(), {v64})};
      for (size_t j = 0; j < n && j < 7; j++) vals.push_back(to_u64_reg(shape[j], Prim::i32));
      fail_if(m.op(Op::OpLogicalNot, bt, {in}), (int)out.checks.size() - 1, vals);
      ok = ok ? m.op(Op::OpLogicalAnd, bt, {ok, in}) : in;
    }
    idx[k] = m.op(Op::OpUConvert, u32(), {m.op(Op::OpBitcast, u64(), {v64})});
  }
  Id index = n ? idx[0] : cu32(0);
  for (size_t k = 1; k < n; k++)
    index = m.op(Op::OpIAdd, u32(), {m.op(Op::OpIMul, u32(), {index, m.op(Op::OpBitcast, u32(), {shape[k]})}), idx[k]});
  index = m.op(Op::OpIAdd, u32(), {m.op(Op::OpIMul, u32(), {index, cu32((uint32_t)acc.ext_comps)}), cu32((uint32_t)acc.ext_comp)});
  if (ok) index = m.op(Op::OpSelect, u32(), {ok, index, cu32(0)});
  ptr[&s] = BufPtr{kNdarrayBinding + nb, index, s.type.prim};
}

// The values an integer statement can take, when its operands bound them:
// constants, the index of a loop with constant bounds, and sums, differences
// and products of those, divided or taken modulo a positive constant. Used
// to drop bounds checks that cannot fail (`for i in x: x[i]`), which keeps
// such kernels free of checks (and their launches free of waits).
static bool value_range(const ir::Stmt* v, int64_t& lo, int64_t& hi, int depth = 0) {
  constexpr int64_t kBig = int64_t(1) << 40;  // no products overflow below this
  if (depth > 16 || !prim_is_int(v->type.prim)) return false;
  switch (v->kind) {
    case ir::StmtKind::const_: lo = hi = v->value.i; break;
    case ir::StmtKind::loop_index: {
      const ir::Stmt* l = v->loop;
      if (!l || v->index != 0) return false;
      if (l->kind == ir::StmtKind::offloaded) {
        if (l->task != ir::Task::range_for || !l->rare().begin_const || !l->rare().end_const) return false;
        lo = l->begin;
        hi = std::max(l->begin, l->end - 1);  // an empty loop runs no access
      } else if (l->kind == ir::StmtKind::range_for && l->snode < 0 && l->ops.size() >= 2 &&
                 l->ops[0]->kind == ir::StmtKind::const_ && l->ops[1]->kind == ir::StmtKind::const_) {
        lo = l->ops[0]->value.i;
        hi = std::max(lo, l->ops[1]->value.i - 1);
      } else {
        return false;
      }
      break;
    }
    case ir::StmtKind::unary: {
      if (v->uop != ir::UnaryOp::cast_value || !prim_is_int(v->ops[0]->type.prim)) return false;
      if (!value_range(v->ops[0], lo, hi, depth + 1)) return false;
      break;
    }
    case ir::StmtKind::binary: {
      int64_t l1, h1, l2, h2;
      if (!value_range(v->ops[0], l1, h1, depth + 1) || !value_range(v->ops[1], l2, h2, depth + 1)) return false;
      if (std::max({-l1, h1, -l2, h2}) >= kBig) return false;
      bool by_const = l2 == h2 && l2 > 0 && l1 >= 0;
      switch (v->bop) {
        case ir::BinaryOp::add: lo = l1 + l2; hi = h1 + h2; break;
        case ir::BinaryOp::sub: lo = l1 - h2; hi = h1 - l2; break;
        case ir::BinaryOp::mul:
          if (l2 != h2 || l2 < 0) return false;
          lo = l1 * l2;
          hi = h1 * l2;
          break;
        case ir::BinaryOp::div:
        case ir::BinaryOp::floordiv:
          if (!by_const) return false;
          lo = l1 / l2;
          hi = h1 / l2;
          break;
        case ir::BinaryOp::mod:
        case ir::BinaryOp::raw_mod:
          if (!by_const) return false;
          lo = 0;
          hi = std::min(h1, l2 - 1);
          break;
        default: return false;
      }
      break;
    }
    default: return false;
  }
  // The result must be the value itself, not one wrapped around its type.
  int bits = prim_bits(v->type.prim);
  if (bits < 64) {
    int64_t tmin = prim_is_signed(v->type.prim) ? -(int64_t(1) << (bits - 1)) : 0;
    int64_t tmax = prim_is_signed(v->type.prim) ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
    if (lo < tmin || hi > tmax) return false;
  } else if (!prim_is_signed(v->type.prim) && lo < 0) {
    return false;
  }
  return true;
}

void Gen::global_ptr(const ir::Stmt& s) {
  const ir::Access& acc = s.access;
  if (acc.ext_arg >= 0) return ndarray_ptr(s);
  if (acc.in_cell) return sparse_ptr(s, {}, 0);
  Prim p = s.type.prim;
  out.num_trees = std::max(out.num_trees, acc.tree + 1);
  Id bt = m.t_bool();
  Id ok = 0;
  std::vector<Id> idx32(s.ops.size());
  for (size_t a = 0; a < s.ops.size(); a++) {
    Prim q = s.ops[a]->type.prim;
    Id v = val.at(s.ops[a]);
    int64_t lo = 0, hi = 0;
    bool proven = a < acc.shape.size() && value_range(s.ops[a], lo, hi) && lo >= 0 && hi < acc.shape[a];
    if (acc.checked && a < acc.shape.size() && !proven) {
      Id lt = m.op(is_signed(q) ? Op::OpSLessThan : Op::OpULessThan, bt, {v, const_int(q, acc.shape[a])});
      Id in = is_signed(q) ? m.op(Op::OpLogicalAnd, bt, {m.op(Op::OpSGreaterThanEqual, bt, {v, const_int(q, 0)}), lt}) : lt;
      CheckInfo c{CheckInfo::bounds, s.loc};
      c.field = acc.field;
      c.axis = (int)a;
      c.shape = acc.shape;
      c.offset = acc.index_offset;
      out.checks.push_back(c);
      fail_if(m.op(Op::OpLogicalNot, bt, {in}), (int)out.checks.size() - 1, {to_u64_reg(v, q)});
      ok = ok ? m.op(Op::OpLogicalAnd, bt, {ok, in}) : in;
    }
    // In bounds the index is non-negative and below the shape: u32 holds it.
    idx32[a] = prim_bits(q) == 32 ? as_unsigned(v, q) : m.op(Op::OpUConvert, u32(), {as_unsigned(v, q)});
  }
  if (acc.sparse_place >= 0) return sparse_ptr(s, idx32, ok);
  Id addr = cu32((uint32_t)acc.offset);
  for (const ir::IndexTerm& t : acc.terms) {
    if ((size_t)t.axis >= idx32.size()) unsupported(s, "an index term past the indices given");
    Id x = idx32[t.axis];
    if (t.div != 1) x = m.op(Op::OpUDiv, u32(), {x, cu32((uint32_t)t.div)});
    if (t.mod != 0) x = m.op(Op::OpUMod, u32(), {x, cu32((uint32_t)t.mod)});
    addr = m.op(Op::OpIAdd, u32(), {addr, m.op(Op::OpIMul, u32(), {x, cu32((uint32_t)t.stride)})});
  }
  Id index = m.op(Op::OpUDiv, u32(), {addr, cu32((uint32_t)(prim_bits(p) / 8))});
  // A failed check has been recorded; the access goes to element 0 instead
  // of out of the buffer, and the host raises the IndexError after the task.
  if (ok) index = m.op(Op::OpSelect, u32(), {ok, index, cu32(0)});
  ptr[&s] = BufPtr{out.tree_binding(acc.tree), index, p};
}

// ti.get_addr on the device. A shader sees buffers, not the host's addresses:
// the element's byte offset in its buffer, plus the buffer's binding in bits
// 40 and up. Differences within a field are its layout's byte strides, as on
// the CPU engines; elements of different buffers are 2^40 apart or more.
Id Gen::element_address(const ir::Stmt& s) {
  auto it = ptr.find(s.ops[0]);
  if (it == ptr.end() || it->second.wg) unsupported(s, "ti.get_addr of something other than a field's element");
  if (!caps.int64) unsupported(s, "ti.get_addr (a u64) on a device without 64-bit integers");
  const BufPtr& bp = it->second;
  Id bytes = m.op(Op::OpIMul, u64(), {m.op(Op::OpUConvert, u64(), {bp.index}),
                                      const_int(Prim::u64, prim_bits(bp.prim) / 8)});
  return m.op(Op::OpIAdd, u64(), {const_int(Prim::u64, (int64_t)(bp.binding + 1) << 40), bytes});
}

spv::Op int_atomic_op(ir::AtomicOp aop, bool is_signed) {
  switch (aop) {
    case ir::AtomicOp::add: return Op::OpAtomicIAdd;
    case ir::AtomicOp::sub: return Op::OpAtomicISub;
    case ir::AtomicOp::min: return is_signed ? Op::OpAtomicSMin : Op::OpAtomicUMin;
    case ir::AtomicOp::max: return is_signed ? Op::OpAtomicSMax : Op::OpAtomicUMax;
    case ir::AtomicOp::bit_and: return Op::OpAtomicAnd;
    case ir::AtomicOp::bit_or: return Op::OpAtomicOr;
    default: return Op::OpAtomicXor;  // mul has none: a compare-and-swap loop
  }
}

Id Gen::atomic(const ir::Stmt& s) {
  auto it = ptr.find(s.ops[0]);
  if (it == ptr.end()) unsupported(s, "an atomic on a local variable");
  BufPtr bp = it->second;
  if (bp.active) unsupported(s, "an atomic on a sparse element it does not activate");
  Prim p = bp.prim;
  Id v = val.at(s.ops[1]);
  Id t = type(p, &s);
  int w = prim_bits(p);
  if (w == 64) {
    if (!caps.int64_atomics) unsupported(s, std::string("64-bit atomics (") + std::string(prim_name(p)) + ") on this device");
    m.capability(spv::Capability::Int64Atomics);
  }
  if (bp.wg)
    if (Id r = shared_atomic(s, bp, v)) return r;
  // A shared array's atomics need only order the block's invocations.
  Id scope = bp.wg ? cu32((uint32_t)spv::Scope::Workgroup) : scope_device(*this);
  bool sg = is_signed(p);
  // mul, and 8/16-bit words (SPIR-V's atomics are on 32 and 64 bits): the
  // compare-and-swap loop below
  if (prim_is_int(p) && s.aop != ir::AtomicOp::mul && w >= 32)
    return m.op(int_atomic_op(s.aop, sg), t, {chain(bp), scope_device(*this), relaxed(*this), v});
  bool add = s.aop == ir::AtomicOp::add || s.aop == ir::AtomicOp::sub;
  if (p == Prim::f32 && add && caps.float32_atomic_add && !bp.wg) {  // (shared float atomics: the CAS loop)
    m.extension("SPV_EXT_shader_atomic_float_add");
    m.capability(spv::Capability::AtomicFloat32AddEXT);
    Id x = s.aop == ir::AtomicOp::sub ? m.op(Op::OpFNegate, t, {v}) : v;
    return m.op(Op::OpAtomicFAddEXT, t, {chain(bp), scope_device(*this), relaxed(*this), x});
  }
  if (prim_is_int(p) == false && s.aop != ir::AtomicOp::add && s.aop != ir::AtomicOp::sub &&
      s.aop != ir::AtomicOp::min && s.aop != ir::AtomicOp::max && s.aop != ir::AtomicOp::mul)
    unsupported(s, std::string("atomic ") + ir::atomic_op_name(s.aop) + " on " + std::string(prim_name(p)));
  // Compare-and-swap on the element's bits until no other invocation got in
  // between: the update is exactly the non-atomic op, as on the CPU engines.
  // An 8- or 16-bit element swaps the 32-bit word holding it (quantized
  // fields pack into u8/u16 words), its neighbours' bits unchanged.
  Prim up = w == 64 ? Prim::u64 : Prim::u32;
  Id ut = type(up);
  BufPtr ubp{bp.binding, bp.index, up};
  ubp.wg = bp.wg;
  Id shift = 0, sub_t = 0, keep = 0;
  if (w < 32) {
    uint32_t per_word = 32 / (uint32_t)w;
    // (a shared array's element has a word of its own)
    if (!bp.wg) ubp.index = m.op(Op::OpShiftRightLogical, u32(), {bp.index, cu32(w == 16 ? 1 : 2)});
    shift = bp.wg ? cu32(0)
                  : m.op(Op::OpIMul, u32(), {m.op(Op::OpBitwiseAnd, u32(), {bp.index, cu32(per_word - 1)}), cu32((uint32_t)w)});
    sub_t = m.t_int(w, false);
    keep = m.op(Op::OpNot, u32(), {m.op(Op::OpShiftLeftLogical, u32(), {cu32((1u << w) - 1), shift})});
  }
  // The old value leaves the loop through a Function variable, and the
  // header also exits when the launch has failed: with two ways out, the
  // merge block gets a phi. lavapipe runs the loop in SIMD until every lane
  // has swapped, recomputing each value of the body for all lanes (masked
  // atomics give 0), and only a phi's copies are masked: a value of the body
  // used after the loop read the last lane's pass (atomic_mul's olds were
  // mostly 0).
  Id old_var = m.function_var(m.t_ptr(spv::StorageClass::Function, t));
  m.op_void(Op::OpStore, {old_var, prim_is_float(p) ? const_float(p, 0) : const_int(p, 0)});
  Id header = m.fresh(), body = m.fresh(), cont = m.fresh(), merge = m.fresh();
  branch(header);
  m.label(header);
  Id running = m.op(Op::OpIEqual, m.t_bool(), {error_flag(), cu32(0)});
  m.op_void(Op::OpLoopMerge, {merge, cont, 0});
  m.op_void(Op::OpBranchConditional, {running, body, merge});
  m.label(body);
  loop_open(&s);
  Id uptr = chain(ubp);
  Id old_bits = m.op(Op::OpAtomicLoad, ut, {uptr, scope, relaxed(*this)});
  Id elem_bits = w < 32 ? m.op(Op::OpUConvert, sub_t, {m.op(Op::OpShiftRightLogical, u32(), {old_bits, shift})}) : old_bits;
  Id old = elem_bits;
  if (p == Prim::bf16) old = bf16_from_bits(elem_bits);  // computed in f32, rounded back
  else if (!(w < 32 && p == (w == 16 ? Prim::u16 : Prim::u8))) old = m.op(Op::OpBitcast, t, {elem_bits});
  m.op_void(Op::OpStore, {old_var, old});
  Id nv = binary_op(ir::binary_of(s.aop), p == Prim::bf16 ? Prim::f32 : p, old, v, s);
  Id new_bits = p == Prim::bf16 ? m.op(Op::OpUConvert, sub_t, {bf16_bits(nv)}) : m.op(Op::OpBitcast, w < 32 ? sub_t : ut, {nv});
  if (w < 32)
    new_bits = m.op(Op::OpBitwiseOr, u32(), {m.op(Op::OpBitwiseAnd, u32(), {old_bits, keep}),
                                             m.op(Op::OpShiftLeftLogical, u32(), {m.op(Op::OpUConvert, u32(), {new_bits}), shift})});
  Id got = m.op(Op::OpAtomicCompareExchange, ut,
                {uptr, scope, relaxed(*this), relaxed(*this), new_bits, old_bits});
  m.op_void(Op::OpBranchConditional, {m.op(Op::OpIEqual, m.t_bool(), {got, old_bits}), merge, cont});
  m.label(cont);
  loop_back_edge();
  m.op_void(Op::OpBranch, {header});
  m.label(merge);
  terminated = false;
  loop_close();
  return m.op(Op::OpLoad, t, {old_var});
}

Id Gen::arg_load(const ir::Stmt& s) {
  Prim p = s.type.prim;
  Id t = type(p, &s);
  if (frame) return frame->args.at((size_t)s.index);  // a ti.real_func's parameter
  if (prim_bits(p) == 64) {
    Id w = load(ctx_slot(s.index, Prim::u64));
    return p == Prim::u64 ? w : m.op(Op::OpBitcast, t, {w});
  }
  // The slot holds the register form: the value in its low 32 bits (f16 and
  // bf16 as their 16-bit pattern, as the bytecode's arg_load reads them).
  Id w = load(ctx_slot(s.index, Prim::u32));
  if (p == Prim::u32) return w;
  if (p == Prim::bf16) return bf16_from_bits(m.op(Op::OpUConvert, type(Prim::u16), {w}));
  if (p == Prim::i32 || p == Prim::f32) return m.op(Op::OpBitcast, t, {w});
  if (p == Prim::f16) return m.op(Op::OpBitcast, t, {m.op(Op::OpUConvert, type(Prim::u16), {w})});
  Id n = m.op(Op::OpUConvert, m.t_int(prim_bits(p), false), {w});
  return is_signed(p) ? m.op(Op::OpBitcast, t, {n}) : n;
}

void Gen::ret(const ir::Stmt& s) {
  if (mbody) return machine_ret(&s);  // a recursive function's frame
  // A ti.real_func's results go to its caller's variables.
  for (size_t i = 0; frame && i < s.ops.size() && i < frame->rets.size(); i++)
    m.op_void(Op::OpStore, {frame->rets[i], val.at(s.ops[i])});
  for (size_t i = 0; !frame && i < s.ops.size(); i++) {
    Prim p = s.ops[i]->type.prim;
    Id v = val.at(s.ops[i]);
    // f16 returns travel as their 16-bit pattern (what the bytecode's ret stores).
    Id r = p == Prim::f16   ? m.op(Op::OpUConvert, u64(), {m.op(Op::OpBitcast, m.t_int(16, false), {v})})
           : p == Prim::bf16 ? m.op(Op::OpUConvert, u64(), {bf16_bits(v)})
                             : to_u64_reg(v, p);
    store(ctx_slot(out.ret_slot() + (int)i, Prim::u64), r);
  }
  if (!frame && resume >= 0) store(BufPtr{0, cu32((uint32_t)out.resume_word(resume)), Prim::u32}, cu32(kResumeDone));
  m.op_void(Op::OpReturn, {});
  terminated = true;
}

void Gen::print(const ir::Stmt& s) {
  PrintInfo info{s.rare().print_parts, {}, s.loc};
  std::vector<Id> vals;
  for (const ir::PrintPart& part : s.rare().print_parts) {
    if (!part.is_value) continue;
    const ir::Stmt* o = s.ops.at((size_t)part.op);
    info.prims.push_back(o->type.prim);
    vals.push_back(to_u64_reg(val.at(o), o->type.prim));
  }
  uint32_t id = (uint32_t)out.prints.size();
  out.prints.push_back(std::move(info));
  uint32_t n = (uint32_t)(kPrintHeader + 2 * vals.size());  // even: values stay 8-byte aligned
  Id cursor_ptr = chain(BufPtr{1, cu32(0), Prim::u32});
  Id at = m.op(Op::OpAtomicIAdd, u32(), {cursor_ptr, scope_device(*this), relaxed(*this), cu32(n)});
  Id end = m.op(Op::OpIAdd, u32(), {at, cu32(n)});
  Id fits = m.op(Op::OpULessThanEqual, m.t_bool(), {end, cu32(kPrintWords)});
  if_then(fits, [&] {
    store(BufPtr{1, at, Prim::u32}, cu32(id));
    store(BufPtr{1, m.op(Op::OpIAdd, u32(), {at, cu32(1)}), Prim::u32}, cu32((uint32_t)task_index));
    store(BufPtr{1, m.op(Op::OpIAdd, u32(), {at, cu32(2)}), Prim::u32}, iter);
    store(BufPtr{1, m.op(Op::OpIAdd, u32(), {at, cu32(3)}), Prim::u32}, m.op(Op::OpLoad, u32(), {seq_var}));
    Id base = m.op(Op::OpShiftRightLogical, u32(), {at, cu32(1)});
    for (size_t k = 0; k < vals.size(); k++)
      store(BufPtr{1, m.op(Op::OpIAdd, u32(), {base, cu32(2 + (uint32_t)k)}), Prim::u64}, vals[k]);
  });
  Id seq = m.op(Op::OpLoad, u32(), {seq_var});
  m.op_void(Op::OpStore, {seq_var, m.op(Op::OpIAdd, u32(), {seq, cu32(1)})});
}

void Gen::assert_(const ir::Stmt& s) {
  CheckInfo c{CheckInfo::assertion, s.loc};
  c.text = s.rare().text;
  std::vector<Id> vals;
  for (size_t i = 1; i < s.ops.size(); i++) {
    if (i > 8) unsupported(s, "an assert message with more than 8 arguments");
    c.prims.push_back(s.ops[i]->type.prim);
    vals.push_back(to_u64_reg(val.at(s.ops[i]), s.ops[i]->type.prim));
  }
  out.checks.push_back(c);
  Id failed = m.op(Op::OpLogicalNot, m.t_bool(), {to_bool(val.at(s.ops[0]), s.ops[0]->type.prim)});
  fail_if(failed, (int)out.checks.size() - 1, vals);
}

}  // namespace kiln::vk
