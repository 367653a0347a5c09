// Parallel loops around a pure float while loop (loops.h, gen_while_kernel):
// the shape vm/ir/passes/jam_while.cpp runs four (or two) iterations of in
// lockstep, and near misses of it.
//
//   for i in range(LO, HI):                 (constant bounds, parallel)
//       c0 = <f of i, a>; c1 = ...          (locals, constants, arguments only)
//       x = <c0 or 0.0>; y = ...; n = 0
//       while n < MAXIT [and <escape test>]:   (MAXIT: a constant or an argument)
//           [if <escape test>: break]       (zero to two, anywhere in the body)
//           x, y = <f of x, y, c0, c1>, ...
//           [if <test>: x = ... else: y = ...]
//           n += 1
//       W[i] = <n, x, y, and any field at i>   (W: xb, xi or yi, written at i only)
//
// What keeps the output defined: each i writes W only at i, and everything
// in the while loop is its own locals; the counter bounds the loop (40 at
// most); no float is cast to an integer (a value that escaped to inf or nan
// prints as such on every engine, the loop compares it). A quarter of the
// kernels miss the jam on purpose: the loop reads a field, or only integers
// change in it, or it has a `continue` or an inner loop, or the part before
// it reads a field. f64 in a quarter of them. With debug=True
// (LoopFields::oob) the loop is serialized and nothing is jammed.
#include "tests/fuzz/loops.h"

namespace kiln::fuzz {

namespace {

struct WhileGen {
  std::mt19937_64& rng;
  std::string ft;  // the loop values' type
  int r(int n) { return (int)(rng() % (uint64_t)n); }
  bool p(int percent) { return r(100) < percent; }
  std::string k() {
    static const char* ks[] = {"0.5", "1.25", "2.0", "0.125", "3.0", "0.75", "0.0625"};
    return ks[r(7)];
  }
  // A float expression of the names in `vars`, `depth` operations deep.
  std::string expr(const std::vector<std::string>& vars, int depth) {
    if (depth == 0 || p(20)) return p(85) ? vars[(size_t)r((int)vars.size())] : k();
    std::string a = expr(vars, depth - 1), b = expr(vars, depth - 1);
    switch (r(9)) {
      case 0: case 1: return "(" + a + " + " + b + ")";
      case 2: return "(" + a + " - " + b + ")";
      case 3: case 4: return "(" + a + " * " + b + ")";
      case 5: return "(" + a + " / (" + b + " * " + b + " + " + k() + "))";
      case 6: return "ti.min(" + a + ", " + b + ")";
      case 7: return "ti.abs(" + a + ")";
      default: return "(" + a + " if " + a + " < " + b + " else " + b + ")";
    }
  }
  // A data-dependent test on the loop's values (an escape test, mostly).
  std::string test(const std::vector<std::string>& vars) {
    const std::string& u = vars[(size_t)r((int)vars.size())];
    const std::string& v = vars[(size_t)r((int)vars.size())];
    switch (r(4)) {
      case 0: case 1: return u + " * " + u + " + " + v + " * " + v + (p(50) ? " >= " : " > ") + "4.0";
      case 2: return u + " > " + v + " + " + k();
      default: return "ti.abs(" + u + " - " + v + ") < " + k();
    }
  }
};

}  // namespace

void gen_while_kernel(std::mt19937_64& rng, int& counter, const LoopFields& lf, std::vector<Node>& defs,
                      std::vector<Node>& calls) {
  WhileGen g{rng, ""};
  const bool f64 = g.p(25);
  g.ft = f64 ? "ti.f64" : "ti.f32";
  std::string name = "vw" + std::to_string(counter++);
  static const char* written[] = {"xb", "xi", "yi"};
  const char* w = written[g.r(3)];
  // Ranges of 0 to 3 (two copies, or none) and longer ones of every
  // remainder mod 4.
  int lo = g.r(4), hi = std::min(lf.L2, lo + (g.p(20) ? g.r(4) : g.r(60)));
  const char* miss = nullptr;
  if (g.p(25)) {
    static const char* misses[] = {"field", "int", "continue", "inner", "pre"};
    miss = misses[g.r(5)];
  }
  const std::string m = miss ? miss : "";
  const bool arg_max = g.p(30), arg_a = g.p(40);
  int maxit = 1 + g.r(40);
  auto cast = [&](const std::string& e) { return "ti.cast(" + e + ", " + g.ft + ")"; };

  std::string b = "    for i in range(" + std::to_string(lo) + ", " + std::to_string(hi) + "):\n";
  std::string fi = cast("i") + " * " + g.k();
  b += "        c0 = " + fi + " - " + g.k() + "\n";
  b += "        c1 = " + (m == "pre" ? cast("xa[i]") : g.expr({fi, arg_a ? cast("a") : g.k()}, 2)) + "\n";
  b += "        x = " + (g.p(50) ? std::string("c0") : cast("0.0")) + "\n";
  b += "        y = " + (g.p(50) ? std::string("c1") : cast(g.k())) + "\n";
  b += "        n = 0\n        t = 0\n";
  const std::vector<std::string> vals = {"x", "y", "c0", "c1"};
  std::string head = "n < " + (arg_max ? std::string("m") : std::to_string(maxit));
  if (g.p(40)) head += " and " + g.test({"x", "y"});
  b += "        while " + head + ":\n";
  // The body's statements; the breaks go in afterwards at random places.
  std::vector<std::string> body;
  if (m == "int") {
    body.push_back("t = (t * 3 + n + i) % 1009");
  } else {
    std::string nx = g.expr(vals, 2), ny = g.expr(vals, 2);
    if (m == "field") ny = "(" + ny + " + " + cast("xa[i]") + " * 0.25)";
    body.push_back("x, y = " + nx + ", " + ny);
    if (g.p(40))
      body.push_back("if " + g.test(vals) + ":\n                x = " + g.expr(vals, 1) +
                     "\n            else:\n                y = " + g.expr(vals, 1));
    if (g.p(30)) body.push_back("t = t + (1 if x < y else 2)");
  }
  if (m == "inner") body.push_back("for s in range(2):\n                t = t ^ s");
  body.push_back("n += 1");
  if (m == "continue") body.push_back("if " + g.test({"x", "y"}) + ":\n                continue");
  for (int n = m == "int" ? 1 : g.r(3); n > 0; n--) {
    std::string t = m == "int" ? "t % 7 == 3" : g.test(vals);
    body.insert(body.begin() + g.r((int)body.size() + 1), "if " + t + ":\n                break");
  }
  for (auto& s : body) b += "            " + s + "\n";
  // The part after the loop may read anything at i.
  std::string fx = "ti.cast(" + g.expr({"x", "y"}, 1) + ", ti.f32)";
  if (w[1] == 'b') b += "        xb[i] = " + fx + " + ti.cast(n + t, ti.f32) * 0.5 + xa[i] * 0.25\n";
  else b += "        " + std::string(w) + "[i] = n * 3 + t + (1 if x < y else 0) + xj[i] % 5\n";
  std::string params = arg_max ? "m: ti.i32" : "";
  if (arg_a) params += std::string(params.empty() ? "" : ", ") + "a: " + g.ft;
  defs.push_back(stmt("@ti.kernel\ndef " + name + "(" + params + "):\n" + b, {}, false));
  for (int n = 1 + g.r(2); n > 0; n--) {
    std::string args = arg_max ? std::to_string(g.r(41)) : "";
    if (arg_a) args += std::string(args.empty() ? "" : ", ") + g.k();
    calls.push_back(stmt(name + "(" + args + ")"));
  }
}

}  // namespace kiln::fuzz
