// Accesses addressed by the loop's counter. A struct-for over a blocked dense
// field (ti.root.dense(ti.ij, 64).dense(ti.ij, 8)) counts L over its cells in
// layout order and makes each index a sum of digits of L (lower_for.cpp's
// open_layout_loop): i = L / 4096 * 8 + L / 8 % 8, j = L / 64 % 64 * 8 + L % 8.
// The field's address terms take those indices apart again (i / 8, i % 8,
// j / 8, j % 8, four divisions and remainders an element), though together
// they are base + L * 4: the loop walks memory in order. This pass composes
// the two: where each index of a global_ptr is a sum of digits of the task's
// L, ((L / r) % m) * c, and each of the access's terms takes whole digits (the
// digits under its divisor add up to less than it, those within its modulus
// to less than the modulus), the address is the sum of each digit times a
// weight. The access becomes one index, L, with a term per digit, and terms
// that continue each other merge: the loop's own cell and the other fields
// placed in it are L * cell size + offset, an affine address that the JIT's
// vector lanes and LLVM vectorize. The digits bound the indices, so an access
// they keep in bounds loses its check; any other (x[i + 1, j], a field of
// another shape) keeps its indices, check and messages.
//
// A digit that a term cuts is split first (split_at_terms): a layout that
// splits one axis over levels (ti.root.dense(ti.i, 4).dense(ti.i, 2)) is
// counted in row-major order by lower_for, i = L, and x[i] = i / 2 * 8 +
// i % 2 * 4 becomes L * 4. A rewrite stays only where it has fewer terms
// than the access had (a row-major count over a 2-D blocked field composes
// into as many terms of L as it had). Flat fields' accesses (a term per
// axis, row-major) are left alone: x[i, j] in an ndrange loop would merge
// too, but its two terms are the engines' well-trodden path and its listings
// stay as they were.
#include <algorithm>
#include <map>

#include "vm/ir/passes/passes.h"

namespace kiln::ir {

namespace {

// ((L / r) % m) * c, m 0 for none; its value (before * c) is below `bound`.
struct LDigit {
  int64_t r = 1, m = 0, bound = 0, c = 1;
};
// c0 + the sum of the digits.
struct LSum {
  int64_t c0 = 0;
  std::vector<LDigit> ds;
};

struct Parser {
  const Stmt* task;
  int64_t total;            // L runs over [0, total)
  const Stmt* L = nullptr;  // the task's loop index, as the access reached it
  int budget = 256;         // statements visited (an index is a DAG: no walk without end)

  bool parse(const Stmt* s, LSum& out, int depth) {
    if (depth > 24 || --budget < 0) return false;
    if (s->kind == StmtKind::loop_index) {
      if (s->loop != task || s->index != 0 || s->type != Type::scalar(Prim::i32)) return false;
      L = s;
      out = LSum{0, {LDigit{1, 0, total, 1}}};
      return true;
    }
    if (s->kind == StmtKind::const_) {
      if (s->type != Type::scalar(Prim::i32)) return false;
      out = LSum{s->value.i, {}};
      return true;
    }
    if (s->kind != StmtKind::binary || s->type != Type::scalar(Prim::i32)) return false;
    LSum a, b;
    if (!parse(s->ops[0], a, depth + 1) || !parse(s->ops[1], b, depth + 1)) return false;
    switch (s->bop) {
      case BinaryOp::add:
        a.c0 += b.c0;
        a.ds.insert(a.ds.end(), b.ds.begin(), b.ds.end());
        break;
      case BinaryOp::sub:
        if (!b.ds.empty()) return false;
        a.c0 -= b.c0;
        break;
      case BinaryOp::mul: {
        if (!a.ds.empty() && !b.ds.empty()) return false;
        if (a.ds.empty()) std::swap(a, b);
        if (b.c0 <= 0 || b.c0 > INT32_MAX) return false;
        a.c0 *= b.c0;
        for (LDigit& d : a.ds) d.c *= b.c0;
        break;
      }
      case BinaryOp::div:
      case BinaryOp::raw_mod:
      case BinaryOp::bit_shr:
      case BinaryOp::bit_and: {
        // Only of one digit by a constant: L >= 0, so C's division is floor's,
        // a shift by n a division by 2^n, a mask of 2^n - 1 a remainder.
        int64_t v = b.c0;
        if (!b.ds.empty() || a.c0 != 0 || a.ds.size() != 1 || a.ds[0].c != 1) return false;
        bool by_div = s->bop == BinaryOp::div || s->bop == BinaryOp::bit_shr;
        if (s->bop == BinaryOp::bit_shr) v = v >= 0 && v < 31 ? int64_t{1} << v : 0;
        if (s->bop == BinaryOp::bit_and) v = v >= 0 && v < INT32_MAX && (v & (v + 1)) == 0 ? v + 1 : 0;
        if (v <= 0) return false;
        LDigit& d = a.ds[0];
        if (by_div) {  // ((L / r) % m) / v = (L / (r v)) % (m / v) when v divides m
          if (d.m && d.m % v) return false;
          d.r *= v;
          d.m /= v;
          d.bound = (d.bound + v - 1) / v;
        } else {  // ((L / r) % m) % v = (L / r) % v when v divides m
          if (d.m && d.m % v) return false;
          d.m = v;
          d.bound = std::min(d.bound, v);
        }
        if (d.m == 1) a = LSum{};  // always 0 (an ndrange's axis of one)
        break;
      }
      default: return false;
    }
    out = std::move(a);
    return true;
  }
};

// A flat field: one term per axis, by decreasing stride in the axes' order.
bool flat(const Access& a) {
  std::vector<IndexTerm> ts = a.terms;
  std::stable_sort(ts.begin(), ts.end(), [](const IndexTerm& x, const IndexTerm& y) { return x.stride > y.stride; });
  for (size_t t = 1; t < ts.size(); t++)
    if (ts[t - 1].axis >= ts[t].axis) return false;
  return true;
}

// Splits a digit that a term's divisor or modulus cuts, where it can:
// (L / r) % m = (L / r) % q + q * ((L / (r q)) % (m / q)) when q divides m (or
// there is no m). A loop that counts an axis split over levels in order
// (x[i] over dense(ti.i, 4).dense(ti.i, 2): i = L, terms i / 2 and i % 2) then
// has a digit for each term.
// The cuts go smallest first: a digit's high part starts at its cut, so no
// smaller cut falls inside it.
void split_at_terms(LSum& sum, const Access& acc, int axis) {
  std::vector<int64_t> cuts;
  for (const IndexTerm& t : acc.terms)
    if (t.axis == axis) {
      cuts.push_back(t.div);
      if (t.mod) cuts.push_back(t.div * t.mod);
    }
  std::sort(cuts.begin(), cuts.end());
  for (int64_t cut : cuts) {
    if (cut <= 1) continue;
    for (size_t k = 0; k < sum.ds.size() && sum.ds.size() < 16; k++) {
      LDigit d = sum.ds[k];
      if (d.c >= cut || cut % d.c || d.c * (d.bound - 1) < cut) continue;  // not inside this digit
      int64_t q = cut / d.c;
      if (d.m && d.m % q) continue;
      LDigit hi{d.r * q, d.m ? d.m / q : 0, (d.bound + q - 1) / q, cut};
      sum.ds[k] = LDigit{d.r, q, std::min(d.bound, q), d.c};
      if (hi.m != 1) sum.ds.push_back(hi);
    }
  }
}

// The access's terms as terms of L, or false where a term does not take
// whole digits or the indices may leave the shape.
bool compose(Stmt* p, Parser& ps, std::vector<IndexTerm>& out) {
  const Access& acc = *p->access;
  std::map<std::pair<int64_t, int64_t>, int64_t> weight;  // digit (r, m) -> bytes per unit
  for (size_t a = 0; a < p->ops.size(); a++) {
    LSum sum;
    if (!ps.parse(p->ops[a], sum, 0) || sum.c0 != 0) return false;
    int64_t max = 0;
    for (const LDigit& d : sum.ds) max += (d.bound - 1) * d.c;
    if (max >= acc.shape[a]) return false;  // not proven in bounds: keep the check and its message
    split_at_terms(sum, acc, (int)a);
    for (const IndexTerm& t : acc.terms) {
      if (t.axis != (int)a) continue;
      int64_t low = 0, mid = 0;  // the largest sums below the divisor and within the modulus
      for (const LDigit& d : sum.ds) {
        if (d.c < t.div) {
          low += (d.bound - 1) * d.c;
        } else if (!t.mod || d.c < t.div * t.mod) {
          if (d.c % t.div) return false;
          mid += (d.bound - 1) * (d.c / t.div);
          weight[{d.r, d.m}] += d.c / t.div * t.stride;
        } else if (d.c % (t.div * t.mod)) {
          return false;
        }
      }
      if (low >= t.div || (t.mod && mid >= t.mod)) return false;
    }
  }
  out.clear();
  for (auto& [rm, w] : weight)
    if (w) out.push_back(IndexTerm{0, rm.first, rm.second, w});
  // (L / r) % m * s + (L / (r m)) % m2 * (s m) = (L / r) % (m m2) * s
  std::sort(out.begin(), out.end(), [](const IndexTerm& x, const IndexTerm& y) { return x.div < y.div; });
  std::vector<IndexTerm> merged;
  for (const IndexTerm& t : out) {
    if (!merged.empty()) {
      IndexTerm& b = merged.back();
      if (b.mod && t.div == b.div * b.mod && t.stride == b.stride * b.mod) {
        b.mod = t.mod ? b.mod * t.mod : 0;
        continue;
      }
    }
    merged.push_back(t);
  }
  // A modulus no value of L reaches is none.
  for (IndexTerm& t : merged)
    if (t.mod && t.div * t.mod >= ps.total) t.mod = 0;
  out = std::move(merged);
  return true;
}

bool rewrite_task(Stmt& task) {
  if (!task.rare().begin_const || !task.rare().end_const || task.begin != 0 || task.end <= 0 || task.end > INT32_MAX)
    return false;
  bool changed = false;
  walk(*task.body, [&](Stmt* s) {
    if (s->kind != StmtKind::global_ptr || s->ops.empty()) return;
    const Access& acc = *s->access;
    if (acc.ext_arg >= 0 || acc.sparse_place >= 0 || acc.shape.size() != s->ops.size() || flat(acc)) return;
    Parser ps{&task, task.end};
    std::vector<IndexTerm> terms;
    // Only where the address gets simpler: a row-major count over a blocked
    // field (ti.ndrange(512, 512)) composes too, into as many terms of L.
    if (!compose(s, ps, terms) || !ps.L || terms.size() >= acc.terms.size()) return;
    s->ops = {const_cast<Stmt*>(ps.L)};
    Access& a = *s->access;
    a.terms = std::move(terms);
    a.shape = {task.end};
    a.index_offset.clear();
    a.checked = false;
    changed = true;
  });
  return changed;
}

}  // namespace

bool layout_access(Kernel& k) {
  bool changed = false;
  for (auto& t : k.root.stmts)
    if (t->kind == StmtKind::offloaded && t->task == Task::range_for && t->body) changed |= rewrite_task(*t);
  return changed;
}

}  // namespace kiln::ir
