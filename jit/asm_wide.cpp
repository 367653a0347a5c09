// 16-lane vector loops (zmm) on AVX-512 hosts, for the loops that divide or
// take square roots. Why those: on this project's AMD host a zmm vdivps or
// vsqrtps takes as long as a ymm one (a C++ loop of sqrt + div: 2.4 ns an
// iteration in either width), and 8 zmm FMAs issue in the ~4.3 cycles of 8
// ymm ones, so a loop bound by its divider runs twice the lanes in the same
// time; a loop bound by memory or by its loop overhead gains little and keeps
// ymm lanes with their masked ends. bench/nbody_soa's force loop is that loop: the JIT's ymm body
// was g++'s zmm body instruction for instruction, and 2.1x its time. Other
// loops keep ymm lanes and their masked ends.
//
// What changes against the 8-lane loop (asm_vector.cpp): W = 16 counters a
// pass, zmm registers 0-15 for the values, memory operands of 64 bytes, and
// the EVEX forms where VEX has no 512-bit one (vpandd, vpord, vpxord), and
// masked ends under k registers (asm_vector.cpp: the last iterations but
// one, split sums' partials rotated after). Not here: rows, gathers,
// compares and selects (their masks are k registers in AVX-512), 64-bit
// lanes.
//
// fast_math's split f32 sums have 16 partials (LANGUAGE.md's rule): one zmm
// holds them, lane k partial k, and a pass adds its 16 terms with one packed
// add or FMA (their 8 partials had the high 8 lanes extracted and added
// after the low 8: two dependent adds a pass).

#include "jit/asm.h"
#include "jit/backend.h"
#include "jit/vector.h"

namespace kiln::jit {

using namespace asmjit;

bool host_has_avx512() {
  static const bool yes = [] {
    const CpuInfo& c = CpuInfo::host();
    return c.hasFeature(CpuFeatures::X86::kAVX512_F) && c.hasFeature(CpuFeatures::X86::kAVX512_VL) &&
           c.hasFeature(CpuFeatures::X86::kAVX512_DQ);
  }();
  return yes;
}

bool wide_lanes(const Trace& t, const VecPlan& p) {
  if (!t.allow_zmm || p.f64 || p.lanes8 || p.row_m != 0 || !p.row_roots.empty() || !p.lasts.empty()) return false;  // (lasts: asm_lane_guards.cpp's ymm)
  for (auto& [slot, f] : p.folds)
    if (f.t != bc::CT::i32 && f.t != bc::CT::u32) return false;  // (a float fold's maximumNumber: ymm compares and blends; an i64 sum's widened terms: ymm)
  bool divides = false;
  for (Ref i : p.order) {
    const Ins& in = t.ins[i];
    switch (in.op) {
      case IrOp::div: case IrOp::sqrt: divides = true; break;
      case IrOp::lt: case IrOp::le: case IrOp::eq: case IrOp::ne: case IrOp::lnot: case IrOp::sel: return false;
      case IrOp::guard_nz: case IrOp::guard_z: return false;  // (tested with vptest on ymm)
      case IrOp::max: case IrOp::min: case IrOp::conv:
        if (lane_blends(t, in)) return false;
        break;
      case IrOp::load:
        if (p.access[i].stride && !p.in_group(i)) return false;  // (a gather)
        break;
      default: break;
    }
  }
  return divides;
}

// Interleaved loads in 16 lanes: the 16n floats of 16 elements are n zmm
// registers (zmm28 on), and component c's lane k is float n * k + c: one
// two-table permute picks what lies in the first two registers, then one
// permute per further register puts its floats in and keeps the rest. The
// permutes' index vectors are constants (kPerm), loaded as each is needed
// (zmm27 for the second and later).
namespace {
struct PermTables {
  alignas(64) int32_t idx[3][4][3][16] = {};  // [n - 2][component][step][lane]
  PermTables() {
    for (int n = 2; n <= 4; n++)
      for (int c = 0; c < n; c++)
        for (int k = 0; k < 16; k++) {
          int f = n * k + c;  // the float lane k takes
          int32_t* steps[3] = {idx[n - 2][c][0], idx[n - 2][c][1], idx[n - 2][c][2]};
          steps[0][k] = f < 32 ? f : 0;
          for (int j = 2; j < n; j++) steps[j - 1][k] = f >= 16 * j && f < 16 * j + 16 ? 16 + f - 16 * j : k;
        }
  }
};
const PermTables kPerm;
}  // namespace

// A vec3 field's 16 elements are 48 floats, A B C = floats 0-15, 16-31,
// 32-47, and since 3 and 16 are coprime, component c's 16 floats lie in 16
// different lanes: lane L of A holds component L % 3, of B (L + 1) % 3, of C
// (L + 2) % 3. Two blends under lane masks (k5-k7: the lanes L % 3 = 0, 1,
// 2) gather component c's floats in one register, and one single-table
// permute (vpermps, index in zmm24 + c: lane k takes lane (3k + c) % 16)
// puts element k in lane k: 2 blends and 1 permute a component, where the
// two-table permutes took 2 permutes and 2 index loads. nbody's force loop
// (pos[j] a vec3 field), C++ copies of both with intrinsics, thread CPU
// time: 3.36 -> 2.97 ms a step against 2.83 for three separate arrays.
namespace {
struct Vec3Tables {
  alignas(64) int32_t idx[3][16] = {};
  Vec3Tables() {
    for (int c = 0; c < 3; c++)
      for (int k = 0; k < 16; k++) idx[c][k] = (3 * k + c) % 16;
  }
};
const Vec3Tables kVec3;
constexpr uint32_t kMod3[3] = {0x9249, 0x2492, 0x4924};  // lanes L with L % 3 = 0, 1, 2
}  // namespace

void wide_vec3_setup(x86::Assembler& a, bool masks_only) {
  for (int r = 0; r < 3; r++) {
    a.mov(x86::esi, kMod3[r]);
    a.kmovw(x86::k(5 + r), x86::esi);
  }
  if (masks_only) return;
  a.mov(x86::rsi, (uint64_t)(uintptr_t)kVec3.idx);
  for (int c = 0; c < 3; c++) a.vmovups(x86::zmm(24 + c), x86::zmmword_ptr(x86::rsi, 64 * c));
}

void wide_interleaved_load(x86::Assembler& a, int n, const x86::Mem& at, const x86::Ymm* out, bool masked) {
  for (int j = 0; j < n; j++) {
    x86::Mem m = at;
    m.addOffset(64 * j);
    m.setSize(64);
    if (masked) a.k(x86::k(2 + j)).z().vmovups(x86::zmm(28 + j), m);  // (a masked end: k2.. cover what it reads)
    else a.vmovups(x86::zmm(28 + j), m);
  }
  if (n == 3) {
    // (a masked end's k2-k5 may have taken k5 for a vec4 group: set again)
    if (masked) wide_vec3_setup(a, true);
    for (int c = 0; c < 3; c++) {
      x86::Zmm o = out[c].zmm();
      a.k(x86::k(5 + (c + 2) % 3)).vblendmps(o, x86::zmm(28), x86::zmm(29));  // B's lanes of component c
      a.k(x86::k(5 + (c + 1) % 3)).vblendmps(o, o, x86::zmm(30));              // C's
      a.vpermps(o, x86::zmm(24 + c), o);
    }
    return;
  }
  a.mov(x86::rsi, (uint64_t)(uintptr_t)kPerm.idx[n - 2]);
  for (int c = 0; c < n; c++) {
    auto table = [&](int step) { return x86::zmmword_ptr(x86::rsi, 64 * (3 * c + step)); };
    a.vmovups(out[c].zmm(), table(0));
    a.vpermi2ps(out[c].zmm(), x86::zmm(28), x86::zmm(29));
    for (int j = 2; j < n; j++) {
      a.vmovups(x86::zmm(27), table(j - 1));
      a.vpermt2ps(out[c].zmm(), x86::zmm(27), x86::zmm(28 + j));
    }
  }
}

// Interleaved stores in 16 lanes (VecPlan::interleaved_stores): raw vector
// j's lane L is float 16 * j + L, component c = (16 j + L) % n of element
// e = (16 j + L) / n. One two-table permute (vpermi2ps) puts in the lanes of
// components 0 and 1, then one permute per further component (vpermt2ps,
// the raw vector as its first table: every other lane keeps its own) puts
// in that component's: n - 1 permutes a raw vector, into zmm28 (index
// vectors in zmm28 and zmm27, as the loads'). Under a masked end raw vector
// j stores only the floats mask register k(2 + j) selects.
namespace {
struct StoreTables {
  alignas(64) int32_t idx[3][4][3][16] = {};  // [n - 2][raw vector][step][lane]
  StoreTables() {
    for (int n = 2; n <= 4; n++)
      for (int j = 0; j < n; j++)
        for (int L = 0; L < 16; L++) {
          int f = 16 * j + L, c = f % n, e = f / n;
          idx[n - 2][j][0][L] = c < 2 ? 16 * c + e : 0;
          for (int s = 1; s + 1 < n; s++) idx[n - 2][j][s][L] = c == s + 1 ? 16 + e : L;
        }
  }
};
const StoreTables kStore;
}  // namespace

void wide_interleaved_store(x86::Assembler& a, int n, const x86::Mem& at, const x86::Ymm* in, bool masked) {
  a.mov(x86::rsi, (uint64_t)(uintptr_t)kStore.idx[n - 2]);
  for (int j = 0; j < n; j++) {
    auto table = [&](int step) { return x86::zmmword_ptr(x86::rsi, 64 * (3 * j + step)); };
    a.vmovups(x86::zmm(28), table(0));
    a.vpermi2ps(x86::zmm(28), in[0].zmm(), in[1].zmm());
    for (int c = 2; c < n; c++) {
      a.vmovups(x86::zmm(27), table(c - 1));
      a.vpermt2ps(x86::zmm(28), x86::zmm(27), in[c].zmm());
    }
    x86::Mem m = at;
    m.addOffset(64 * j);
    m.setSize(64);
    if (masked) a.k(x86::k(2 + j)).vmovups(m, x86::zmm(28));
    else a.vmovups(m, x86::zmm(28));
  }
}

}  // namespace kiln::jit
