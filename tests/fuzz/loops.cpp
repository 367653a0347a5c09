// Contiguous-loop kernels (see loops.h). What keeps their output defined:
//  - every index is i + c with a constant c (or i * k + c, i // k + c,
//    i % k + c, (i & k) + c), and the loop's range is chosen after the body
//    so that each access stays inside its field (or, in a program run with
//    debug=True, leaves it only in the loop's last iterations);
//  - a parallel loop (range-for, struct-for) writes each field at one offset
//    and reads a field it writes only at that offset, so iterations touch
//    disjoint elements; loop-carried dependences (x[i + 1] = x[i] ...) occur
//    only in serialized loops and in serial loops nested in a parallel one,
//    whose iterations cover chunks separated by more than the offsets' span;
//  - folds: i32 `s += e`, `s *= e`, bitwise ones and max/min anywhere
//    (each commutes, wrapping), f32 sums and max/min only in serialized
//    loops (a sum's order is fixed there);
//  - float -> int casts clamp to [-1e6, 1e6] first; integer // and % divide by
//    literals other than 0 and -1; shift counts are masked.
#include "tests/fuzz/loops.h"

#include <algorithm>
#include <climits>
#include <cstdio>

namespace kiln::fuzz {

namespace {

enum Fld { XA, XB, XI, XJ, YA, YI, ZA, ZI, kFlds };
const char* kName[kFlds] = {"xa", "xb", "xi", "xj", "ya", "yi", "za", "zi"};
bool fld_int(int f) { return f == XI || f == XJ || f == YI || f == ZI; }
bool flat(int f) { return f < ZA; }

std::string plus(const char* v, int c) {
  return c == 0 ? v : c > 0 ? v + (" + " + std::to_string(c)) : v + (" - " + std::to_string(-c));
}

struct LoopGen {
  std::mt19937_64& rng;
  int& counter;
  const LoopFields& lf;
  char kind = 'P';  // 'P' parallel range-for, 'S' serialized range-for, 'N' serial
                    // range-for in a parallel loop, 'F' struct-for over field `over`,
                    // 'D' 2-D ndrange or its rows as planes of a 3-D one (parallel, or
                    // serialized when deps), 'G' struct-for over za
  int over = XA;
  bool deps = false;   // a written field may be read (and written) at other offsets
  bool pure = false;   // only operations the JIT's vector loops handle
  bool oob_offset = false;  // F: one read still to be placed past its field's end
  int wo[kFlds];       // the write offset of each written field (INT_MIN: not written)
  int woa[kFlds];      // and its row offset (za, zi)
  char wform[kFlds];   // and its index form: '+' (i + c) or '*' (i * k + c)
  int wk[kFlds];
  // The counter values all accesses so far allow; a range-for may start
  // below 0 when every index adds enough (x[i + 3] from i = -3).
  long need_lo = -4, need_hi = LONG_MAX;
  int amin[kFlds], amax[kFlds];  // the row offsets of za[i + a, j + c], zi
  bool isum = false, fsum = false;
  int stores = 0;
  // One kind of update per kernel (mixed ones are atomics): '+', '-', '*',
  // '&', '|', '^' (s op= e), 'M'/'m' (max/min; sf: f32 max/min); the JIT
  // folds each in vector lanes (jit/vector.h, VecPlan::Fold).
  char fold = '+', ffold = '+';
  bool s64 = false;  // s is an i64 summing i32 terms (only where the body never reads s)
  std::vector<std::pair<std::string, bool>> temps;  // locals of the body: name, is i32

  LoopGen(std::mt19937_64& g, int& c, const LoopFields& l) : rng(g), counter(c), lf(l) {
    for (int f = 0; f < kFlds; f++)
      wo[f] = INT_MIN, woa[f] = 0, wform[f] = '+', wk[f] = 1, amin[f] = INT_MAX, amax[f] = INT_MIN;
  }

  int r(int n) { return (int)(rng() % (uint64_t)n); }
  bool p(int percent) { return r(100) < percent; }
  std::string fresh(const char* prefix) { return "v" + (prefix + std::to_string(counter++)); }
  bool two_d() const { return kind == 'D' || kind == 'G'; }
  int size(int f) const { return f >= ZA ? lf.C : f >= YA ? lf.L2 : lf.L; }  // along the counter

  // The offsets field f may be accessed at (lo > hi: none). A range-for's
  // bounds are fitted to the offsets afterwards; a struct-for's are fixed.
  // In 2-D loops the 1-D fields are indexed by the column j.
  std::pair<int, int> allowed(int f) const {
    if (!flat(f) && !two_d()) return {0, -1};
    if (kind == 'F') return {0, std::min(4, size(f) - size(over))};
    if (kind == 'G') return {0, std::min(4, size(f) - lf.C)};
    if (kind == 'D') return {-std::min(3, lf.C / 3), std::min(4, lf.C / 3)};  // rows of 5 too
    return {-3, 4};
  }
  int pick_row() { return kind == 'D' && p(40) ? r(3) - 1 : 0; }
  const char* counter_var() { return two_d() && p(60) ? "j" : "i"; }
  bool accessible(int f) const { return allowed(f).first <= allowed(f).second; }
  int pick_offset(int f) {
    auto [a, b] = allowed(f);
    if (p(35) && a <= 0 && 0 <= b) return 0;
    return a + r(b - a + 1);
  }
  // [lo, hi): counter values for which an index of `form` stays inside n
  // elements (all of them for '+'; the others start at 0 or later, which is
  // all the generator needs). Each is an interval: the forms are monotone in
  // the counter ('+', '*', '/') or bounded whatever it is ('%', '&').
  static std::pair<long, long> valid(char form, int k, int c, long n) {
    switch (form) {
      case '*': return {c < 0 ? (-c + k - 1) / k : 0, n - 1 - c < 0 ? 0 : (n - 1 - c) / k + 1};
      case '/': return {c < 0 ? (long)-c * k : 0, n - c <= 0 ? 0 : (long)k * (n - c)};
      case '%': return {0, c >= 0 && k - 1 + c <= n - 1 ? LONG_MAX : 0};
      case '&': return {0, c >= 0 && k + c <= n - 1 ? LONG_MAX : 0};
      default: return {-c, n - c};
    }
  }
  static std::string ix_text(const char* v, char form, int k, int c) {
    std::string b = v;
    if (form == '*') b += " * " + std::to_string(k);
    if (form == '/') b += " // " + std::to_string(k);
    if (form == '%') b += " % " + std::to_string(k);
    if (form == '&') b = "(" + b + " & " + std::to_string(k) + ")";
    return plus(b.c_str(), c);
  }
  std::string at(int f, int c, int a = 0, char form = '+', int k = 1) {
    auto [lo, hi] = valid(form, k, c, size(f));
    need_lo = std::max(need_lo, lo);
    need_hi = std::min(need_hi, hi);
    if (flat(f)) return std::string(kName[f]) + "[" + ix_text(two_d() ? "j" : "i", form, k, c) + "]";
    amin[f] = std::min(amin[f], a);
    amax[f] = std::max(amax[f], a);
    return std::string(kName[f]) + "[" + plus("i", a) + ", " + plus("j", c) + "]";
  }
  // A read through a strided, divided, wrapped or masked counter (what the
  // JIT's bounds hoisting handles besides i + c; such loops stay scalar).
  // Falls back to i + c where the form would leave the field.
  std::string form_read(int f) {
    static const char forms[] = "*/%&";
    static const int mods[] = {3, 7, 16};
    char form = forms[r(4)];
    int k = form == '*' ? 2 + r(2) : form == '/' ? 2 + r(3) : form == '%' ? mods[r(3)] : p(50) ? 7 : 15;
    int c = form == '%' || form == '&' ? r(4) : pick_offset(f);
    auto [lo, hi] = valid(form, k, c, size(f));
    long dom = kind == 'F' ? size(over) : kind == 'G' ? lf.C : -1;  // a struct-for's fixed range
    bool ok = dom >= 0 ? lo == 0 && hi >= dom : std::max(lo, need_lo) < std::min(hi, need_hi);
    return ok ? at(f, c, 0, form, k) : at(f, pick_offset(f), pick_row());
  }
  std::string read_ref(int f) {
    if (wo[f] != INT_MIN && !deps) return at(f, wo[f], woa[f], wform[f], wk[f]);
    if (flat(f) && (wo[f] == INT_MIN || (deps && kind != 'N')) && p(15)) return form_read(f);
    if (oob_offset) {  // leaves the field in the last iteration or two
      oob_offset = false;
      return at(f, allowed(f).second + 1 + r(2));
    }
    if (wo[f] != INT_MIN && p(50)) {  // a dependence on a nearby element that the loop writes
      auto [a, b] = allowed(f);
      return at(f, std::clamp(wo[f] + (p(50) ? 1 : -1) * (1 + r(2)), a, b), pick_row());
    }
    return at(f, pick_offset(f), pick_row());
  }
  std::string write_ref(int f) {
    if (deps && p(20)) return at(f, pick_offset(f), pick_row());
    return at(f, wo[f], woa[f], wform[f], wk[f]);
  }
  int field_of(bool want_int) {
    std::vector<int> fs;
    for (int f = 0; f < kFlds; f++)
      if (fld_int(f) == want_int && accessible(f)) fs.push_back(f);
    return fs.empty() ? -1 : fs[(size_t)r((int)fs.size())];
  }

  // ---- expressions ----------------------------------------------------------
  Node flit() {
    char buf[32];
    double v = (r(401) - 200) / 8.0;
    if (v == 0) v = 0.5;  // (two literals fold in Python on the host: x / 0.0 raises at compile time)
    std::snprintf(buf, sizeof buf, v < 0 ? "(%.3f)" : "%.3f", v);
    return expr(Ty::f32, buf);
  }
  Node ilit() {
    bool big = p(10);
    int v = big ? 65537 * (1 + r(3000)) : r(41) - 20;
    // Two literals combine as Python ints (Taichi folds them on the host): a
    // large one is an i32 value, so that products and shifts of it wrap.
    if (big) return expr(Ty::i32, "ti.i32(" + std::to_string(v) + ")");
    return expr(Ty::i32, v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v));
  }
  Node temp_or(bool is_int, Node other) {
    std::vector<const std::string*> ts;
    for (auto& t : temps)
      if (t.second == is_int) ts.push_back(&t.first);
    if (ts.empty()) return other;
    return expr(is_int ? Ty::i32 : Ty::f32, *ts[(size_t)r((int)ts.size())]);
  }
  Node read(bool is_int) {
    int f = field_of(is_int);
    if (f < 0) return is_int ? expr(Ty::i32, counter_var()) : flit();
    return expr(is_int ? Ty::i32 : Ty::f32, read_ref(f));
  }
  Node fleaf() {
    if (fsum && p(6)) return expr(Ty::f32, "sf");
    int roll = r(100);
    if (roll < 45) return read(false);
    if (roll < 60) return temp_or(false, read(false));
    if (roll < 72) return expr(Ty::f32, std::string("ti.cast(") + counter_var() + ", ti.f32)");
    if (roll < 80) return expr(Ty::f32, "ti.cast($0, ti.f32)", {read(true)});
    return flit();
  }
  // A serialized loop may also read its sums (then they are no plain
  // reductions: the JIT must keep such a loop scalar).
  bool serialized() const { return deps && kind != 'N'; }
  Node ileaf() {
    if (isum && serialized() && p(6)) return expr(Ty::i32, "s");
    int roll = r(100);
    if (roll < 45) return read(true);
    if (roll < 60) return temp_or(true, read(true));
    if (roll < 78) return expr(Ty::i32, counter_var());
    return ilit();
  }
  Node cmp(int d) {
    if (d > 1 && p(15)) {  // Python's logic on compares (the JIT's lanes: lnot, sel of 0/1)
      int k = r(3);
      if (k == 0) return expr(Ty::i32, "(not $0)", {cmp(d - 1)});
      return expr(Ty::i32, std::string("($0 ") + (k == 1 ? "or" : "and") + " $1)", {cmp(d - 1), cmp(d - 1)});
    }
    static const char* ops[] = {"<", "<=", ">", ">=", "==", "!="};
    bool is_int = p(40);
    return expr(Ty::i32, std::string("($0 ") + ops[r(6)] + " $1)", {gen(is_int, d - 1), gen(is_int, d - 1)});
  }
  Node gen(bool is_int, int d) { return is_int ? iexp(d) : fexp(d); }

  Node fexp(int d) {
    if (d <= 0 || p(20)) return fleaf();
    const Ty t = Ty::f32;
    if (pure || p(70)) {  // what vector loops compute
      switch (r(6)) {
        case 0: case 1: return expr(t, std::string("($0 ") + "+-*/"[r(4)] + " $1)", {fexp(d - 1), fexp(d - 1)});
        case 2: return expr(t, p(50) ? "(-$0)" : "ti.abs($0)", {fexp(d - 1)});
        case 3: return expr(t, p(70) ? "ti.sqrt(ti.abs($0))" : "ti.sqrt($0)", {fexp(d - 1)});
        case 4: return expr(t, "ti.cast($0, ti.f32)", {iexp(d - 1)});
        default: return fleaf();
      }
    }
    switch (r(7)) {  // and what they do not
      case 0: return expr(t, p(50) ? "ti.min($0, $1)" : "ti.max($0, $1)", {fexp(d - 1), fexp(d - 1)});
      case 1: return expr(t, p(50) ? "ti.select($0, $1, $2)" : "($1 if $0 else $2)", {cmp(d - 1), fexp(d - 1), fexp(d - 1)});
      case 2: return expr(t, "ti.cast($0, ti.f32)", {cmp(d - 1)});
      case 3: return expr(t, "ti.cast(ti.cast($0, ti.f64) * ti.f64(1.0000001), ti.f32)", {fexp(d - 1)});
      case 4: return expr(t, "ti.cast(ti.cast(ti.min(ti.max($0, -1e6), 1e6), ti.i64), ti.f32)", {fexp(d - 1)});
      case 5: return expr(t, "ti.floor($0)", {fexp(d - 1)});
      default: return expr(t, "ti.cast(ti.cast($0, ti.f64) + ti.cast($1, ti.f64), ti.f32)", {fexp(d - 1), fexp(d - 1)});
    }
  }

  Node iexp(int d) {
    if (d <= 0 || p(20)) return ileaf();
    const Ty t = Ty::i32;
    if (pure || p(70)) {
      switch (r(6)) {
        case 0: case 1: return expr(t, std::string("($0 ") + "+-*"[r(3)] + " $1)", {iexp(d - 1), iexp(d - 1)});
        case 2: return expr(t, std::string("($0 ") + "&|^"[r(3)] + " $1)", {iexp(d - 1), iexp(d - 1)});
        case 3: return expr(t, p(50) ? "(-$0)" : "ti.abs($0)", {iexp(d - 1)});
        default: return ileaf();
      }
    }
    switch (r(7)) {
      case 0: {
        static const char* divs[] = {"2", "3", "7", "8", "(-5)", "1000"};
        return expr(t, std::string(p(50) ? "($0 // " : "($0 % ") + divs[r(6)] + ")", {iexp(d - 1)});
      }
      case 1: return expr(t, p(50) ? "ti.min($0, $1)" : "ti.max($0, $1)", {iexp(d - 1), iexp(d - 1)});
      case 2: return expr(t, p(50) ? "ti.select($0, $1, $2)" : "($1 if $0 else $2)", {cmp(d - 1), iexp(d - 1), iexp(d - 1)});
      case 3: return cmp(d);
      case 4: return expr(t, p(50) ? "($0 << ($1 & 15))" : "($0 >> ($1 & 15))", {iexp(d - 1), iexp(d - 1)});
      case 5: return expr(t, "ti.cast(ti.min(ti.max($0, -1e6), 1e6), ti.i32)", {fexp(d - 1)});
      default: return expr(t, "ti.cast(ti.cast($0, ti.i64) * ti.i64(100003), ti.i32)", {iexp(d - 1)});
    }
  }

  // An update of the kernel's fold v: in a parallel loop an atomic (the
  // loop's chunks fold their own: make_thread_local), serialized also as
  // v = v op e or with the running value second in max/min.
  Node fold_stmt(const std::string& v, char op, Node e) {
    if (op == 'M' || op == 'm') {
      std::string f = op == 'M' ? "max" : "min";
      if (!serialized()) return stmt("ti.atomic_" + f + "(" + v + ", $0)", {e});
      return stmt(p(50) ? v + " = ti." + f + "(" + v + ", $0)" : v + " = ti." + f + "($0, " + v + ")", {e});
    }
    if (op == '*' && !serialized()) return stmt("ti.atomic_mul(" + v + ", $0)", {e});  // (`*=` on it would race)
    if (serialized() && p(15)) return stmt(v + " = " + v + " " + op + " ($0)", {e});
    return stmt(v + " " + op + "= $0", {e});
  }

  // ---- the loop body ----------------------------------------------------------
  Node store() {
    std::vector<int> ws;
    for (int f = 0; f < kFlds; f++)
      if (wo[f] != INT_MIN) ws.push_back(f);
    int f = ws[(size_t)r((int)ws.size())];
    // (x[i] op= e is an atomic, which keeps the JIT's loop scalar: not too often)
    static const char* aug[] = {" += ", " -= ", " *= "};
    Node e = gen(fld_int(f), 1 + r(3));  // generated before the target: reads come first
    stores++;
    return stmt(write_ref(f) + (p(88) ? " = " : aug[r(3)]) + "$0", {e});
  }

  Node body_stmt(int depth) {
    int roll = r(100);
    if (roll < 40) return store();
    if (roll < 60 && (isum || fsum)) {
      if (isum && (!fsum || p(50))) return fold_stmt("s", fold, iexp(1 + r(3)));
      return fold_stmt("sf", ffold, fexp(1 + r(3)));
    }
    if (roll < 80) {  // a local of the body
      bool is_int = p(40);
      std::string v = fresh("t");
      Node e = gen(is_int, 1 + r(3));
      temps.push_back({v, is_int});
      return stmt(v + " = $0", {e});
    }
    if (roll < 90 && depth > 0) {  // a branch: the loop stays scalar
      Node c = cmp(2);
      size_t n = temps.size();
      std::vector<Node> ss;
      for (int k = 1 + r(2); k > 0; k--) ss.push_back(body_stmt(depth - 1));
      temps.resize(n);
      return stmt("if $0:\n$B1", {c, block(std::move(ss))});
    }
    return store();
  }

  // An early exit at the body's start, under a condition on the data: a guard
  // the JIT's vector loops test for a chunk's lanes at once (jit/vector.h).
  // `break` only where the loop runs in order (serialized, or serial in a
  // parallel one).
  Node early_exit() {
    bool brk = (kind == 'S' || kind == 'N') && p(50);
    return stmt(std::string("if $0:\n    ") + (brk ? "break" : "continue"), {cmp(2)});
  }

  // ---- bounds -----------------------------------------------------------------
  // The loop counter's range that keeps every access of the body in bounds.
  std::pair<int, int> fit() const { return {(int)need_lo, (int)std::min(need_hi, (long)lf.L)}; }
  std::pair<int, int> fit_rows() const {
    int lo = 0, hi = lf.R;
    for (int f = ZA; f < kFlds; f++) {
      if (amin[f] > amax[f]) continue;
      lo = std::max(lo, -amin[f]);
      hi = std::min(hi, lf.R - amax[f]);
    }
    return {lo, hi};
  }
  // One (lo, hi) for a range-for: a short loop (0..20 iterations), a long
  // one, or with `oob` one that runs a step or two past `hi_max`.
  std::pair<int, int> pick_range(int lo_min, int hi_max, bool oob) {
    if (hi_max < lo_min) return {lo_min, lo_min};  // no counter value keeps all in bounds
    int lo = lo_min + (p(60) ? 0 : r(4));
    if (oob) {
      int hi = hi_max + 1 + r(2);
      return {std::max(lo_min, hi - 1 - (p(50) ? r(20) : r(hi - lo_min))), hi};
    }
    lo = std::min(lo, hi_max);
    if (p(3)) return {lo, std::max(0, lo - 1 - r(3))};  // empty: hi < lo
    if (p(45)) return {lo, std::min(hi_max, lo + r(21))};
    if (p(30)) return {lo, lo + r(hi_max - lo + 1)};
    return {lo, std::max(lo, hi_max - r(3))};
  }
};

}  // namespace

LoopFields choose_loop_fields(std::mt19937_64& rng) {
  static const int sizes[] = {13, 37, 100, 257, 1000};
  LoopFields lf;
  int k = (int)(rng() % 5);
  lf.L = sizes[k] + (k == 4 ? 1 + (int)(rng() % 40) : 0);
  if (lf.L % 8 == 0) lf.L++;
  lf.L2 = lf.L - 1 - (int)(rng() % 5);
  lf.oob = rng() % 100 < 10;
  static const int cols[] = {5, 13, 37, 100, 203};
  lf.R = 1 + (int)(rng() % 6);
  lf.C = std::min(cols[rng() % 5], lf.L2 - 4);
  return lf;
}

std::string loop_fields_decl(const LoopFields& lf, std::mt19937_64& rng) {
  int a = 1 + (int)(rng() % 97), b = (int)(rng() % 100), c = 1 + (int)(rng() % 31);
  // Layouts: mostly one array per field; sometimes two fields interleaved
  // (place(a, b): element stride 8 bytes, so not contiguous) or za stored
  // column by column, which a vector loop must tell from contiguous rows, or
  // in pairs of rows (blocked: struct-fors over it run in its layout order).
  static const char* xdecl[] = {
      "xa = ti.field(ti.f32, shape=L)\nxb = ti.field(ti.f32, shape=L)\n"
      "xi = ti.field(ti.i32, shape=L)\nxj = ti.field(ti.i32, shape=L)\n",
      "xa = ti.field(ti.f32)\nxb = ti.field(ti.f32)\nxi = ti.field(ti.i32)\nxj = ti.field(ti.i32)\n"
      "ti.root.dense(ti.i, L).place(xa, xb)\nti.root.dense(ti.i, L).place(xi, xj)\n",
      "xa = ti.field(ti.f32)\nxb = ti.field(ti.f32)\nxi = ti.field(ti.i32)\nxj = ti.field(ti.i32)\n"
      "ti.root.dense(ti.i, L).place(xa, xi)\nti.root.dense(ti.i, L).place(xb, xj)\n"};
  static const char* zdecl[] = {
      "za = ti.field(ti.f32, shape=(R, C))\nzi = ti.field(ti.i32, shape=(R, C))\n",
      "za = ti.field(ti.f32)\nzi = ti.field(ti.i32)\nti.root.dense(ti.ij, (R, C)).place(za, zi)\n",
      "za = ti.field(ti.f32)\nzi = ti.field(ti.i32)\nti.root.dense(ti.j, C).dense(ti.i, R).place(za)\n"
      "ti.root.dense(ti.ij, (R, C)).place(zi)\n",
      // rows in pairs, a pair's two cells side by side: a struct-for visits
      // (0, 0) (1, 0) (0, 1) (1, 1) ..., the layout's order
      "za = ti.field(ti.f32)\nzi = ti.field(ti.i32)\nti.root.dense(ti.ij, (R // 2, C)).dense(ti.i, 2).place(za, zi)\n"};
  int xl = rng() % 100 < 75 ? 0 : 1 + (int)(rng() % 2), zl = rng() % 100 < 70 ? 0 : 1 + (int)(rng() % 2);
  if (zl == 2 && lf.R % 2 == 0 && a % 2) zl = 3;  // (no draw of its own: the other seeds' programs stay)
  char buf[2048];
  std::snprintf(buf, sizeof buf,
                "L = %d\nL2 = %d\n%s"
                "ya = ti.field(ti.f32, shape=L2)\nyi = ti.field(ti.i32, shape=L2)\n"
                "R = %d\nC = %d\n%s\n"
                "@ti.kernel\ndef vinit():\n    for q in range(L):\n"
                "        xa[q] = ti.cast((q * %d + %d) %% 29, ti.f32) * 0.25 - 3.0\n"
                "        xb[q] = ti.cast((q * %d) %% 13, ti.f32) * 0.5 - 1.5\n"
                "        xi[q] = (q * %d + %d) %% 201 - 100\n"
                "        xj[q] = (q * %d + %d) %% 1001 - 500\n"
                "    for q in range(L2):\n"
                "        ya[q] = ti.cast(q %% 7, ti.f32) * 1.25 - 4.0\n"
                "        yi[q] = (q * %d) %% 61 - 30\n"
                "    for q, r in ti.ndrange(R, C):\n"
                "        za[q, r] = ti.cast((q * 7 + r * %d) %% 23, ti.f32) * 0.5 - 5.0\n"
                "        zi[q, r] = (q * 31 + r * %d) %% 101 - 50",
                lf.L, lf.L2, xdecl[xl], lf.R, lf.C, zdecl[zl], a, b, c, a, b, c, a + b, a + c, b + 1, c);
  return buf;
}

std::string loop_fields_print() {
  std::string s;
  for (int f = 0; f < ZA; f++)
    s += std::string(s.empty() ? "" : "\n") + "print('" + kName[f] + "', [" + kName[f] + "[q] for q in range(" +
         (f >= YA ? "L2" : "L") + ")])";
  return s + "\nfor q in range(R):\n    print('za', q, [za[q, r] for r in range(C)])\n"
             "    print('zi', q, [zi[q, r] for r in range(C)])";
}

void gen_loop_kernel(std::mt19937_64& rng, int& counter, const LoopFields& lf, std::vector<Node>& defs,
                     std::vector<Node>& calls) {
  LoopGen g(rng, counter, lf);
  std::string name = g.fresh("k");
  int roll = g.r(100);
  g.kind = roll < 25 ? 'P' : roll < 50 ? 'S' : roll < 62 ? 'N' : roll < 80 ? 'F' : roll < 92 ? 'D' : 'G';
  bool serial2 = g.kind == 'D' && g.p(40);
  g.deps = g.kind == 'S' || g.kind == 'N' || serial2;
  g.pure = g.p(40);
  bool oob = lf.oob && g.p(50);
  if (g.kind == 'F' || g.kind == 'G') g.oob_offset = oob;
  if (g.kind == 'F') g.over = g.r(YI + 1);
  if (g.two_d()) g.over = g.p(50) ? ZA : ZI;
  for (int n = 1 + g.r(2), tries = 0; n > 0 && tries < 20; tries++) {  // the written fields
    int f = g.r(kFlds);
    if (!g.accessible(f) || g.wo[f] != INT_MIN) continue;
    if (g.two_d() && flat(f) && !g.deps) continue;  // every row would write it
    g.wo[f] = g.pick_offset(f);
    g.woa[f] = g.pick_row();
    if ((g.kind == 'P' || g.kind == 'S') && g.p(15)) g.wform[f] = '*', g.wk[f] = 2 + g.r(2);  // x[i * k + c]
    n--;
  }
  if (std::all_of(g.wo, g.wo + kFlds, [](int c) { return c == INT_MIN; }))
    g.wo[g.over] = g.pick_offset(g.over);  // `over` is always accessible
  if ((g.kind == 'S' || serial2) && g.p(30)) g.fsum = true;
  else g.isum = g.p(55);
  if (g.p(40)) g.fold = "-*&|^Mm"[g.r(7)];
  if (g.p(30)) g.ffold = "Mm"[g.r(2)];
  g.s64 = (g.fold == '+' || g.fold == '-') && !g.serialized() && g.p(30);

  std::vector<Node> ss;
  if (g.p(25)) ss.push_back(g.early_exit());
  for (int k = 1 + g.r(4); k > 0; k--) ss.push_back(g.body_stmt(1));
  if (!g.stores) ss.push_back(g.store());  // every loop writes something
  Node body = block(std::move(ss));

  auto [lo_min, hi_max] = g.fit();
  std::string head, params;
  std::vector<std::string> args;  // one argument list per call
  int ncalls = 1 + g.r(3);  // (with arguments, each call its own range)
  if (g.kind == 'F' || g.kind == 'G') {
    head = std::string(g.kind == 'G' ? "for i, j in " : "for i in ") + kName[g.over] + ":\n$B0";
  } else if (g.kind == 'D') {
    auto [jlo, jhi] = g.pick_range(lo_min, hi_max, oob);
    auto [rlo, rhi] = g.fit_rows();
    if (rhi - rlo > 2 && g.p(40)) rlo += g.r(2), rhi -= g.r(2);
    char buf[192];
    std::snprintf(buf, sizeof buf, "for i, j in ti.ndrange((%d, %d), (%d, %d)):\n$B0", rlo, rhi, jlo, jhi);
    // Or the rows as H planes of P rows, S apart (a 3-D ndrange: the JIT's
    // planes of rows, jit/vector.h), where the rows hold two planes or more.
    if (int n = rhi - rlo; n >= 2 && g.p(35)) {
      int P = 1 + g.r(n / 2), S = P + g.r(n - 2 * P + 1);
      int H = 2 + g.r((n - P) / S);
      std::snprintf(buf, sizeof buf, "for h, ii, j in ti.ndrange(%d, (%d, %d), (%d, %d)):\n    i = ii + h * %d\n$B0", H,
                    rlo, rlo + P, jlo, jhi, S);
      // Or G volumes of H2 planes of P2 rows, T apart (a 4-D ndrange: volumes
      // of planes), where the rows hold two volumes or more.
      if (n >= 4 && g.p(40)) {
        P = 1 + g.r(n / 4), S = P + g.r(n / 2 - 2 * P + 1), H = 2 + g.r((n / 2 - P) / S);
        int E = P + (H - 1) * S, T = E + g.r(n - 2 * E + 1), G = 2 + g.r((n - E) / T);
        std::snprintf(buf, sizeof buf,
                      "for gg, h, ii, j in ti.ndrange(%d, %d, (%d, %d), (%d, %d)):\n    i = ii + h * %d + gg * %d\n$B0", G, H,
                      rlo, rlo + P, jlo, jhi, S, T);
      }
    }
    head = (serial2 ? "ti.loop_config(serialize=True)\n" : "") + std::string(buf);
  } else if (g.kind == 'N') {
    int P = 1 + g.r(3), gap = 8 + g.r(4);
    int room = hi_max - lo_min - (P - 1) * gap;
    int n = g.p(50) ? g.r(21) : g.r(std::max(1, room / P + 1));
    while (P > 1 && lo_min + (P - 1) * (n + gap) + n > hi_max) P--;
    n = std::min(n, hi_max - lo_min);
    int lo = lo_min;
    if (oob) lo = std::max(lo_min, hi_max + 1 + g.r(2) - (P - 1) * (n + gap) - n);
    else if (lo + (P - 1) * (n + gap) + n + 2 <= hi_max && g.p(50)) lo += g.r(3);
    std::string a = std::to_string(lo) + " + kk * " + std::to_string(n + gap);
    head = "for kk in range(" + std::to_string(P) + "):\n    for i in range(" + a + ", " + a + " + " +
           std::to_string(n) + "):\n    $B0";
  } else {
    bool use_args = g.p(40);
    std::string loop = "for i in range(lo, hi):\n$B0";
    if (use_args) {
      params = "lo: ti.i32, hi: ti.i32";
      for (int c = 0; c < ncalls; c++) {
        auto [lo, hi] = g.pick_range(lo_min, hi_max, oob && c == ncalls - 1);
        args.push_back(std::to_string(lo) + ", " + std::to_string(hi));
      }
    } else {
      auto [lo, hi] = g.pick_range(lo_min, hi_max, oob);
      loop = "for i in range(" + std::to_string(lo) + ", " + std::to_string(hi) + "):\n$B0";
    }
    if (g.kind == 'S') {
      if (g.p(25))  // the vector loop is the inner loop of a serial one
        loop = "for rep in range(" + std::to_string(2 + g.r(2)) + "):\n    " +
               loop.substr(0, loop.find('\n')) + "\n    $B0";
      loop = "ti.loop_config(serialize=True)\n" + loop;
    }
    head = loop;
  }
  if (args.empty()) args.assign((size_t)ncalls, "");

  std::vector<Node> kb;
  std::string ret;
  if (g.isum && g.s64) kb.push_back(stmt("s = ti.i64(0)", {}, false)), ret = "ti.i64";
  else if (g.isum) kb.push_back(stmt(g.fold == '*' ? "s = 1" : g.fold == '&' ? "s = -1" : "s = 0", {}, false)), ret = "ti.i32";
  if (g.fsum) kb.push_back(stmt("sf = 0.0", {}, false)), ret = "ti.f32";
  kb.push_back(stmt(head, {body}, false));
  if (!ret.empty()) kb.push_back(stmt(g.isum ? "return s" : "return sf", {}, false));
  defs.push_back(stmt("@ti.kernel\ndef " + name + "(" + params + ")" + (ret.empty() ? "" : " -> " + ret) + ":\n$B0",
                      {block(std::move(kb))}, false));
  for (auto& a : args) {
    std::string call = name + "(" + a + ")";
    calls.push_back(stmt(ret.empty() ? call : "print('" + name + "', " + call + ")"));
  }
}

}  // namespace kiln::fuzz
