// For loops in kernels. The kernel's outermost loops become parallel
// range_for statements (offload makes them tasks); inner loops are serial.
//   for i in range(a, b)            range_for over [a, b)
//   for i, j in ti.ndrange(n, (a, b)) one range_for over the flattened space
//   for i, j in x                    a struct-for; over a dense field it is the
//                                     flattened range of x.shape (no list needed)
//   for I in ti.grouped(x)           as above, I bound to the tuple of indices
//   for v in ti.static(seq)          unrolled at compile time
#include <algorithm>
#include <bit>
#include <functional>

#include <utility>

#include "vm/frontend/lower.h"

namespace kiln::frontend {

using ir::BinaryOp;
using ir::Stmt;
using ir::StmtKind;

namespace {
struct Dim {
  KVal begin, end;  // each a value or a static int
};
}  // namespace

// A dense field's own indices, as its struct-for visits them: [offset,
// offset + shape) per axis (the offsets are the field's, 0 without).
static std::vector<Dim> field_dims(const FieldInfo& f) {
  std::vector<Dim> dims;
  for (size_t a = 0; a < f.shape.size(); a++) {
    int64_t lo = f.offset_at(a);
    dims.push_back({KVal::of(StaticValue::of_int(lo)), KVal::of(StaticValue::of_int(lo + f.shape[a]))});
  }
  return dims;
}

// Opens the range_for [lo, total) with index type `ity` and pushes its
// block; `k` gets its loop index.
static Stmt* open_range(Lowerer& L, Stmt* lo, Stmt* total, Prim ity, bool parallel, SourceLoc loc, Stmt*& k) {
  auto rf = std::make_unique<Stmt>(StmtKind::range_for);
  rf->ops = {lo, total};
  // A loop lowered as serial stays serial: folding a constant `if 1 < 2:`
  // around it may leave it at the top level, where offload would make it a
  // parallel task, racing its break and its plain updates of outer locals
  // (Taichi runs a for that is not outermost serially too).
  rf->serialize = !parallel;
  Stmt* loop = L.emit(std::move(rf), loc);
  L.push_block(loop);
  auto li = std::make_unique<Stmt>(StmtKind::loop_index);
  li->type = Type::scalar(ity);
  li->loop = loop;
  k = L.emit(std::move(li), loc);
  return loop;
}

// Opens one range_for over the index space `dims` (flattened: total =
// prod(end - begin), row-major as Taichi visits ndrange) and pushes its block:
// the struct-for, ndrange and range loops and x.fill() share it. `idx` gets
// each dimension's index value, `k` the flat loop index.
static Stmt* open_index_loop(Lowerer& L, const std::vector<Dim>& dims, bool parallel, SourceLoc loc,
                             std::vector<KVal>& idx, Stmt*& k) {
  // Index type: the promotion of the bounds' types (i32 unless a bound is wider).
  Prim ity = Prim::i32;
  for (auto& d : dims) {
    for (const KVal* bound : {&d.begin, &d.end}) {
      Prim p = L.prim_of(*bound, loc);
      if (!prim_is_int(p)) raise("TypeError", "loop bounds must be integers, got " + std::string(prim_name(p)), loc);
      ity = promote(ity, p);
    }
  }
  // Flatten: total = prod(end - begin); index k -> (begin_d + (k / stride_d) % extent_d).
  std::vector<Stmt*> begins, extents;
  Stmt* total = nullptr;
  for (auto& d : dims) {
    Stmt* b = L.emit_cast(L.value_of(d.begin, loc), ity, loc);
    Stmt* e = L.emit_cast(L.value_of(d.end, loc), ity, loc);
    // A dimension whose end is below its begin is empty (Python's range), so
    // it makes the whole space empty: clamp its extent at 0, or two negative
    // extents would multiply into a positive count.
    Stmt* ext = dims.size() == 1 ? nullptr
                                 : L.emit_binary(BinaryOp::max, L.emit_binary(BinaryOp::sub, e, b, Type::scalar(ity), loc),
                                               L.emit_const(ir::Const::of_int(ity, 0), loc), Type::scalar(ity), loc);
    begins.push_back(b);
    extents.push_back(ext ? ext : e);
    if (dims.size() == 1) total = e;
    else total = total ? L.emit_binary(BinaryOp::mul, total, ext, Type::scalar(ity), loc) : ext;
  }
  if (dims.empty()) total = L.emit_const(ir::Const::of_int(ity, 1), loc);
  Stmt* lo = dims.size() == 1 ? begins[0] : L.emit_const(ir::Const::of_int(ity, 0), loc);
  Stmt* loop = open_range(L, lo, total, ity, parallel, loc, k);
  if (dims.size() == 1) {
    idx.push_back(KVal::of(k));
  } else if (!dims.empty()) {
    // Row-major: the last dimension varies fastest, as Taichi visits ndrange.
    Stmt* stride = nullptr;
    std::vector<Stmt*> parts(dims.size());
    for (size_t d = dims.size(); d-- > 0;) {
      Stmt* q = stride ? L.emit_binary(BinaryOp::div, k, stride, Type::scalar(ity), loc) : k;
      Stmt* r = d == 0 ? q : L.emit_binary(BinaryOp::raw_mod, q, extents[d], Type::scalar(ity), loc);
      parts[d] = L.emit_binary(BinaryOp::add, r, begins[d], Type::scalar(ity), loc);
      stride = stride ? L.emit_binary(BinaryOp::mul, stride, extents[d], Type::scalar(ity), loc) : extents[d];
    }
    for (auto* p : parts) idx.push_back(KVal::of(p));
  }
  return loop;
}

// A blocked dense field's cells in the order of its layout, as Taichi's
// struct-for visits them: ti.root.dense(ti.ij, 64).dense(ti.ij, 8) runs block
// by block, each block's 8x8 cells in a row. The loop counts L over [0, total)
// and each index is the sum of its digits of L: one per address term of the
// field (a level that splits the axis), ordered by the term's stride, the
// largest most significant, so L walks memory in order and the cell's own
// accesses are base + L * cell size (layout_access makes them so). Returns
// null where that order is row-major (flat fields, levels that split the axes
// one after another: ti.root.dense(ti.i, 4).dense(ti.i, 2)), the shape does
// not fill the layout, or L would not fit an i32.
static Stmt* open_layout_loop(Lowerer& L, const FieldInfo& f, const ir::Access& acc, bool parallel, SourceLoc loc,
                              std::vector<KVal>& idx, Stmt*& k) {
  struct Digit {
    int axis;
    int64_t div, extent, stride;
  };
  std::vector<Digit> ds;
  for (const ir::IndexTerm& t : acc.terms) {
    int64_t n = f.shape[t.axis];
    int64_t e = t.mod ? t.mod : (n % t.div == 0 ? n / t.div : 0);
    if (e <= 0) return nullptr;
    ds.push_back({t.axis, t.div, e, t.stride});
  }
  std::stable_sort(ds.begin(), ds.end(), [](const Digit& a, const Digit& b) { return a.stride > b.stride; });
  // Row-major when the axes come in order (an axis split over several levels
  // one after another counts its index in order too).
  bool row_major = true;
  for (size_t d = 1; d < ds.size(); d++) row_major = row_major && ds[d - 1].axis <= ds[d].axis;
  if (row_major) return nullptr;
  int64_t total = 1;
  for (const Digit& d : ds) {
    total *= d.extent;
    if (total > INT32_MAX) return nullptr;
  }
  int64_t shape_total = 1;
  for (int64_t n : f.shape) shape_total *= n;
  if (total != shape_total) return nullptr;  // a shape the levels do not tile exactly
  auto cint = [&](int64_t v) { return L.emit_const(ir::Const::of_int(Prim::i32, v), loc); };
  auto bin = [&](BinaryOp op, Stmt* a, Stmt* b) { return L.emit_binary(op, a, b, Type::scalar(Prim::i32), loc); };
  Stmt* loop = open_range(L, cint(0), cint(total), Prim::i32, parallel, loc, k);
  std::vector<Stmt*> index(f.shape.size(), nullptr);
  int64_t radix = total;
  for (size_t d = 0; d < ds.size(); d++) {
    radix /= ds[d].extent;  // the product of the less significant digits' extents
    // Powers of two (blocks mostly are) as shifts and masks, exact for L >= 0:
    // the JIT's lanes take those where they take no division.
    auto log2 = [](int64_t n) { return (n & (n - 1)) == 0 ? std::countr_zero((uint64_t)n) : -1; };
    Stmt* v = k;
    if (radix > 1) v = log2(radix) > 0 ? bin(BinaryOp::bit_shr, k, cint(log2(radix))) : bin(BinaryOp::div, k, cint(radix));
    if (d > 0) {
      int64_t e = ds[d].extent;
      v = log2(e) >= 0 ? bin(BinaryOp::bit_and, v, cint(e - 1)) : bin(BinaryOp::raw_mod, v, cint(e));
    }
    if (ds[d].div > 1) v = bin(BinaryOp::mul, v, cint(ds[d].div));
    Stmt*& at = index[ds[d].axis];
    at = at ? bin(BinaryOp::add, at, v) : v;
  }
  for (size_t a = 0; a < index.size(); a++) {
    int64_t off = f.offset_at(a);
    if (!index[a]) index[a] = cint(off);
    else if (off) index[a] = bin(BinaryOp::add, index[a], cint(off));
    idx.push_back(KVal::of(index[a]));
  }
  return loop;
}

// The loop over a dense field's indices: in its layout's order where that is
// not row-major, else over its shape's flattened range.
static Stmt* open_field_loop(Lowerer& L, const FieldInfo& f, bool parallel, SourceLoc loc, std::vector<KVal>& idx,
                             Stmt*& k) {
  if (!f.shape.empty() && f.place && !f.place->sparse && !f.quant) {
    ir::Access acc = L.prog.access_of(f);
    if (Stmt* loop = open_layout_loop(L, f, acc, parallel, loc, idx, k)) return loop;
  }
  return open_index_loop(L, field_dims(f), parallel, loc, idx, k);
}

std::vector<std::string> target_names(const ast::Expr* t) {
  std::vector<std::string> out;
  if (t->kind == ast::ExprKind::Name) {
    out.push_back(t->as<ast::Name>()->id);
  } else if (t->kind == ast::ExprKind::Tuple || t->kind == ast::ExprKind::List) {
    const ast::ExprList& el = t->kind == ast::ExprKind::Tuple ? t->as<ast::Tuple>()->elts : t->as<ast::List>()->elts;
    for (auto* e : el) {
      if (e->kind != ast::ExprKind::Name) raise("SyntaxError", "loop targets in kernels must be plain names", e->loc);
      out.push_back(e->as<ast::Name>()->id);
    }
  } else {
    raise("SyntaxError", "loop targets in kernels must be plain names", t->loc);
  }
  return out;
}

const FieldInfo* first_component(const StaticValue& v) {
  switch (v.kind) {
    case StaticValue::Kind::field: return v.field;
    case StaticValue::Kind::matrix_field: return v.fields.empty() ? nullptr : v.fields[0];
    case StaticValue::Kind::struct_field: return v.elems.empty() ? nullptr : first_component(v.elems[0]);
    default: return nullptr;
  }
}

void Lowerer::lower_for(const ast::For* s) {
  if (!s->orelse.empty()) raise("SyntaxError", "for-else is not supported in kernels", s->loc);
  SourceLoc loc = s->loc;
  bool serialize = serialize_next || real_func;  // a real function's loops run in its caller's thread
  serialize_next = false;
  int block_dim = std::exchange(block_dim_next, 0);

  // Classify the iterable.
  const ast::Expr* it = s->iter;
  std::string kind;            // "range", "ndrange", "field", "static"
  const ast::Call* call = it->kind == ast::ExprKind::Call ? it->as<ast::Call>() : nullptr;
  bool grouped = false;
  StaticValue iter_static;
  if (call) {
    KVal f = lower_expr(call->func);
    if (f.is_static() && f.s.kind == StaticValue::Kind::builtin) {
      const std::string& n = f.s.s;
      if (n == "range" || n == "ti.ndrange") kind = n == "range" ? "range" : "ndrange";
      else if (n == "ti.static") kind = "static";
      else if (n == "ti.grouped") {
        grouped = true;
        if (call->args.size() != 1) raise("TypeError", "ti.grouped() takes 1 argument", call->loc);
        const ast::Expr* inner = call->args[0];
        const ast::Call* ic = inner->kind == ast::ExprKind::Call ? inner->as<ast::Call>() : nullptr;
        KVal g = ic ? lower_expr(ic->func) : KVal{};
        if (ic && g.is_static() && g.s.kind == StaticValue::Kind::builtin && g.s.s == "ti.ndrange") {
          call = ic;
          kind = "ndrange";
        } else if (ic) {
          // a call giving a field or an SNode at compile time: ti.grouped(x.parent())
          KVal v = lower_expr(inner);
          using SK = StaticValue::Kind;
          if (!v.is_static() || (v.s.kind != SK::field && v.s.kind != SK::matrix_field &&
                                 v.s.kind != SK::struct_field && v.s.kind != SK::snode))
            raise("TypeError", "ti.grouped() takes a field, an SNode or a ti.ndrange(...)", inner->loc);
          iter_static = v.s;
          kind = "field";
        } else {
          iter_static = static_of(lower_expr(inner), "the argument of ti.grouped", inner->loc);
          kind = "field";
        }
      }
    }
  }
  if (kind.empty()) {
    KVal v = lower_expr(it);
    if (v.is_static() && (v.s.kind == StaticValue::Kind::field || v.s.kind == StaticValue::Kind::matrix_field ||
                          v.s.kind == StaticValue::Kind::struct_field || v.s.kind == StaticValue::Kind::snode)) {
      iter_static = v.s;
      kind = "field";
    } else {
      raise("TypeError", "kernels can loop over range(), ti.ndrange(), ti.grouped(), ti.static() or a field, not '" +
                             ast::unparse(it) + "'", it->loc);
    }
  }

  std::vector<std::string> names = target_names(s->target);

  if (kind == "static") {
    if (call->args.size() != 1) raise("TypeError", "ti.static() in a for loop takes 1 argument", call->loc);
    StaticValue seq = eval_static(call->args[0]);
    if (seq.kind != StaticValue::Kind::tuple) raise("TypeError", "ti.static() loops need a range, tuple or list", call->args[0]->loc);
    Loop sl;
    sl.is_static = true;
    sl.depth = blocks.size();
    frame().loops.push_back(sl);
    for (auto& e : seq.elems) {
      frame().loops.back().exit = 0;
      push_scope();
      Binding b;
      b.kind = Binding::Kind::static_;
      if (names.size() == 1) {
        b.s = e;
        bind(names[0], std::move(b));
      } else {
        if (e.kind != StaticValue::Kind::tuple || e.elems.size() != names.size())
          raise("ValueError", "cannot unpack the ti.static loop element into " + std::to_string(names.size()) + " names", s->target->loc);
        for (size_t i = 0; i < names.size(); i++) {
          b.s = e.elems[i];
          bind(names[i], b);
        }
      }
      lower_body(s->body);
      pop_scope();
      if (frame().loops.back().exit == 2 || frame().ended) break;  // break, or a return
    }
    frame().loops.pop_back();
    return;
  }

  // Sparse fields and SNodes: a struct-for over lists of active cells.
  if (kind == "field") {
    if (const SNode* target = struct_for_target(iter_static, it->loc)) {
      if (real_func)  // its lists are built by tasks of their own, which a call cannot launch
        raise("NotImplementedError", "a struct-for over a sparse field or SNode inside a ti.real_func is not supported "
                                     "(loop over it in the kernel, or make the function a @ti.func)", it->loc);
      // A field's loop yields its indices with its offsets; an SNode's, its coordinates.
      const FieldInfo* f = iter_static.kind == StaticValue::Kind::snode ? nullptr : first_component(iter_static);
      lower_struct_for(s, target, names, grouped, serialize, f ? f->offset : std::vector<int64_t>{}, block_dim);
      return;
    }
  }

  // Dimensions of the iteration space.
  std::vector<Dim> dims;
  std::string what;
  const FieldInfo* over_field = nullptr;  // a dense field's struct-for: its cells in layout order
  if (kind == "range") {
    what = "range";
    if (call->args.empty() || call->args.size() > 2)
      raise("TypeError", call->args.size() == 3 ? "range() with a step is not supported in kernels" : "range() takes 1 or 2 arguments", call->loc);
    Dim d;
    if (call->args.size() == 1) {
      d.begin = KVal::of(StaticValue::of_int(0));
      d.end = lower_expr(call->args[0]);
    } else {
      d.begin = lower_expr(call->args[0]);
      d.end = lower_expr(call->args[1]);
    }
    dims.push_back(d);
  } else if (kind == "ndrange") {
    what = "ti.ndrange";
    // ti.ndrange(*shape): a starred compile-time tuple gives one dimension per element
    std::vector<std::pair<KVal, const ast::Expr*>> args;
    for (auto* a : call->args) {
      if (a->kind == ast::ExprKind::Starred) {
        StaticValue t = eval_static(a->as<ast::Starred>()->value);
        if (t.kind == StaticValue::Kind::object) t = host_tuple(t, a->loc);
        if (t.kind != StaticValue::Kind::tuple)
          raise("TypeError", "*args in ti.ndrange() must be a compile-time tuple", a->loc);
        for (auto& e : t.elems) args.push_back({KVal::of(e), a});
      } else {
        args.push_back({lower_expr(a), a});
      }
    }
    for (auto& [v, a] : args) {
      Dim d;
      std::vector<KVal> pair;
      if (v.is_tuple()) pair = v.elems;
      else if (v.is_static() && v.s.kind == StaticValue::Kind::tuple)
        for (auto& e : v.s.elems) pair.push_back(KVal::of(e));
      if (!pair.empty()) {
        if (pair.size() != 2) raise("TypeError", "each ti.ndrange() dimension is n or (begin, end)", a->loc);
        d.begin = pair[0];
        d.end = pair[1];
      } else {
        d.begin = KVal::of(StaticValue::of_int(0));
        d.end = v;
      }
      dims.push_back(d);
    }
  } else {
    // Vector and struct fields loop over the shape their components share.
    const FieldInfo* f = first_component(iter_static);
    if (!f)
      raise("TypeError", "struct-for loops iterate over fields, not " + describe_static(iter_static), it->loc);
    what = f->describe();
    if (f->ndarray_arg >= 0) {  // an ndarray's shape is known at launch only
      for (auto& n : ndarray_shape(*f, it->loc)) dims.push_back({KVal::of(StaticValue::of_int(0)), n});
    } else {
      dims = field_dims(*f);
      over_field = f;
    }
    // A 0-D field (and ti.ndrange()) is one iteration with no indices, as in Taichi.
  }
  if (grouped) {
    if (names.size() != 1) raise("SyntaxError", "a ti.grouped loop has exactly one target", s->target->loc);
  } else if (names.size() != dims.size()) {
    raise("SyntaxError", "the loop over " + what + " has " + std::to_string(dims.size()) + " ind" +
                             (dims.size() == 1 ? "ex" : "ices") + " but " + std::to_string(names.size()) +
                             " target" + (names.size() == 1 ? " was" : "s were") + " given",
          s->target->loc);
  }

  bool parallel = blocks.back() == &kernel.root && !serialize;
  std::vector<KVal> idx;
  Stmt* k = nullptr;
  Stmt* loop = over_field ? open_field_loop(*this, *over_field, parallel, loc, idx, k)
                          : open_index_loop(*this, dims, parallel, loc, idx, k);
  if (parallel) loop->rare_mut().block_dim = block_dim;
  frame().loops.push_back({loop, parallel});
  push_scope();
  if (grouped) {  // I is an integer vector, as in Taichi (x[I], I.sum(), I * 2 all work)
    Binding b;
    b.kind = Binding::Kind::value;
    std::vector<Stmt*> e;
    for (auto& k : idx) e.push_back(k.v);
    if (e.empty()) {  // no indices: I is (), and x[I] is x[None]
      b.kind = Binding::Kind::static_;
      b.s.kind = StaticValue::Kind::tuple;
    } else {
      b.stmt = make_tensor(e, (int)e.size(), 0, loc);
    }
    b.what = "loop variable";
    bind(names[0], std::move(b));
  } else {
    for (size_t i = 0; i < names.size(); i++) {
      Binding b;
      b.kind = Binding::Kind::value;
      b.stmt = idx[i].v;
      b.what = "loop variable";
      bind(names[i], std::move(b));
    }
  }
  Stmt* outer_rng = rng_index;
  if (parallel) rng_index = k;
  lower_body(s->body);
  rng_index = outer_rng;
  pop_scope();
  frame().loops.pop_back();
  pop_block();
}

}  // namespace kiln::frontend

namespace kiln::frontend {

// x.fill(v) in a kernel: every element of every component field of `f` gets
// v (a scalar for all components, or a vector/matrix matching them), by one
// loop over the elements, parallel at the kernel's top level as Taichi's.
void Lowerer::fill_field(const StaticValue& f, const KVal& v, SourceLoc loc) {
  std::vector<StaticValue> comps;
  std::function<void(const StaticValue&)> collect = [&](const StaticValue& s) {
    if (s.kind == StaticValue::Kind::field) comps.push_back(s);
    else if (s.kind == StaticValue::Kind::matrix_field)
      for (size_t k = 0; k < s.fields.size(); k++) comps.push_back(component_field(s, (int)k));
    else if (s.kind == StaticValue::Kind::struct_field)
      for (auto& m : s.elems) collect(m);
  };
  collect(f);
  if (comps.empty()) raise("TypeError", "fill() needs a field", loc);
  Stmt* val = value_of(v, loc);
  int n = val->type.rows ? val->type.rows * std::max<int>(1, val->type.cols) : 1;
  if (n != 1 && n != (int)comps.size())
    raise("TypeError", "fill() of " + describe_static(f) + " takes a scalar or a value of its element's shape", loc);
  KVal index;
  index.kind = KVal::Kind::tuple;
  Stmt* k = nullptr;
  open_field_loop(*this, *comps[0].field, blocks.back() == &kernel.root, loc, index.elems, k);
  for (size_t c = 0; c < comps.size(); c++) {
    Stmt* ptr = global_ptr_at(comps[c], index, loc);
    Stmt* x = n == 1 ? val : element(val, (int)c, loc);
    emit_store(ptr, convert_for_store(x, ptr->type.prim, "an element of " + describe_static(f), loc), loc);
  }
  pop_block();
}

}  // namespace kiln::frontend
