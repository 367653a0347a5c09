// Reduction nests (loops.h, gen_nest_kernel): the shape the JIT runs two
// outer iterations a pass (vm/ir/passes/jam_outer.cpp), and near misses of it.
//
//   for i in range(LO, HI):                 (constant bounds, parallel)
//       p = xa[i]; q = <f32 of p, xb[i]>    (reads at i)
//       s0 = 0.0 ...                        (one to three f32 sums; s0 may be W[i])
//       for j in range(JLO, JHI or m):      (constant, or an argument)
//           v = <field>[j + c]              (xa, ya or xj: never the one written)
//           w = <f32 of v, p, q with / or sqrt>
//           s0 += <f32 of w, v, p> ...
//       W[i] = <s0, s1, ...>                (W: xb, xi or yi, written at i only)
//
// What keeps the output defined: a parallel loop writes W only at i and reads
// it only at i, so iterations touch disjoint elements; each i's sums are its
// own; divisors are squares plus a positive constant. A quarter of the nests
// miss the jam on purpose (a compare and a select in the inner loop), and
// with debug=True (LoopFields::oob) the inner
// loop may run past its field's end: both engines must stop at the same
// IndexError, with the same writes done.
#include <cstdio>

#include "tests/fuzz/loops.h"

namespace kiln::fuzz {

namespace {

struct NestGen {
  std::mt19937_64& rng;
  int r(int n) { return (int)(rng() % (uint64_t)n); }
  bool p(int percent) { return r(100) < percent; }
  std::string k() {
    static const char* ks[] = {"0.5", "1.25", "2.0", "0.125", "3.0", "0.75"};
    return ks[r(6)];
  }
  // An f32 expression of the names in `vars`, `depth` operations deep.
  std::string expr(const std::vector<std::string>& vars, int depth) {
    if (depth == 0 || p(25)) return p(80) ? vars[(size_t)r((int)vars.size())] : k();
    std::string a = expr(vars, depth - 1), b = expr(vars, depth - 1);
    switch (r(6)) {
      case 0: return "(" + a + " + " + b + ")";
      case 1: return "(" + a + " - " + b + ")";
      case 2: case 3: return "(" + a + " * " + b + ")";
      case 4: return "(" + a + " / (" + b + " * " + b + " + " + k() + "))";
      default: return "ti.sqrt(" + a + " * " + a + " + " + k() + ")";
    }
  }
};

}  // namespace

void gen_nest_kernel(std::mt19937_64& rng, int& counter, const LoopFields& lf, std::vector<Node>& defs,
                     std::vector<Node>& calls) {
  NestGen g{rng};
  std::string name = "vn" + std::to_string(counter++);
  static const char* written[] = {"xb", "xi", "yi"};
  static const char* read[] = {"xa", "ya", "xj"};
  const char* w = written[g.r(3)];
  const bool wint = w[1] == 'i';
  // The outer range within every field read or written at i (L2: yi).
  int lo = g.r(3), hi = std::min(lf.L2, lo + g.r(40));
  bool miss = g.p(25);
  // The inner loop's field and offset; its last j stays inside unless the
  // program checks bounds (debug=True), where it may leave in its last
  // iterations.
  int f = g.r(3);
  int size = f == 1 ? lf.L2 : lf.L;
  int c = g.r(4);
  int jhi_max = size - c + (lf.oob && g.p(30) ? 1 + g.r(2) : 0);
  bool use_arg = g.p(40);
  int jlo = g.r(3);
  auto jhi = [&] { return std::max(jlo, jhi_max - (g.p(50) ? 0 : g.r(std::max(1, jhi_max - jlo + 1)))); };
  int nsums = 1 + g.r(3);
  // A third of the f32 nests sum into the written element itself (W[i] +=,
  // Taichi's n-body example's `force[i] += f`): promote_elements keeps it in
  // a local in program order, fast_math contracts its products into fmas,
  // and the JIT folds it lane by lane (jit/asm_lane_fold.cpp ordered_run).
  const bool elem = !wint && g.p(33);
  auto sum = [&](int s) { return elem && s == 0 ? std::string(w) + "[i]" : "s" + std::to_string(s); };

  std::string b = "    for i in range(" + std::to_string(lo) + ", " + std::to_string(hi) + "):\n";
  b += "        p = xa[i]\n";
  b += "        q = " + g.expr({"p", "xb[i]"}, 2) + "\n";
  for (int s = 0; s < nsums; s++) b += "        " + sum(s) + (elem && s == 0 ? " = " + sum(s) + " * 0.5\n" : " = 0.0\n");
  b += "        for j in range(" + std::to_string(jlo) + ", " + (use_arg ? std::string("m") : std::to_string(jhi())) + "):\n";
  std::string v = std::string(read[f]) + "[j" + (c ? " + " + std::to_string(c) : "") + "]";
  b += "            v = " + (f == 2 ? "ti.cast(" + v + ", ti.f32) * 0.01" : v) + "\n";
  // The jam needs a divide or a square root in the inner loop: `w` has one.
  b += "            d = " + g.expr({"v", "p"}, 1) + "\n";
  b += "            w = " + g.expr({"v", "p", "q"}, 1) + " / (d * d + " + g.k() + ")\n";
  if (miss) b += "            w = w if v < p else -w\n";
  for (int s = 0; s < nsums; s++)
    b += "            " + sum(s) + (g.p(20) ? " -= " : " += ") + g.expr({"w", "v", "p"}, 2) + "\n";
  std::string total = "s0";
  for (int s = 1; s < nsums; s++) total = "(" + total + (g.p(50) ? " + " : " - ") + "s" + std::to_string(s) + ")";
  if (wint) b += "        " + std::string(w) + "[i] = ti.cast(ti.min(ti.max(" + total + " * 8.0, -1e6), 1e6), ti.i32)\n";
  else if (elem && nsums > 1) b += "        " + std::string(w) + "[i] = " + total.replace(total.find("s0"), 2, std::string(w) + "[i]") + "\n";
  else if (!elem) b += "        " + std::string(w) + "[i] = " + total + " + " + w + "[i] * 0.5\n";
  defs.push_back(stmt("@ti.kernel\ndef " + name + "(" + (use_arg ? "m: ti.i32" : "") + "):\n" + b, {}, false));
  for (int n = 1 + g.r(2); n > 0; n--) calls.push_back(stmt(name + "(" + (use_arg ? std::to_string(jhi()) : "") + ")"));
}

}  // namespace kiln::fuzz
