// Trace IR semantics on concrete values. The recorder executes the iteration
// it records through this, the folder folds constants with it, and the
// backend calls it for ops it does not inline, so all three compute exactly
// what the interpreter computes: everything here is vm/interp/interp_ops.h.
#include <cmath>
#include <cstring>

#include "jit/trace.h"
#include "vm/interp/interp_ops.h"

namespace kiln::jit {

const IrOpInfo kIrOps[(int)IrOp::count_] = {
#define KILN_JIT_INFO(name, n, f) {#name, n, f},
    KILN_JIT_OPS(KILN_JIT_INFO)
#undef KILN_JIT_INFO
};

namespace {

using namespace kiln::interp;
using bc::CT;
using bc::Op;

template <class T> uint64_t put(T v) {
  uint64_t r = 0;
  sem::put<T>(&r, 0, v);
  return r;
}
template <class T> T get(uint64_t v) { return sem::get<T>(&v, 0); }

template <class T> bool typed(IrOp op, uint64_t ua, uint64_t ub, uint64_t& out) {
  T a = get<T>(ua), b = get<T>(ub);
  constexpr bool F = sem::is_f<T>;
  switch (op) {
    case IrOp::add: out = put(sem::add(a, b)); return true;
    case IrOp::sub: out = put(sem::sub(a, b)); return true;
    case IrOp::mul: out = put(sem::mul(a, b)); return true;
    case IrOp::div: if (!F && b == 0) return false; out = put(sem::div(a, b)); return true;
    case IrOp::floordiv: if (!F && b == 0) return false; out = put(sem::floordiv(a, b)); return true;
    case IrOp::mod: if (!F && b == 0) return false; out = put(sem::mod(a, b)); return true;
    case IrOp::raw_mod: if (!F && b == 0) return false; out = put(sem::raw_mod(a, b)); return true;
    case IrOp::pow: {
      bool bad = false;
      T r = sem::pow_(a, b, bad);
      if (bad) return false;
      out = put(r);
      return true;
    }
    case IrOp::max: out = put(sem::max_(a, b)); return true;
    case IrOp::min: out = put(sem::min_(a, b)); return true;
    case IrOp::lt: out = put<int32_t>(a < b); return true;
    case IrOp::le: out = put<int32_t>(a <= b); return true;
    case IrOp::eq: out = put<int32_t>(a == b); return true;
    case IrOp::ne: out = put<int32_t>(a != b); return true;
    case IrOp::neg: out = put(sem::neg(a)); return true;
    case IrOp::abs: out = put(sem::abs_(a)); return true;
    case IrOp::lnot: out = put<int32_t>(a == 0); return true;
    default: break;
  }
  if constexpr (F) {
    switch (op) {
      case IrOp::atan2: out = put<T>(std::atan2(a, b)); return true;
      case IrOp::sqrt: out = put<T>(std::sqrt(a)); return true;
      case IrOp::rsqrt: out = put<T>(sem::rsqrt(a)); return true;
      case IrOp::sin: out = put<T>(std::sin(a)); return true;
      case IrOp::cos: out = put<T>(std::cos(a)); return true;
      case IrOp::tan: out = put<T>(std::tan(a)); return true;
      case IrOp::asin: out = put<T>(std::asin(a)); return true;
      case IrOp::acos: out = put<T>(std::acos(a)); return true;
      case IrOp::atan: out = put<T>(std::atan(a)); return true;
      case IrOp::tanh: out = put<T>(std::tanh(a)); return true;
      case IrOp::exp: out = put<T>(std::exp(a)); return true;
      case IrOp::log: out = put<T>(std::log(a)); return true;
      case IrOp::floor: out = put<T>(std::floor(a)); return true;
      case IrOp::ceil: out = put<T>(std::ceil(a)); return true;
      case IrOp::round: out = put<T>(std::round(a)); return true;
      default: return false;
    }
  } else {
    switch (op) {
      case IrOp::band: out = put<T>((T)(a & b)); return true;
      case IrOp::bor: out = put<T>((T)(a | b)); return true;
      case IrOp::bxor: out = put<T>((T)(a ^ b)); return true;
      case IrOp::bnot: out = put<T>((T)~a); return true;
      case IrOp::tzcnt: out = ua ? (uint64_t)__builtin_ctzll(ua) : 64; return true;
      case IrOp::shl: out = put(sem::shl(a, ub)); return true;
      case IrOp::shr: out = put(sem::shr(a, ub)); return true;
      case IrOp::sar: out = put(sem::sar(a, ub)); return true;
      default: return false;
    }
  }
}

// The bytecode's conversion ops, as the interpreter's handlers compute them.
bool convert(Op op, uint64_t r, uint64_t& out) {
  switch (op) {
    case Op::sext8: out = (uint64_t)(int64_t)(int8_t)r; return true;
    case Op::sext16: out = (uint64_t)(int64_t)(int16_t)r; return true;
    case Op::sext32: out = (uint64_t)(int64_t)(int32_t)r; return true;
    case Op::zext8: out = (uint8_t)r; return true;
    case Op::zext16: out = (uint16_t)r; return true;
    case Op::zext32: out = (uint32_t)r; return true;
    case Op::round_f16: out = put(sem::round_f16(get<float>(r))); return true;
    case Op::round_bf16: out = put(sem::round_bf16(get<float>(r))); return true;
    case Op::i64_f32: out = put((float)(int64_t)r); return true;
    case Op::u64_f32: out = put((float)r); return true;
    case Op::i64_f64: out = put((double)(int64_t)r); return true;
    case Op::u64_f64: out = put((double)r); return true;
    case Op::f32_f64: out = put((double)get<float>(r)); return true;
    case Op::f64_f32: out = put((float)get<double>(r)); return true;
    case Op::f32_i32: out = put(sem::f2i<int32_t>(get<float>(r))); return true;
    case Op::f32_i64: out = put(sem::f2i<int64_t>(get<float>(r))); return true;
    case Op::f64_i8: out = put(sem::f2i<int8_t>(get<double>(r))); return true;
    case Op::f64_i16: out = put(sem::f2i<int16_t>(get<double>(r))); return true;
    case Op::f64_i32: out = put(sem::f2i<int32_t>(get<double>(r))); return true;
    case Op::f64_i64: out = put(sem::f2i<int64_t>(get<double>(r))); return true;
    case Op::f64_u8: out = put(sem::f2i<uint8_t>(get<double>(r))); return true;
    case Op::f64_u16: out = put(sem::f2i<uint16_t>(get<double>(r))); return true;
    case Op::f64_u32: out = put(sem::f2i<uint32_t>(get<double>(r))); return true;
    case Op::f64_u64: out = put(sem::f2i<uint64_t>(get<double>(r))); return true;
    default: return false;
  }
}

template <sem::AOp op> uint64_t atom_by_prim(int p, uint64_t addr, uint64_t v) {
  switch ((Prim)p) {
    case Prim::i8: return sem::atomic_rmw<int8_t, op, 0>(addr, v);
    case Prim::i16: return sem::atomic_rmw<int16_t, op, 0>(addr, v);
    case Prim::i32: return sem::atomic_rmw<int32_t, op, 0>(addr, v);
    case Prim::i64: return sem::atomic_rmw<int64_t, op, 0>(addr, v);
    case Prim::u8: return sem::atomic_rmw<uint8_t, op, 0>(addr, v);
    case Prim::u16: return sem::atomic_rmw<uint16_t, op, 0>(addr, v);
    case Prim::u32: return sem::atomic_rmw<uint32_t, op, 0>(addr, v);
    case Prim::u64: return sem::atomic_rmw<uint64_t, op, 0>(addr, v);
    default: break;
  }
  if constexpr (op == sem::AOp::add || op == sem::AOp::sub || op == sem::AOp::min || op == sem::AOp::max) {
    switch ((Prim)p) {
      case Prim::f16: return sem::atomic_rmw<uint16_t, op, 1>(addr, v);
      case Prim::bf16: return sem::atomic_rmw<uint16_t, op, 2>(addr, v);
      case Prim::f32: return sem::atomic_rmw<float, op, 0>(addr, v);
      case Prim::f64: return sem::atomic_rmw<double, op, 0>(addr, v);
      default: break;
    }
  }
  return 0;
}

template <class S> S ld(uint64_t addr) {
  S v;
  std::memcpy(&v, reinterpret_cast<const void*>(addr), sizeof(S));
  return v;
}
template <class S> void st(uint64_t addr, S v) { std::memcpy(reinterpret_cast<void*>(addr), &v, sizeof(S)); }

}  // namespace

bool eval_pure(IrOp op, CT t, int64_t k, uint64_t a, uint64_t b, uint64_t c, uint64_t& out) {
  switch (op) {
    case IrOp::kval: out = (uint64_t)k; return true;
    case IrOp::copy: out = a; return true;
    case IrOp::sel: out = a != 0 ? b : c; return true;
    case IrOp::fma:
      out = t == CT::f32 ? put(std::fma(get<float>(a), get<float>(b), get<float>(c)))
                         : put(std::fma(get<double>(a), get<double>(b), get<double>(c)));
      return true;
    case IrOp::conv: return convert((Op)k, a, out);
    default: break;
  }
  switch (t) {
    case CT::i32: return typed<int32_t>(op, a, b, out);
    case CT::u32: return typed<uint32_t>(op, a, b, out);
    case CT::i64: return typed<int64_t>(op, a, b, out);
    case CT::u64: return typed<uint64_t>(op, a, b, out);
    case CT::f32: return typed<float>(op, a, b, out);
    case CT::f64: return typed<double>(op, a, b, out);
  }
  return false;
}

uint64_t eval_call(uint64_t a, uint64_t b, uint64_t key) {
  uint64_t out = 0;
  eval_pure((IrOp)(key & 0xff), (CT)((key >> 8) & 0xff), (int64_t)(key >> 16), a, b, 0, out);
  return out;
}

uint64_t atomic_call(uint64_t addr, uint64_t val, uint64_t k) {
  int p = (int)atomic_prim((int64_t)k);
  switch ((sem::AOp)atomic_aop((int64_t)k)) {
    case sem::AOp::add: return atom_by_prim<sem::AOp::add>(p, addr, val);
    case sem::AOp::sub: return atom_by_prim<sem::AOp::sub>(p, addr, val);
    case sem::AOp::min: return atom_by_prim<sem::AOp::min>(p, addr, val);
    case sem::AOp::max: return atom_by_prim<sem::AOp::max>(p, addr, val);
    case sem::AOp::and_: return atom_by_prim<sem::AOp::and_>(p, addr, val);
    case sem::AOp::or_: return atom_by_prim<sem::AOp::or_>(p, addr, val);
    case sem::AOp::xor_: return atom_by_prim<sem::AOp::xor_>(p, addr, val);
    case sem::AOp::mul: return atom_by_prim<sem::AOp::mul>(p, addr, val);
  }
  return 0;
}

uint64_t load_prim(uint64_t addr, int p) {
  switch ((Prim)p) {
    case Prim::i8: return (uint64_t)(int64_t)ld<int8_t>(addr);
    case Prim::i16: return (uint64_t)(int64_t)ld<int16_t>(addr);
    case Prim::i32: return (uint64_t)(int64_t)ld<int32_t>(addr);
    case Prim::u8: return ld<uint8_t>(addr);
    case Prim::u16: return ld<uint16_t>(addr);
    case Prim::u32: case Prim::f32: return ld<uint32_t>(addr);
    case Prim::f16: return put(f16_bits_to_f32(ld<uint16_t>(addr)));
    case Prim::bf16: return put(bf16_bits_to_f32(ld<uint16_t>(addr)));
    default: return ld<uint64_t>(addr);
  }
}

void store_prim(uint64_t addr, uint64_t v, int p) {
  switch ((Prim)p) {
    case Prim::i8: case Prim::u8: st<uint8_t>(addr, (uint8_t)v); return;
    case Prim::i16: case Prim::u16: st<uint16_t>(addr, (uint16_t)v); return;
    case Prim::i32: case Prim::u32: case Prim::f32: st<uint32_t>(addr, (uint32_t)v); return;
    case Prim::f16: st<uint16_t>(addr, f32_to_f16_bits(get<float>(v))); return;
    case Prim::bf16: st<uint16_t>(addr, f32_to_bf16_bits(get<float>(v))); return;
    default: st<uint64_t>(addr, v); return;
  }
}

}  // namespace kiln::jit
