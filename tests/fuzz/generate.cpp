// The random program generator: well-typed Taichi-dialect kernels that real
// Taichi accepts and whose output is defined. What keeps them defined:
//  - integer // and % (and ti.raw_div/raw_mod) divide by a value that is
//    never 0 or -1 (a literal, or select(e % 16 < 8, e % 16 + 2, 5 - e % 16));
//    int overflow wraps (LANGUAGE.md), shift counts are masked to 0..15;
//  - float -> int casts clamp to [-1e6, 1e6] first;
//  - field indices are wrapped with % N (floor mod, so in range);
//  - parallel loops are race free: a field written in a parallel kernel is
//    read and written only in the iteration's own row, and the shared
//    accumulators (`acc[k]`, the 0-d field `tot`, a kernel's local `red`,
//    which nothing reads inside the loop) get one commutative integer atomic
//    per kernel: updates that make_thread_local turns into per-chunk sums;
//  - print only where iteration order is defined (serial code);
//  - loops have bounded trip counts (range bounds mod 6, while counters;
//    some while loops run up to 40 times and leave early through breaks).
// Some programs also get contiguous-loop kernels (loops.cpp), drawn from a
// second random stream, so that adding them (or changing them) leaves the
// rest of each seed's program as it was.
#include <cctype>
#include <cstdio>
#include <random>

#include "tests/fuzz/loops.h"
#include "tests/fuzz/program.h"

namespace kiln::fuzz {

namespace {

struct Var {
  std::string name;
  Ty ty;
  bool mut;
};

struct Func {
  std::string name;
  std::vector<Ty> params;
  Ty ret;
};

// The fields every program declares; index 0..4 matches Ty (acc is separate).
const char* kField[kTyCount] = {"fa", "fc", "fb", "fd", "fv"};

struct Gen {
  std::mt19937_64 rng;
  int counter = 0;
  std::vector<std::vector<Var>> scopes;
  std::vector<Func> funcs;
  bool in_func = false;
  int par = 0;               // 0 serial code, 1 parallel over i, 2 parallel over (i, jj)
  unsigned writable = 0;     // fields (bit per Ty) a parallel kernel may write
  std::string par_atomic;    // the one atomic op of a parallel kernel
  bool par_red = false;      // the parallel kernel has a local `red` it returns
  std::vector<char> loops;   // enclosing loops: 'P' parallel, 'S' serialized, 'I' inner
  int budget = 0;            // statements left in this kernel
  int no_field = 0;          // > 0: generating an index, no field reads
  bool plain = false;        // generating a kernel with no top-level for

  std::mt19937_64 lrng;      // everything about contiguous-loop kernels
  int lcounter = 0;          // their fresh names

  // Early exits (issue 16): some bounded while loops run longer and leave
  // through data-dependent breaks. Drawn from a stream of their own, so
  // seeds keep the programs they had before.
  std::mt19937_64 xrng;
  // Reduction nests (nests.cpp), likewise.
  std::mt19937_64 nrng;
  // Parallel loops around a pure while loop (whiles.cpp), likewise.
  std::mt19937_64 wrng;

  explicit Gen(uint64_t seed)
      : rng(seed), lrng(seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull),
        xrng(seed * 0xd1b54a32d192ed03ull + 0x8bb84b93962eacc9ull),
        nrng(seed * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull),
        wrng(seed * 0x94d049bb133111ebull + 0x2545f4914f6cdd1dull) {}

  // Generates with xrng in place of rng.
  template <class F>
  Node from_exit_stream(F&& f) {
    std::swap(rng, xrng);
    Node n = f();
    std::swap(rng, xrng);
    return n;
  }
  // The breaks of a long while loop with counter w: one to three, each under
  // a condition on the loop's data (or on w), at random places in its body
  // (after the counter's increment, so the loop still ends).
  void add_exits(Node& body, const std::string& w) {
    int n = 1 + (int)(xrng() % 3);
    for (int k = 0; k < n; k++) {
      Node c = from_exit_stream([&] {
        if (p(30)) return expr(Ty::i32, "((" + w + " * $0) % 11 == 3)", {gen(Ty::i32, 1)});
        return cond(2);
      });
      size_t at = 1 + (size_t)(xrng() % body.kids.size());
      body.kids.insert(body.kids.begin() + (std::ptrdiff_t)at, stmt("if $0:\n    break", {c}));
    }
  }

  // Early returns of a ti.func (issue 16): some funcs get one or two
  // `if c: return v` among their body's statements (inlined, each is a
  // break out of the func's once-loop: an exit of every loop around the
  // call). From the exit stream, on the func's parameters and the fields.
  void add_returns(Node& body, Ty ret) {
    if (xrng() % 100 >= 40) return;
    int n = 1 + (int)(xrng() % 2);
    for (int k = 0; k < n; k++) {
      // (on a parameter when there is one: a condition on literals folds)
      const std::vector<Var>& ps = scopes.back();
      Node c = from_exit_stream([&] {
        if (ps.empty() || p(25)) return cond(2);
        const Var& v = ps[(size_t)r((int)ps.size())];
        static const char* cmp[] = {"<", "<=", ">", ">=", "==", "!="};
        return expr(Ty::i32, "(" + v.name + " " + cmp[r(6)] + " $0)", {gen(v.ty, 1)});
      });
      Node v = from_exit_stream([&] { return gen(ret, 2); });
      size_t at = (size_t)(xrng() % (body.kids.size() + 1));
      body.kids.insert(body.kids.begin() + (std::ptrdiff_t)at, stmt("if $0:\n    return $1", {c, v}));
    }
  }

  int r(int n) { return (int)(rng() % (uint64_t)n); }
  bool p(int percent) { return r(100) < percent; }
  std::string fresh(const char* prefix) { return prefix + std::to_string(counter++); }
  Ty scalar() { return (Ty)r(4); }
  Ty any_ty() { return p(15) ? Ty::v3 : scalar(); }
  bool is_int(Ty t) { return t == Ty::i32 || t == Ty::i64; }

  std::vector<const Var*> vars(Ty t, bool need_mut) {
    std::vector<const Var*> out;
    for (auto& s : scopes)
      for (auto& v : s)
        if (v.ty == t && (v.mut || !need_mut)) out.push_back(&v);
    return out;
  }
  void declare(std::string name, Ty t, bool mut) { scopes.back().push_back({std::move(name), t, mut}); }

  // ---- expressions ----------------------------------------------------------
  Node literal(Ty t) {
    char buf[64];
    switch (t) {
      case Ty::i32: {
        bool big = p(10);
        long long v = big ? (long long)(int32_t)rng() : r(101) - 50;
        if (v == INT32_MIN) v++;
        // Two literals combine as Python ints (Taichi folds them on the host):
        // a large one is an i32 value, so that products of them wrap as i32.
        std::snprintf(buf, sizeof buf, big ? "ti.i32(%lld)" : v < 0 ? "(%lld)" : "%lld", v);
        return expr(t, buf);
      }
      case Ty::i64: {
        long long v = p(15) ? (long long)rng() : r(2001) - 1000;
        if (v == INT64_MIN) v++;
        std::snprintf(buf, sizeof buf, "ti.i64(%lld)", v);
        return expr(t, buf);
      }
      case Ty::f32:
      case Ty::f64: {
        double v = (r(2001) - 1000) / 8.0;
        if (p(5)) v = p(50) ? 1e30 : 0.1;
        // Two literals fold on the host, as Python numbers: x % 0.0 would be
        // a ZeroDivisionError at compile time (a runtime zero gives NaN).
        if (v == 0) v = 0.5;
        std::snprintf(buf, sizeof buf, v < 0 ? "(%.3f)" : "%.3f", v);
        if (v == 1e30) std::snprintf(buf, sizeof buf, "1e30");
        return expr(t, t == Ty::f32 ? std::string(buf) : "ti.f64(" + std::string(buf) + ")");
      }
      default:
        return expr(t, "ti.math.vec3($0, $1, $2)", {literal(Ty::f32), literal(Ty::f32), literal(Ty::f32)});
    }
  }

  // Index expressions read no fields themselves (that nesting only grows
  // programs without testing more).
  Node index_expr() {
    no_field++;
    Node e = gen(Ty::i32, 1);
    no_field--;
    return e;
  }
  Node index1() { return expr(Ty::i32, "(($0) % N)", {index_expr()}); }

  // A field element of type t, as this context may read or write it.
  Node field_ref(Ty t) {
    std::string f = kField[(int)t];
    bool own = par && (writable >> (int)t & 1);
    if (t == Ty::i64) {  // fc is the 2-D field
      if (own && par == 2) return expr(t, "fc[i, jj]");
      Node col = expr(Ty::i32, "(($0) % M)", {index_expr()});
      if (own) return expr(t, "fc[i, $0]", {col});
      return expr(t, "fc[$0, $1]", {index1(), col});
    }
    if (own) return expr(t, f + "[i]");
    return expr(t, f + "[$0]", {index1()});
  }
  bool can_touch_field(Ty) { return !in_func && !no_field; }  // funcs stay pure: they may run in any loop

  Node leaf(Ty t) {
    auto vs = vars(t, false);
    if (!vs.empty() && p(60)) return expr(t, vs[(size_t)r((int)vs.size())]->name);
    if (can_touch_field(t) && p(30)) return field_ref(t);
    return literal(t);
  }

  // Bare literals and arithmetic on them only: Python folds it on the host.
  static bool host_number(const Node& n) {
    for (char ch : n.tmpl)
      if (std::isalpha((unsigned char)ch) && ch != 'e') return false;
    for (const Node& k : n.kids)
      if (!host_number(k)) return false;
    return true;
  }
  // A float division of two host numbers folds in Python, where a divisor
  // that folds to 0.0 ((-14.625) // (-122.0)) is a ZeroDivisionError at
  // compile time; as an f32 value the divisor is the kernel's (a runtime
  // zero gives inf or NaN, which both engines print alike).
  static Node no_host_zero(Node n) {
    bool divides = n.tmpl.find('/') != std::string::npos || n.tmpl.find('%') != std::string::npos;
    if (divides && n.ty == Ty::f32 && host_number(n.kids[0]) && host_number(n.kids[1]))
      n.tmpl.replace(n.tmpl.find("$1"), 2, "ti.f32($1)");
    return n;
  }

  // i32 arithmetic on host numbers alone folds in Python's unbounded ints,
  // where ((-7) << 15) * (22 << 15) is out of range for i32: as an i32 value
  // (in range: its operands are small literals) the rest wraps in the kernel.
  static Node no_host_overflow(Node n) {
    if (n.ty == Ty::i32 && host_number(n)) n.tmpl = "ti.i32(" + n.tmpl + ")";
    return n;
  }

  Node cond(int d) {
    static const char* cmp[] = {"<", "<=", ">", ">=", "==", "!="};
    Ty u = scalar();
    Node c = expr(Ty::i32, std::string("($0 ") + cmp[r(6)] + " $1)", {gen(u, d - 1), gen(u, d - 1)});
    if (p(15)) return expr(Ty::i32, p(50) ? "($0 and $1)" : "($0 or $1)", {c, cond(d - 1)});
    return c;
  }

  Node divisor(Ty t, int d) {
    static const int lits[] = {-7, -5, -3, -2, 2, 3, 4, 5, 7, 16, 1000};
    if (p(50)) {
      int v = lits[r(11)];
      std::string s = v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v);
      return expr(t, t == Ty::i64 ? "ti.i64(" + s + ")" : s);
    }
    return expr(t, "ti.select(($0) % 16 < 8, ($0) % 16 + 2, 5 - ($0) % 16)", {gen(t, d - 1)});
  }

  Node call(Ty t, int d) {
    std::vector<const Func*> fs;
    for (auto& f : funcs)
      if (f.ret == t) fs.push_back(&f);
    if (fs.empty()) return leaf(t);
    const Func& f = *fs[(size_t)r((int)fs.size())];
    std::string tmpl = f.name + "(";
    std::vector<Node> kids;
    for (size_t k = 0; k < f.params.size(); k++) {
      tmpl += (k ? ", $" : "$") + std::to_string(k);
      kids.push_back(gen(f.params[k], d - 1));
    }
    return expr(t, tmpl + ")", std::move(kids));
  }

  Node gen(Ty t, int d) {
    if (d <= 0 || p(25)) return leaf(t);
    const std::string T = ti_name(t);
    if (t == Ty::v3) {
      switch (r(5)) {
        case 0: return expr(t, std::string("($0 ") + "+-*"[r(3)] + " $1)", {gen(t, d - 1), gen(t, d - 1)});
        case 1: return expr(t, p(50) ? "($0 * $1)" : "($1 * $0)", {gen(t, d - 1), gen(Ty::f32, d - 1)});
        case 2: return expr(t, "ti.math.vec3($0, $1, $2)", {gen(Ty::f32, d - 1), gen(Ty::f32, d - 1), gen(Ty::f32, d - 1)});
        case 3: return expr(t, "ti.math.cross($0, $1)", {gen(t, d - 1), gen(t, d - 1)});
        default: return leaf(t);
      }
    }
    if (is_int(t)) {
      switch (r(11)) {
        case 0: return no_host_overflow(expr(t, std::string("($0 ") + "+-*"[r(3)] + " $1)", {gen(t, d - 1), gen(t, d - 1)}));
        case 1: return no_host_overflow(expr(t, std::string("($0 ") + "&|^"[r(3)] + " $1)", {gen(t, d - 1), gen(t, d - 1)}));
        case 2: {
          static const char* div[] = {"($0 // $1)", "($0 % $1)", "ti.raw_div($0, $1)", "ti.raw_mod($0, $1)"};
          return expr(t, div[r(4)], {gen(t, d - 1), divisor(t, d)});
        }
        case 3: return no_host_overflow(expr(t, p(50) ? "($0 << ($1 & 15))" : "($0 >> ($1 & 15))", {gen(t, d - 1), gen(t, d - 1)}));
        case 4: {
          static const char* un[] = {"(-$0)", "ti.abs($0)", "(~$0)"};
          return expr(t, un[r(3)], {gen(t, d - 1)});
        }
        case 5: return expr(t, p(50) ? "ti.max($0, $1)" : "ti.min($0, $1)", {gen(t, d - 1), gen(t, d - 1)});
        case 6:
          if (t == Ty::i32) return cond(d);
          return expr(t, "ti.cast($0, ti.i64)", {gen(Ty::i32, d - 1)});
        case 7: {
          Ty u = scalar();
          if (is_int(u)) return expr(t, "ti.cast($0, " + T + ")", {gen(u, d - 1)});
          return expr(t, "ti.cast(ti.min(ti.max($0, -1e6), 1e6), " + T + ")", {gen(u, d - 1)});
        }
        case 8: return expr(t, p(50) ? "ti.select($0, $1, $2)" : "($1 if $0 else $2)", {cond(d - 1), gen(t, d - 1), gen(t, d - 1)});
        case 9: return call(t, d);
        default: return leaf(t);
      }
    }
    switch (r(10)) {  // f32, f64
      case 0: return no_host_zero(expr(t, std::string("($0 ") + "+-*/"[r(4)] + " $1)", {gen(t, d - 1), gen(t, d - 1)}));
      case 1: {
        static const char* un[] = {"(-$0)", "ti.abs($0)", "ti.sqrt(ti.abs($0))", "ti.floor($0)",
                                   "ti.sin($0)", "ti.cos($0)", "ti.exp(ti.min($0, 20.0))"};
        return expr(t, un[r(7)], {gen(t, d - 1)});
      }
      case 2: return expr(t, p(50) ? "ti.max($0, $1)" : "ti.min($0, $1)", {gen(t, d - 1), gen(t, d - 1)});
      case 3: return expr(t, "ti.cast($0, " + T + ")", {gen(scalar(), d - 1)});
      case 4: return expr(t, p(50) ? "ti.select($0, $1, $2)" : "($1 if $0 else $2)", {cond(d - 1), gen(t, d - 1), gen(t, d - 1)});
      case 5: return call(t, d);
      case 6: {
        std::string f;
        std::vector<Node> kids{gen(Ty::v3, d - 1)};
        switch (r(3)) {
          case 0: f = "ti.math.dot($0, $1)"; kids.push_back(gen(Ty::v3, d - 1)); break;
          case 1: f = "ti.math.length($0)"; break;
          default: f = "$0[" + std::to_string(r(3)) + "]"; kids[0] = leaf(Ty::v3); break;
        }
        return t == Ty::f32 ? expr(t, f, std::move(kids)) : expr(t, "ti.cast(" + f + ", ti.f64)", std::move(kids));
      }
      case 7: return no_host_zero(expr(t, p(50) ? "($0 // $1)" : "($0 % $1)", {gen(t, d - 1), gen(t, d - 1)}));
      default: return leaf(t);
    }
  }

  // ---- statements -----------------------------------------------------------
  Node sub_block(int depth, std::vector<Node> first = {}) {
    scopes.emplace_back();
    std::vector<Node> ss = std::move(first);
    int n = 1 + r(depth > 1 ? 4 : 2);
    for (int k = 0; k < n && budget > 0; k++) ss.push_back(gen_stmt(depth - 1));
    scopes.pop_back();
    return block(std::move(ss));
  }

  Node gen_stmt(int depth) {
    budget--;
    int roll = r(100);
    bool in_loop = !loops.empty();
    if (depth > 0 && roll < 14) {  // if / else
      Node c = cond(2);
      Node a = sub_block(depth);
      if (p(50)) return stmt("if $0:\n$B1", {c, a});
      Node b = sub_block(depth);
      return stmt("if $0:\n$B1\nelse:\n$B2", {c, a, b});
    }
    // In a kernel without a parallel loop (and in a func, which may be inlined
    // there), a for directly under top-level ifs
    // could become the kernel's outermost loop once a constant condition
    // folds away (then it would run in parallel): keep fors inside loops there.
    if (depth > 0 && roll < 24 && loops.size() < 4 && !((plain || in_func) && loops.empty())) {  // inner range-for
      std::string j = fresh("j");
      Node lo = p(60) ? expr(Ty::i32, std::to_string(r(3))) : expr(Ty::i32, "(($0) % 3)", {gen(Ty::i32, 1)});
      Node hi = p(50) ? expr(Ty::i32, std::to_string(1 + r(6))) : expr(Ty::i32, "(($0) % 7)", {gen(Ty::i32, 1)});
      loops.push_back('I');
      scopes.emplace_back();
      declare(j, Ty::i32, false);
      Node body = sub_block(depth);
      scopes.pop_back();
      loops.pop_back();
      return stmt("for " + j + " in range($0, $1):\n$B2", {lo, hi, body});
    }
    if (depth > 0 && roll < 29 && loops.size() < 4) {  // bounded while
      std::string w = fresh("w");
      int bound = 1 + r(5);
      // Long loops with early exits, not deep in a nest (they multiply):
      // longer than the JIT unrolls inline (16), so they get traces of their
      // own that their outer loop's trace calls.
      bool exits = loops.size() <= 2 && xrng() % 100 < 35;
      if (exits) bound = 8 + (int)(xrng() % 33);
      std::string head = w + " = 0\nwhile " + w + " < " + std::to_string(bound);
      std::vector<Node> kids;
      if (p(40)) {
        head += " and $0";
        kids.push_back(cond(2));
      }
      loops.push_back('I');
      Node body = sub_block(depth, {stmt(w + " += 1", {}, false)});
      if (exits) add_exits(body, w);
      loops.pop_back();
      kids.push_back(body);
      head += ":\n$B" + std::to_string(kids.size() - 1);
      return stmt(head, std::move(kids));
    }
    if (in_loop && roll < 33) {  // break / continue under a condition
      bool brk = loops.back() != 'P' && p(50);
      return stmt(std::string("if $0:\n    ") + (brk ? "break" : "continue"), {cond(2)});
    }
    if (!in_func && roll < 45) {  // field write
      Ty t = any_ty();
      if (par) {  // only the kernel's writable fields, in the iteration's own row
        std::vector<Ty> ws;
        for (int k = 0; k < kTyCount; k++)
          if (writable >> k & 1) ws.push_back((Ty)k);
        if (ws.empty()) return atomic_stmt();
        t = ws[(size_t)r((int)ws.size())];
      }
      if (t == Ty::v3 && p(30)) return stmt("$0[" + std::to_string(r(3)) + "] = $1", {field_ref(t), gen(Ty::f32, 3)});
      const char* op = (p(30) && t != Ty::v3) ? (is_int(t) ? " += " : " -= ") : " = ";
      return stmt(std::string("$0") + op + "$1", {field_ref(t), gen(t, 3)});
    }
    if (!in_func && roll < 53) return atomic_stmt();
    if (!in_func && !par && roll < 57) {  // print (serial code only)
      if (p(50)) return stmt("print($0)", {gen(any_ty(), 2)});
      return stmt("print($0, $1)", {gen(scalar(), 2), gen(scalar(), 2)});
    }
    if (roll < 75) {  // assignment to an existing variable
      Ty t = any_ty();
      auto vs = vars(t, true);
      if (!vs.empty()) {
        std::string name = vs[(size_t)r((int)vs.size())]->name;
        if (t == Ty::v3 && p(30)) return stmt(name + "[" + std::to_string(r(3)) + "] = $0", {gen(Ty::f32, 3)});
        static const char* ops[] = {" = ", " += ", " -= ", " *= "};
        return stmt(name + ops[r(4)] + "$0", {gen(t, 3)});
      }
    }
    Ty t = any_ty();  // a new local
    std::string v = fresh("v");
    Node init = gen(t, 3);
    declare(v, t, true);
    return stmt(v + " = $0", {init});
  }

  Node atomic_stmt() {
    Node at = expr(Ty::i64, "acc[($0) % 4]", {index_expr()});
    if (par) {
      int target = r(3);
      if (target == 1) at = expr(Ty::i64, "tot[None]");
      if (target == 2 && par_red) at = expr(Ty::i64, "red");
      if (par_atomic == "add" && p(40)) return stmt("$0 += $1", {at, gen(Ty::i64, 2)});
      return stmt("ti.atomic_" + par_atomic + "($0, $1)", {at, gen(Ty::i64, 2)});
    }
    static const char* ops[] = {"add", "sub", "max", "min", "and", "or", "xor"};
    if (p(30)) {  // float atomics are fine when serial
      Ty t = p(50) ? Ty::f32 : Ty::f64;
      return stmt("ti.atomic_add($0, $1)", {field_ref(t), gen(t, 2)});
    }
    std::string v = fresh("v");
    Node s = stmt(v + " = ti.atomic_" + std::string(ops[r(7)]) + "($0, $1)", {at, gen(Ty::i64, 2)});
    declare(v, Ty::i64, true);
    return s;
  }

  // ---- definitions ----------------------------------------------------------
  std::string args_of(std::vector<Ty>& types, bool annotate) {
    std::string s;
    int n = r(3);
    for (int k = 0; k < n; k++) {
      Ty t = scalar();
      std::string name = fresh("p");
      types.push_back(t);
      declare(name, t, false);
      s += (k ? ", " : "") + name + (annotate ? std::string(": ") + ti_name(t) : "");
    }
    return s;
  }

  Node gen_func() {
    Func f{fresh("fn"), {}, scalar()};
    scopes.emplace_back();
    in_func = true;
    budget = 6;
    std::string params = args_of(f.params, false);
    Node body = sub_block(2);
    add_returns(body, f.ret);
    body.kids.push_back(stmt("return $0", {gen(f.ret, 3)}, false));
    in_func = false;
    scopes.pop_back();
    funcs.push_back(f);
    return stmt("@ti.func\ndef " + f.name + "(" + params + ") -> " + ti_name(f.ret) + ":\n$B0", {body}, false);
  }

  std::string arg_values(const std::vector<Ty>& types) {
    std::string s;
    for (size_t k = 0; k < types.size(); k++) {
      Node l = literal(types[k]);
      std::string v = l.tmpl;
      if (types[k] == Ty::i64) v = v.substr(7, v.size() - 8);  // ti.i64(x) -> x
      if (types[k] == Ty::f64) v = v.substr(7, v.size() - 8);
      s += (k ? ", " : "") + v;
    }
    return s;
  }

  // A kernel and the host statement(s) that call it.
  void gen_kernel(std::vector<Node>& defs, std::vector<Node>& calls) {
    std::string name = fresh("k");
    std::vector<Ty> args;
    scopes.emplace_back();
    std::string params = args_of(args, true);
    budget = 6 + r(14);
    int kind = r(3);
    std::vector<Node> body;
    std::string ret;
    if (kind == 0) {  // parallel range-for / struct-for
      par = 1 + (p(25) ? 1 : 0);
      static const char* ops[] = {"add", "max", "min", "or", "and", "xor"};
      par_atomic = ops[r(6)];
      par_red = p(50);
      if (par_red) {  // returned after the loop; nothing reads it inside
        ret = "ti.i64";
        body.push_back(stmt("red = ti.i64(" + std::to_string(r(2001) - 1000) + ")", {}, false));
      }
      writable = par == 2 ? (p(70) ? 1u << (int)Ty::i64 : 0) : (unsigned)r(32);
      static const char* heads1[] = {"for i in range(N):", "for i in fa:"};
      std::string head = par == 2 ? (p(50) ? "for i, jj in fc:" : "for i, jj in ti.ndrange(N, M):") : heads1[r(2)];
      loops.push_back('P');
      scopes.emplace_back();
      declare("i", Ty::i32, false);
      if (par == 2) declare("jj", Ty::i32, false);
      Node b = sub_block(3);
      while (budget > 0) b.kids.push_back(gen_stmt(2));
      scopes.pop_back();
      loops.pop_back();
      par = 0;
      body.push_back(stmt(head + "\n$B0", {b}, false));
      if (par_red) body.push_back(stmt("return red", {}, false));
      par_red = false;
    } else if (kind == 1) {  // serialized loop with an accumulator
      Ty st = p(50) ? Ty::i64 : Ty::f64;
      ret = st == Ty::i64 ? "ti.i64" : "ti.f64";
      body.push_back(stmt(std::string("s = ") + (st == Ty::i64 ? "ti.i64(0)" : "ti.f64(0.0)"), {}, false));
      declare("s", st, true);
      loops.push_back('S');
      scopes.emplace_back();
      declare("i", Ty::i32, false);
      Node b = sub_block(3);
      while (budget > 0) b.kids.push_back(gen_stmt(2));
      scopes.pop_back();
      loops.pop_back();
      body.push_back(stmt("ti.loop_config(serialize=True)\nfor i in range(N):\n$B0", {b}, false));
      body.push_back(stmt("return s", {}, false));
    } else {  // serial statements, loops only nested below them
      Ty rt = scalar();
      ret = ti_name(rt);
      plain = true;
      while (budget > 0) {  // (a top-level for would be the kernel's parallel loop)
        Node s = gen_stmt(3);
        if (s.tmpl.rfind("for ", 0) != 0) body.push_back(s);
      }
      body.push_back(stmt("return $0", {gen(rt, 3)}, false));
      plain = false;
    }
    scopes.pop_back();
    defs.push_back(stmt("@ti.kernel\ndef " + name + "(" + params + ")" + (ret.empty() ? "" : " -> " + ret) + ":\n$B0",
                        {block(std::move(body))}, false));
    for (int c = 0, n = 1 + r(2); c < n; c++) {
      std::string call = name + "(" + arg_values(args) + ")";
      calls.push_back(stmt(ret.empty() ? call : "print('" + name + "', " + call + ")"));
    }
  }

  Node program() {
    scopes.emplace_back();
    int N = 1 + r(24), M = 1 + r(5);
    bool loops = lrng() % 100 < 40;
    LoopFields lf;
    if (loops) lf = choose_loop_fields(lrng);
    std::vector<Node> top;
    // fast_math is on by default (fma contraction, docs/fast_math.md): a
    // quarter of the programs check the strict order as well.
    bool strict = lrng() % 4 == 0;
    std::string head = std::string("import taichi as ti\nti.init(arch=ti.cpu") + (lf.oob ? ", debug=True" : "") +
                       (strict ? ", fast_math=False" : "") +
                       ")\nN = " + std::to_string(N) + "\nM = " +
                       std::to_string(M) +
                       "\nfa = ti.field(ti.i32, shape=N)\nfb = ti.field(ti.f32, shape=N)\n"
                       "fc = ti.field(ti.i64, shape=(N, M))\nfd = ti.field(ti.f64, shape=N)\n"
                       "fv = ti.Vector.field(3, ti.f32, shape=N)\nacc = ti.field(ti.i64, shape=4)\ntot = ti.field(ti.i64, shape=())";
    top.push_back(stmt(head, {}, false));
    int a = 1 + r(97), b = r(100);
    char init[640];
    std::snprintf(init, sizeof init,
                  "@ti.kernel\ndef init():\n    for q in range(N):\n        fa[q] = (q * %d + %d) %% 201 - 100\n"
                  "        fb[q] = ti.cast((q * %d) %% 17, ti.f32) * 0.375 - 2.0\n"
                  "        fd[q] = ti.cast(q * %d + %d, ti.f64) / 7.0\n"
                  "        fv[q] = ti.math.vec3(ti.cast(q, ti.f32) * 0.5, -1.25, ti.cast(q %% 3, ti.f32))\n"
                  "        for r in range(M):\n            fc[q, r] = ti.i64(q * 1000 + r * %d) - 5000",
                  a, b, a, b, a - 50, b);
    top.push_back(stmt(init, {}, false));
    if (loops) top.push_back(stmt(loop_fields_decl(lf, lrng), {}, false));
    std::vector<Node> defs, calls;
    for (int k = r(3); k > 0; k--) defs.push_back(gen_func());
    for (int k = 1 + r(3); k > 0; k--) gen_kernel(defs, calls);
    if (loops)
      for (int k = 1 + (int)(lrng() % 3); k > 0; k--) gen_loop_kernel(lrng, lcounter, lf, defs, calls);
    if (loops && nrng() % 100 < 50) gen_nest_kernel(nrng, lcounter, lf, defs, calls);
    if (loops && wrng() % 100 < 60) gen_while_kernel(wrng, lcounter, lf, defs, calls);
    for (auto& d : defs) top.push_back(std::move(d));
    top.push_back(stmt(loops ? "init()\nvinit()" : "init()", {}, false));
    for (auto& c : calls) top.push_back(std::move(c));
    top.push_back(stmt("for q in range(N):\n    print(q, fa[q], fb[q], fd[q], fv[q][0], fv[q][1], fv[q][2])\n"
                       "    print([fc[q, r] for r in range(M)])\nprint('acc', acc[0], acc[1], acc[2], acc[3], tot[None])",
                       {}, false));
    if (loops) top.push_back(stmt(loop_fields_print(), {}, false));
    return block(std::move(top));
  }
};

}  // namespace

Node generate(uint64_t seed) { return Gen(seed).program(); }

}  // namespace kiln::fuzz
