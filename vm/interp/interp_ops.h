// Scalar semantics of the typed bytecode ops, one template per op family,
// instantiated for the computation types. These are vm/ir/eval.h's rules
// (wrapping ints, Python floordiv/mod, maximumNumber, shifts by an unsigned
// 64-bit count) restated for native C++ types, so that the interpreter (and
// JIT fallbacks) compute bit for bit what the constant folder computes.
#pragma once
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "vm/types/value.h"

namespace kiln::interp::sem {

template <class T> constexpr bool is_f = std::is_floating_point_v<T>;
template <class T> using U = std::make_unsigned_t<T>;

// ---- register representation (opcodes.h) ------------------------------------
template <class T> inline T get(const uint64_t* R, uint16_t r) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>((uint32_t)R[r]);
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<double>(R[r]);
  else return (T)R[r];
}
template <class T> inline void put(uint64_t* R, uint16_t r, T v) {
  if constexpr (std::is_same_v<T, float>) R[r] = std::bit_cast<uint32_t>(v);
  else if constexpr (std::is_same_v<T, double>) R[r] = std::bit_cast<uint64_t>(v);
  else if constexpr (std::is_signed_v<T>) R[r] = (uint64_t)(int64_t)v;
  else R[r] = (uint64_t)v;
}

// ---- arithmetic (ints wrap: computed in the unsigned type) --------------------
template <class T> inline T add(T a, T b) {
  if constexpr (is_f<T>) return a + b; else return (T)((U<T>)a + (U<T>)b);
}
template <class T> inline T sub(T a, T b) {
  if constexpr (is_f<T>) return a - b; else return (T)((U<T>)a - (U<T>)b);
}
template <class T> inline T mul(T a, T b) {
  if constexpr (is_f<T>) return a * b; else return (T)((U<T>)a * (U<T>)b);
}
template <class T> inline T neg(T a) {
  if constexpr (is_f<T>) return -a; else return (T)(U<T>(0) - (U<T>)a);
}
template <class T> inline T abs_(T a) {
  if constexpr (is_f<T>) return std::fabs(a);
  else if constexpr (std::is_signed_v<T>) return a < 0 ? neg(a) : a;
  else return a;
}
// The integer division family; the caller has already ruled out b == 0.
// x / -1 is negation (wrapping INT_MIN) and x % -1 is 0, without C's UB.
template <class T> inline T div(T a, T b) {
  if constexpr (is_f<T>) return a / b;
  else {
    if constexpr (std::is_signed_v<T>) if (b == -1) return neg(a);
    return a / b;
  }
}
template <class T> inline T floordiv(T a, T b) {
  if constexpr (is_f<T>) return std::floor(T(a / b));
  else if constexpr (std::is_signed_v<T>) {
    if (b == -1) return neg(a);
    T q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) --q;
    return q;
  } else return a / b;
}
template <class T> inline T mod(T a, T b) {
  if constexpr (is_f<T>) {
    T r = std::fmod(a, b);
    if (r != 0) {
      if ((b < 0) != (r < 0)) r += b;
    } else {
      r = std::copysign(T(0), b);
    }
    return r;
  } else if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
  } else return a % b;
}
template <class T> inline T raw_mod(T a, T b) {
  if constexpr (is_f<T>) return std::fmod(a, b);
  else {
    if constexpr (std::is_signed_v<T>) if (b == -1) return 0;
    return a % b;
  }
}
// Integer power by squaring, wrapping. A negative exponent (which the folder
// leaves to run time) is 1 / a**-e truncated toward zero, as C would compute
// it: 1 for a == 1, +-1 for a == -1, 0 otherwise; `bad` is set for a == 0.
template <class T> inline T pow_(T a, T b, bool& bad) {
  if constexpr (is_f<T>) return std::pow(a, b);
  else {
    if constexpr (std::is_signed_v<T>) {
      if (b < 0) {
        if (a == 0) bad = true;
        if (a == 1) return 1;
        if (a == -1) return (b & 1) ? -1 : 1;
        return 0;
      }
    }
    U<T> r = 1, base = (U<T>)a, e = (U<T>)b;
    while (e) {
      if (e & 1) r *= base;
      base *= base;
      e >>= 1;
    }
    return (T)r;
  }
}
// IEEE maximumNumber / minimumNumber (a NaN operand is ignored; -0 < +0).
template <class T> inline T maxmin(T a, T b, bool is_max) {
  if constexpr (is_f<T>) {
    if (std::isnan(a)) return std::isnan(b) ? a : b;
    if (std::isnan(b)) return a;
    if (a == b) return (is_max ? !std::signbit(a) : std::signbit(a)) ? a : b;
    return (a > b) == is_max ? a : b;
  } else {
    return is_max ? (a >= b ? a : b) : (a <= b ? a : b);
  }
}
template <class T> inline T max_(T a, T b) { return maxmin(a, b, true); }
template <class T> inline T min_(T a, T b) { return maxmin(a, b, false); }

// Shifts on the 32/64-bit computation types. The count is the count
// register's raw 64 bits read as unsigned (a negative signed count is huge).
// Narrow types are handled by the lowering (zero- or sign-extending the
// pattern first, wrapping after), which the count rules below keep exact.
template <class T> inline T shl(T a, uint64_t n) {
  return n >= sizeof(T) * 8 ? T(0) : (T)((U<T>)a << n);
}
template <class T> inline T shr(T a, uint64_t n) {
  return n >= sizeof(T) * 8 ? T(0) : (T)((U<T>)a >> n);
}
template <class T> inline T sar(T a, uint64_t n) {
  using S = std::make_signed_t<T>;
  constexpr uint64_t w = sizeof(T) * 8;
  return (T)((S)a >> (n >= w ? w - 1 : n));  // >> on negatives is arithmetic in C++20
}

// ---- float unary ---------------------------------------------------------------
template <class T> inline T rsqrt(T a) { return T(1) / std::sqrt(a); }

// ---- 16-bit floats: the f32 register holds the 16-bit value exactly -----------
inline float round_f16(float f) { return f16_bits_to_f32(f32_to_f16_bits(f)); }
inline float round_bf16(float f) { return bf16_bits_to_f32(f32_to_bf16_bits(f)); }

// ---- float -> int: truncate, NaN -> 0, saturate (value.h) ----------------------
template <class I, class F> inline I f2i(F f) {
  if (std::isnan(f)) return 0;
  constexpr int bits = sizeof(I) * 8;
  if constexpr (std::is_signed_v<I>) {
    constexpr F lim = (F)(uint64_t(1) << (bits - 1));  // a power of two: exact
    if (f >= lim) return std::numeric_limits<I>::max();
    if (f <= -lim) return std::numeric_limits<I>::min();
  } else {
    constexpr F lim = (F)2 * (F)(uint64_t(1) << (bits - 1));
    if (f >= lim) return std::numeric_limits<I>::max();
    if (f <= -1) return 0;
  }
  return (I)f;
}

// ---- registers <-> ConstVal for the generic ops (cvt, bitcast, print) ---------
inline ConstVal reg_to_val(uint64_t r, Prim p) {
  ConstVal v;
  v.prim = p;
  if (p == Prim::f64) v.f = std::bit_cast<double>(r);
  else if (prim_is_float(p)) v.f = (double)std::bit_cast<float>((uint32_t)r);
  else v.u = r;
  return v;
}
inline uint64_t val_to_reg(const ConstVal& v) {
  if (v.prim == Prim::f64) return std::bit_cast<uint64_t>(v.f);
  if (prim_is_float(v.prim)) return std::bit_cast<uint32_t>((float)v.f);
  return v.u;
}

}  // namespace kiln::interp::sem

namespace kiln::interp::sem {

// ---- atomics ------------------------------------------------------------------
// Integers use the hardware RMW where one exists and a CAS loop for min/max;
// floats always loop on CAS so the update is exactly the non-atomic op's
// (f16/bf16: CAS on the 16-bit word, the op computed in f32 and rounded).
enum class AOp { add, sub, min, max, and_, or_, xor_, mul };  // ir::AtomicOp's order

template <class T, AOp op> inline T apply(T a, T b) {
  if constexpr (op == AOp::add) return add(a, b);
  else if constexpr (op == AOp::sub) return sub(a, b);
  else if constexpr (op == AOp::min) return min_(a, b);
  else if constexpr (op == AOp::max) return max_(a, b);
  else if constexpr (op == AOp::and_) return a & b;
  else if constexpr (op == AOp::or_) return a | b;
  else if constexpr (op == AOp::mul) return mul(a, b);
  else return a ^ b;
}

// S: the storage type (int8_t ... double); the value and the result are
// register representations. `half`: 0 none, 1 f16, 2 bf16 (S is uint16_t).
template <class S, AOp op, int half = 0>
inline uint64_t atomic_rmw(uint64_t addr, uint64_t val) {
  static_assert(std::atomic_ref<S>::is_always_lock_free, "element atomics must be lock-free");
  std::atomic_ref<S> ref(*reinterpret_cast<S*>(addr));
  if constexpr (half != 0) {
    float v = get<float>(&val, 0);
    S old = ref.load(std::memory_order_relaxed);
    for (;;) {
      float o = half == 1 ? f16_bits_to_f32(old) : bf16_bits_to_f32(old);
      float n = apply<float, op>(o, v);
      S nb = half == 1 ? f32_to_f16_bits(n) : f32_to_bf16_bits(n);
      if (nb == old || ref.compare_exchange_weak(old, nb)) {
        uint64_t r = 0;
        put<float>(&r, 0, o);
        return r;
      }
    }
  } else if constexpr (is_f<S>) {
    S v = get<S>(&val, 0);
    S old = ref.load(std::memory_order_relaxed);
    for (;;) {
      S n = apply<S, op>(old, v);
      if (std::bit_cast<U<std::conditional_t<sizeof(S) == 4, int32_t, int64_t>>>(n) ==
              std::bit_cast<U<std::conditional_t<sizeof(S) == 4, int32_t, int64_t>>>(old) ||
          ref.compare_exchange_weak(old, n)) {
        uint64_t r = 0;
        put<S>(&r, 0, old);
        return r;
      }
    }
  } else {
    S v = (S)val;
    S old;
    if constexpr (op == AOp::add) old = ref.fetch_add(v);
    else if constexpr (op == AOp::sub) old = ref.fetch_sub(v);
    else if constexpr (op == AOp::and_) old = ref.fetch_and(v);
    else if constexpr (op == AOp::or_) old = ref.fetch_or(v);
    else if constexpr (op == AOp::xor_) old = ref.fetch_xor(v);
    else {
      old = ref.load(std::memory_order_relaxed);
      for (;;) {
        S n = apply<S, op>(old, v);
        if (n == old || ref.compare_exchange_weak(old, n)) break;
      }
    }
    uint64_t r = 0;
    put<S>(&r, 0, old);
    return r;
  }
}

}  // namespace kiln::interp::sem
