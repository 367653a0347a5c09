// The GPU-only language of ti.simt (Taichi's names): block-shared arrays
// (ti.simt.block.SharedArray), block barriers (ti.simt.block.sync), the
// subgroup operations of ti.simt.subgroup, and CUDA's ti.simt.warp.* and
// block.sync_*_nonzero. Each becomes a shared_array / shared_ptr or simt
// statement (vm/ir/ir.h) that only a GPU backend compiles
// (gpu/vulkan/codegen_simt.cpp, jit/llvm/lower_simt.cpp for CUDA); on the
// CPU engines, as in Taichi, they are a ValueError naming the arch.
//
// A shared array is one array per block (workgroup) of the parallel loop's
// iterations: ti.loop_config(block_dim=N) before the loop sets N. Its
// elements are read and written through shared_ptr statements, which
// global_load / global_store / atomic take like field pointers, so `a[i] +=
// v` is an atomic update of the block's element, as in Taichi. Vector and
// matrix dtypes keep their components in consecutive elements.
#include "vm/frontend/lower.h"
#include "vm/ir/simt.h"

namespace kiln::frontend {

using ir::SimtOp;
using ir::Stmt;
using ir::StmtKind;

namespace {

struct SimtName {
  SimtOp op;
  int args;                         // operands: 0, 1 (the value) or 2 (value, lane/offset)
  ir::AtomicOp aop = ir::AtomicOp::add;
};

// ti.simt.<name> -> the statement it lowers to.
const std::unordered_map<std::string, SimtName>& simt_names() {
  using A = ir::AtomicOp;
  static const std::unordered_map<std::string, SimtName> names = [] {
    std::unordered_map<std::string, SimtName> n = {
        {"block.sync", {SimtOp::block_sync, 0}},
        {"block.mem_sync", {SimtOp::block_mem_sync, 0}},
        {"block.thread_idx", {SimtOp::thread_idx, 0}},
        {"block.global_thread_idx", {SimtOp::global_thread_idx, 0}},
        {"subgroup.barrier", {SimtOp::subgroup_barrier, 0}},
        {"subgroup.memory_barrier", {SimtOp::subgroup_memory_barrier, 0}},
        {"subgroup.elect", {SimtOp::elect, 0}},
        {"subgroup.group_size", {SimtOp::group_size, 0}},
        {"subgroup.invocation_id", {SimtOp::invocation_id, 0}},
        {"subgroup.all_true", {SimtOp::all_true, 1}},
        {"subgroup.any_true", {SimtOp::any_true, 1}},
        {"subgroup.all_equal", {SimtOp::all_equal, 1}},
        {"subgroup.broadcast_first", {SimtOp::broadcast_first, 1}},
        {"subgroup.broadcast", {SimtOp::broadcast, 2}},
        {"subgroup.shuffle", {SimtOp::shuffle, 2}},
        {"subgroup.shuffle_xor", {SimtOp::shuffle_xor, 2}},
        {"subgroup.shuffle_up", {SimtOp::shuffle_up, 2}},
        {"subgroup.shuffle_down", {SimtOp::shuffle_down, 2}},
    };
    const std::pair<const char*, A> ops[] = {{"add", A::add},         {"mul", A::mul}, {"min", A::min}, {"max", A::max},
                                             {"and", A::bit_and},     {"or", A::bit_or}, {"xor", A::bit_xor}};
    for (auto [suffix, a] : ops) {
      n[std::string("subgroup.reduce_") + suffix] = {SimtOp::reduce, 1, a};
      n[std::string("subgroup.inclusive_") + suffix] = {SimtOp::inclusive, 1, a};
      n[std::string("subgroup.exclusive_") + suffix] = {SimtOp::exclusive, 1, a};
    }
    return n;
  }();
  return names;
}

// ti.simt.warp.* and block.sync_*_nonzero (CUDA's, by Taichi's names): the
// operands as Taichi orders them, the member mask first where it has one.
enum class WarpArgs : uint8_t {
  none,        // active_mask()
  mask,        // sync(mask)
  pred,        // ballot(pred), block.sync_*_nonzero(pred)
  mask_pred,   // all_nonzero / any_nonzero / unique(mask, pred)
  mask_value,  // match_any / match_all(mask, value)
  shuffle,     // shfl_*(mask, value, lane or offset)
};
struct WarpName {
  SimtOp op;
  WarpArgs args;
  Prim value = Prim::none;  // the shuffles' value type (their _i32/_f32 suffix)
};

const std::unordered_map<std::string, WarpName>& warp_names() {
  using W = WarpArgs;
  static const std::unordered_map<std::string, WarpName> names = {
      {"warp.all_nonzero", {SimtOp::all_true, W::mask_pred}},
      {"warp.any_nonzero", {SimtOp::any_true, W::mask_pred}},
      {"warp.unique", {SimtOp::all_equal, W::mask_pred}},
      {"warp.ballot", {ir::kSimtBallot, W::pred}},
      {"warp.shfl_sync_i32", {SimtOp::shuffle, W::shuffle, Prim::i32}},
      {"warp.shfl_sync_f32", {SimtOp::shuffle, W::shuffle, Prim::f32}},
      {"warp.shfl_down_i32", {SimtOp::shuffle_down, W::shuffle, Prim::i32}},
      {"warp.shfl_down_f32", {SimtOp::shuffle_down, W::shuffle, Prim::f32}},
      {"warp.shfl_up_i32", {SimtOp::shuffle_up, W::shuffle, Prim::i32}},
      {"warp.shfl_up_f32", {SimtOp::shuffle_up, W::shuffle, Prim::f32}},
      {"warp.shfl_xor_i32", {SimtOp::shuffle_xor, W::shuffle, Prim::i32}},
      {"warp.match_any", {ir::kSimtMatchAny, W::mask_value}},
      {"warp.match_all", {ir::kSimtMatchAll, W::mask_value}},
      {"warp.active_mask", {ir::kSimtActiveMask, W::none}},
      {"warp.sync", {ir::kSimtWarpSync, W::mask}},
      {"block.sync_all_nonzero", {ir::kSimtSyncAll, W::pred}},
      {"block.sync_any_nonzero", {ir::kSimtSyncAny, W::pred}},
      {"block.sync_count_nonzero", {ir::kSimtSyncCount, W::pred}},
  };
  return names;
}

// A shape given as an int or a tuple of ints (Taichi's check and message).
std::vector<int64_t> shared_shape(const StaticValue& v, SourceLoc loc) {
  std::vector<int64_t> shape;
  if (v.kind == StaticValue::Kind::integer) shape.push_back(v.i);
  else if (v.kind == StaticValue::Kind::tuple)
    for (const StaticValue& e : v.elems) {
      if (e.kind != StaticValue::Kind::integer) shape.clear();
      if (e.kind != StaticValue::Kind::integer) break;
      shape.push_back(e.i);
    }
  bool ok = !shape.empty() && (v.kind == StaticValue::Kind::integer || shape.size() == v.elems.size());
  if (!ok)
    raise("ValueError", "ti.simt.block.shared_array shape must be an integer or a tuple of integers, but got " +
                            describe_static(v), loc);
  return shape;
}

std::string shared_what(const Stmt* arr) {
  return arr->access->field.empty() ? "a shared array" : "shared array '" + arr->access->field + "'";
}

// A warp operation: a simt statement whose operands are the value, the lane
// (shuffles) and the member mask last (jit/llvm/lower_simt.cpp).
KVal call_warp(Lowerer& L, const std::string& full, const WarpName& wn, const ast::Call* c) {
  SourceLoc loc = c->loc;
  using W = WarpArgs;
  size_t want = wn.args == W::none ? 0 : wn.args == W::mask || wn.args == W::pred ? 1 : wn.args == W::shuffle ? 3 : 2;
  if (!c->keywords.empty()) raise("TypeError", full + "() takes no keyword arguments", c->keywords[0]->loc);
  if (c->args.size() != want)
    raise("TypeError", full + "() takes " + std::to_string(want) + " argument" + (want == 1 ? "" : "s") + " (" +
                           std::to_string(c->args.size()) + " given)", loc);
  auto scalar = [&](size_t k, const char* what) {
    Stmt* v = L.value_of(L.lower_expr(c->args[k]), c->args[k]->loc);
    if (!v->type.is_scalar())
      raise("TypeError", full + "() takes a scalar " + what + ", not " + shape_phrase(v->type), c->args[k]->loc);
    return v;
  };
  auto integer = [&](size_t k, const char* what, Prim to) {
    Stmt* v = scalar(k, what);
    if (!prim_is_int(v->type.prim))
      raise("TypeError", full + "() takes an integer " + what + ", not " + shape_phrase(v->type), c->args[k]->loc);
    return L.emit_cast(v, to, loc);
  };
  std::vector<Stmt*> ops;
  Stmt* mask = nullptr;
  switch (wn.args) {
    case W::none: break;
    case W::mask: ops.push_back(integer(0, "mask", Prim::u32)); break;
    case W::pred: ops.push_back(L.as_condition(KVal::of(scalar(0, "predicate")), c->args[0]->loc)); break;
    case W::mask_pred:
      mask = integer(0, "mask", Prim::u32);
      ops.push_back(L.as_condition(KVal::of(scalar(1, "predicate")), c->args[1]->loc));
      break;
    case W::mask_value: {
      mask = integer(0, "mask", Prim::u32);
      Stmt* v = scalar(1, "value");
      if (prim_bits(v->type.prim) != 32 && prim_bits(v->type.prim) != 64)
        raise("TypeError", full + "() takes a 32- or 64-bit value, not " + shape_phrase(v->type), c->args[1]->loc);
      ops.push_back(v);
      break;
    }
    case W::shuffle:
      mask = integer(0, "mask", Prim::u32);
      ops.push_back(L.emit_cast(scalar(1, "value"), wn.value, loc));
      ops.push_back(integer(2, "lane or offset", Prim::i32));
      break;
  }
  if (mask) ops.push_back(mask);
  bool value = ir::simt_op_has_value(wn.op);
  Prim out = wn.args == W::shuffle ? wn.value : Prim::i32;
  auto s = ir::make_stmt(StmtKind::simt, value ? Type::scalar(out) : Type(), loc, std::move(ops));
  s->index = (int)wn.op;
  return KVal::of(L.emit(std::move(s), loc));
}

}  // namespace

bool Lowerer::is_shared(const KVal& v) { return v.is_value() && v.v->kind == StmtKind::shared_array; }

KVal Lowerer::call_simt(const std::string& name, const ast::Call* c) {
  SourceLoc loc = c->loc;
  std::string full = "ti.simt." + name;
  const std::string& arch = prog.config.arch;
  auto warp = warp_names().find(name);
  bool cuda_only = warp != warp_names().end();
  if ((arch != "vulkan" && arch != "cuda") || (cuda_only && arch != "cuda"))
    raise("ValueError", full + " is not supported for arch " + arch +
                            (cuda_only ? " (Taichi has it on CUDA only)"
                                       : ": block-shared memory, block barriers and subgroup operations need a GPU "
                                         "backend (ti.init(arch=ti.vulkan) or arch=ti.cuda)"),
          loc);
  if (cuda_only) return call_warp(*this, full, warp->second, c);
  if (name == "block.SharedArray") {
    if (c->args.size() > 2) raise("TypeError", full + "() takes a shape and a dtype", loc);
    const ast::Expr* shape_e = c->args.size() > 0 ? c->args[0] : nullptr;
    const ast::Expr* dtype_e = c->args.size() > 1 ? c->args[1] : nullptr;
    for (auto* kw : c->keywords) {
      if (kw->arg == "shape" && !shape_e) shape_e = kw->value;
      else if (kw->arg == "dtype" && !dtype_e) dtype_e = kw->value;
      else raise("TypeError", full + "() got an unexpected keyword argument '" + kw->arg + "'", kw->loc);
    }
    if (!shape_e || !dtype_e) raise("TypeError", full + "() needs a shape and a dtype", loc);
    std::vector<int64_t> shape = shared_shape(eval_static(shape_e), shape_e->loc);
    StaticValue dt = eval_static(dtype_e);
    if (dt.kind != StaticValue::Kind::dtype || dt.prim == Prim::none)
      raise("TypeError", full + "() dtype must be a primitive, vector or matrix type, not " + describe_static(dt), dtype_e->loc);
    int comps = std::max(1, dt.rows) * std::max(1, dt.cols);
    int64_t elems = comps;
    for (int64_t d : shape) {
      if (d < 1 || elems > (int64_t(1) << 24) / d)
        raise("ValueError", full + "() shape must be positive and hold at most 2^24 elements", shape_e->loc);
      elems *= d;
    }
    bool in_parallel = false;
    for (auto& fr : frames)
      for (auto& l : fr.loops) in_parallel |= l.parallel;
    if (!in_parallel)
      raise("SyntaxError", full + "() must be called inside a parallel for loop: each block of its iterations has one",
            loc);
    auto s = ir::make_stmt(StmtKind::shared_array, Type::ptr(dt.prim), loc);
    s->index = (int)elems;
    s->access->shape = shape;
    s->access->ext_comps = comps;
    Stmt* arr = emit(std::move(s), loc);
    shared_tensors[arr] = {dt.rows, dt.cols};
    return KVal::of(arr);
  }
  auto it = simt_names().find(name);
  if (it == simt_names().end()) raise("AttributeError", full + " is not a ti.simt operation Kiln knows", c->func->loc);
  const SimtName& sn = it->second;
  if (!c->keywords.empty()) raise("TypeError", full + "() takes no keyword arguments", c->keywords[0]->loc);
  if ((int)c->args.size() != sn.args)
    raise("TypeError", full + "() takes " + std::to_string(sn.args) + " argument" + (sn.args == 1 ? "" : "s") + " (" +
                           std::to_string(c->args.size()) + " given)", loc);
  auto simt = [&](Type t, std::vector<Stmt*> ops) {
    auto s = ir::make_stmt(StmtKind::simt, t, loc, std::move(ops));
    s->index = (int)sn.op;
    s->aop = sn.aop;
    return emit(std::move(s), loc);
  };
  if (sn.args == 0) return KVal::of(simt(ir::simt_has_value(sn.op) ? Type::scalar(Prim::i32) : Type(), {}));
  Stmt* v = value_of(lower_expr(c->args[0]), c->args[0]->loc);
  Stmt* lane = nullptr;
  if (sn.args == 2) {
    lane = value_of(lower_expr(c->args[1]), c->args[1]->loc);
    if (!lane->type.is_scalar() || !prim_is_int(lane->type.prim))
      raise("TypeError", full + "() takes an integer lane or offset, not " + shape_phrase(lane->type), c->args[1]->loc);
    lane = emit_cast(lane, Prim::i32, loc);
  }
  bool scan = sn.op == SimtOp::reduce || sn.op == SimtOp::inclusive || sn.op == SimtOp::exclusive;
  bool bitwise = sn.aop == ir::AtomicOp::bit_and || sn.aop == ir::AtomicOp::bit_or || sn.aop == ir::AtomicOp::bit_xor;
  if (scan && bitwise && prim_is_float(v->type.prim))
    raise("TypeError", full + "() needs integers, not " + shape_phrase(v->type), c->args[0]->loc);
  if (sn.op == SimtOp::all_true || sn.op == SimtOp::any_true) {
    Stmt* cond = as_condition(KVal::of(v), c->args[0]->loc);
    return KVal::of(simt(Type::scalar(Prim::i32), {cond}));
  }
  // Vectors and matrices: each component on its own.
  std::vector<Stmt*> parts = v->type.rows ? elements(v, loc) : std::vector<Stmt*>{v};
  bool to_i32 = sn.op == SimtOp::all_equal;
  for (Stmt*& p : parts) {
    std::vector<Stmt*> ops{p};
    if (lane) ops.push_back(lane);
    p = simt(Type::scalar(to_i32 ? Prim::i32 : p->type.prim), ops);
  }
  if (!v->type.rows) return KVal::of(parts[0]);
  if (to_i32) {  // all components equal across the subgroup
    Stmt* all = parts[0];
    for (size_t k = 1; k < parts.size(); k++)
      all = emit_binary(ir::BinaryOp::bit_and, all, parts[k], Type::scalar(Prim::i32), loc);
    return KVal::of(all);
  }
  return KVal::of(make_tensor(parts, v->type.rows, v->type.cols, loc));
}

std::vector<Stmt*> Lowerer::shared_ptrs(Stmt* arr, const ast::Expr* slice, SourceLoc loc) {
  std::vector<KVal> idx;
  flatten_index(slice, idx);
  const std::vector<int64_t>& shape = arr->access->shape;
  std::string what = shared_what(arr);
  if (idx.size() != shape.size())
    raise("IndexError", what + " has " + std::to_string(shape.size()) + " dimension" + (shape.size() == 1 ? "" : "s") +
                            " but was indexed with " + std::to_string(idx.size()) + " index" + (idx.size() == 1 ? "" : "es"),
          loc);
  std::vector<Stmt*> ops{arr};
  for (auto& k : idx) {
    Stmt* v = value_of(k, loc);
    if (!v->type.is_scalar() || !prim_is_int(v->type.prim))
      raise("TypeError", what + " must be indexed with integers, got " + shape_phrase(v->type), loc);
    ops.push_back(emit_cast(v, Prim::i32, loc));
  }
  std::vector<Stmt*> ptrs;
  for (int comp = 0; comp < arr->access->ext_comps; comp++) {
    auto p = ir::make_stmt(StmtKind::shared_ptr, arr->type, loc, ops);
    p->index = comp;
    ptrs.push_back(emit(std::move(p), loc));
  }
  return ptrs;
}

// The element the pointers of shared_ptrs() name: a scalar, vector or matrix.
static KVal load_element(Lowerer& L, Stmt* arr, const std::vector<Stmt*>& ptrs, SourceLoc loc) {
  std::vector<Stmt*> e;
  for (Stmt* p : ptrs) e.push_back(L.emit_load(p, loc));
  auto [rows, cols] = L.shared_tensors.at(arr);
  return KVal::of(rows ? L.make_tensor(e, rows, cols, loc) : e[0]);
}

KVal Lowerer::shared_load(Stmt* arr, const ast::Expr* slice, SourceLoc loc) {
  return load_element(*this, arr, shared_ptrs(arr, slice, loc), loc);
}

Stmt* Lowerer::shared_component(Stmt* arr, const ast::Expr* slice, const ast::Expr* comp, SourceLoc loc) {
  auto [rows, cols] = shared_tensors.at(arr);
  std::string what = shared_what(arr);
  if (!rows) raise("TypeError", what + " holds scalars: an element has no components", comp->loc);
  std::vector<KVal> idx;
  flatten_index(comp, idx);
  std::vector<int64_t> at;
  for (auto& k : idx) {
    if (!k.is_static() || k.s.kind != StaticValue::Kind::integer)
      raise("TypeError", "the component index of an element of " + what + " must be a compile-time integer", comp->loc);
    at.push_back(k.s.i);
  }
  size_t want = cols ? 2 : 1;
  if (at.size() != want || at[0] < 0 || at[0] >= rows || (cols && (at[1] < 0 || at[1] >= cols)))
    raise("IndexError", "component index out of range for an element of " + what + " (" +
                            shape_phrase(tensor_type(arr->type.prim, rows, cols, loc)) + ")", comp->loc);
  return shared_ptrs(arr, slice, loc).at((size_t)(cols ? at[0] * cols + at[1] : at[0]));
}

// The value stored or added into an element: its components, each cast to
// the array's dtype (a scalar broadcasts to a vector element).
static std::vector<Stmt*> element_parts(Lowerer& L, Stmt* arr, Stmt* v, const std::string& what, SourceLoc loc) {
  auto [rows, cols] = L.shared_tensors.at(arr);
  int n = arr->access->ext_comps;
  std::vector<Stmt*> parts = v->type.rows ? L.elements(v, loc) : std::vector<Stmt*>((size_t)n, v);
  if ((int)parts.size() != n || (rows == 0 && v->type.rows))
    raise("TypeError", "cannot store " + shape_phrase(v->type) + " into an element of " + what + " (" +
                           shape_phrase(Lowerer::tensor_type(arr->type.prim, rows, cols, loc)) + ")", loc);
  for (Stmt*& p : parts) p = L.convert_for_store(p, arr->type.prim, what, loc);
  return parts;
}

void Lowerer::shared_store(Stmt* arr, const ast::Expr* slice, const KVal& v, SourceLoc loc) {
  std::vector<Stmt*> ptrs = shared_ptrs(arr, slice, loc);
  std::vector<Stmt*> parts = element_parts(*this, arr, value_of(v, loc), shared_what(arr), loc);
  for (size_t k = 0; k < ptrs.size(); k++) emit_store(ptrs[k], parts[k], loc);
}

void Lowerer::shared_update(Stmt* arr, const ast::Expr* slice, ast::BinOpKind op, std::optional<ir::AtomicOp> aop,
                            const KVal& rhs, SourceLoc loc) {
  std::vector<Stmt*> ptrs = shared_ptrs(arr, slice, loc);
  Stmt* v = value_of(rhs, loc);
  std::string what = shared_what(arr);
  if (aop) {  // atomic on the block's element, as Taichi's shared-memory atomics
    std::vector<Stmt*> parts = v->type.rows ? elements(v, loc) : std::vector<Stmt*>(ptrs.size(), v);
    if (parts.size() != ptrs.size()) element_parts(*this, arr, v, what, loc);  // raises
    for (size_t k = 0; k < ptrs.size(); k++) emit_atomic_update(ptrs[k], *aop, parts[k], what, loc);
    return;
  }
  KVal old = load_element(*this, arr, ptrs, loc);
  std::vector<Stmt*> parts = element_parts(*this, arr, value_of(lower_binop(op, old, KVal::of(v), loc), loc), what, loc);
  for (size_t k = 0; k < ptrs.size(); k++) emit_store(ptrs[k], parts[k], loc);
}

}  // namespace kiln::frontend
