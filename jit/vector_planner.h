// The vector planner's state (vector.h: plan_vector), shared by its files:
// vector.cpp walks the loop (its counter and test, what it carries, the
// order the lanes run in, what may overlap), vector_address.cpp reads
// addresses (linear forms, accesses, ndrange rows, interleaved groups),
// vector_lanes.cpp decides which values have lanes and of what type, and
// vector_carried.cpp the values carried around the loop (folds, split
// float sums, last values). Internal to those files.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "jit/trace.h"
#include "jit/vector.h"
#include "vm/types/type.h"

namespace kiln::jit::planner {

struct Planner {
  const Trace& t;
  VecPlan& p;
  Ref n;

  bool body(Ref r) const { return r > t.loop_ref; }
  bool fail(const std::string& why) {
    if (p.why.empty()) p.why = why;
    return false;
  }

  // vector_address.cpp
  // An address as root + k + s * counter + sq * q + sr * r + sp * p + sv *
  // v, root an invariant the body reads (so it is live in the loop) or none.
  struct Lin {
    Ref root = kNoRef;
    int64_t k = 0, s = 0, sq = 0, sr = 0, sp = 0, sv = 0;
    Lin scaled(int64_t f) const { return {root, k * f, s * f, sq * f, sr * f, sp * f, sv * f}; }
  };
  bool lin(Ref r, Lin& out, int depth = 0);
  bool row_root(Ref r);
  bool access_of(Ref addr, VecPlan::Access& acc, const char* what);
  void find_rows();
  void find_planes();
  std::pair<Ref, int64_t> resolve(Ref r);
  void find_interleaved();
  bool apart(Ref x, Ref y);

  // vector_lanes.cpp
  static bool lanes32(Prim pr) { return pr == Prim::f32 || pr == Prim::i32 || pr == Prim::u32; }
  static bool lanes64(Prim pr) { return pr == Prim::f64 || pr == Prim::i64 || pr == Prim::u64; }
  bool lanes_of(Prim pr) const { return p.f64 ? lanes64(pr) : lanes32(pr); }
  static bool int64(bc::CT t) { return t == bc::CT::i64 || t == bc::CT::u64; }
  static bool is_compare(IrOp op) { return op == IrOp::lt || op == IrOp::le || op == IrOp::eq || op == IrOp::ne; }
  // The counter and its ndrange split (row q and r, plane p and q % P, volume v and p % V):
  // i32 lanes the vector loop makes itself, not ops of the body.
  bool index(Ref r) const {
    return r == p.iv || r == p.row_q || r == p.row_r || p.is_plane(r) || p.is_in_plane(r) || p.is_vol(r) || p.is_in_vol(r);
  }
  bc::CT lane_t(Ref r);
  bool signed32(Ref r);
  bool lanes(Ref r);
  bool lanes64(Ref r, const Ins& in);
  char widening(Ref r);

  // vector_carried.cpp
  bool fold_chain(Ref slot, Ref val, const ScratchVec<int>& reads);
  ScratchVec<bool> find_partials(const ScratchVec<Ref>& phis, const ScratchVec<int>& reads);
  bool last_values(const ScratchVec<Ref>& phis);

  // vector.cpp
  bool plan();
  // (the walk's lists in the compile's scratch block: scratch.h)
  bool loop_test(ScratchVec<Ref>& phis, ScratchVec<Ref>& stores, ScratchVec<Ref>& guards);
  bool carried_values(const ScratchVec<Ref>& phis, const ScratchVec<Ref>& guards,
                      ScratchVec<std::pair<Ref, Ref>>& carried);
  bool stores_and_folds(const ScratchVec<Ref>& stores, const ScratchVec<std::pair<Ref, Ref>>& carried);
  bool guards_in_lanes(const ScratchVec<Ref>& guards);
  ScratchVec<Ref> lane_order(const ScratchVec<Ref>& guards);
  bool apart_in_lanes(const ScratchVec<Ref>& mem);
  bool row_shape(const ScratchVec<Ref>& mem);
  bool store_groups(const ScratchVec<Ref>& mem);
  bool strided_apart(const ScratchVec<Ref>& mem);
};

}  // namespace kiln::jit::planner
