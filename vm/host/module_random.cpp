// Python's `random` module for host code. A seeded program draws the same
// numbers as CPython: the generator is MT19937 seeded the way CPython seeds
// it (init_by_array over the 32-bit words of the seed), and random(),
// getrandbits(), randrange() and friends consume its output in CPython's
// order. Unseeded use starts from the clock.
#include <chrono>
#include <cmath>

#include "vm/host/evaluator.h"
#include "vm/host/mt19937.h"

namespace kiln::host {

using MT = MT19937;


static Value make_random(Evaluator& ev) {
  auto m = std::make_shared<ModuleObj>();
  m->name = "random";
  auto gen = std::make_shared<MT>();
  gen->seed((uint64_t)std::chrono::steady_clock::now().time_since_epoch().count());
  auto def = [&](const char* name, NativeFn fn) { m->attrs[name] = make_builtin(std::string("random.") + name, std::move(fn)); };
  def("seed", [gen](Evaluator& ev, CallArgs& a) {
    expect_args(a, "seed", 0, 2);
    if (a.pos.empty() || a.pos[0].is_none()) {
      gen->seed((uint64_t)std::chrono::steady_clock::now().time_since_epoch().count());
    } else if (a.pos[0].is_int_like()) {
      int64_t n = a.pos[0].as_int();
      gen->seed(n < 0 ? 0 - (uint64_t)n : (uint64_t)n);
    } else {
      // CPython hashes other seeds (str via SHA-512); a stable hash keeps runs repeatable.
      gen->seed(hash_value(a.pos[0], a.loc));
    }
    return Value();
  });
  def("random", [gen](Evaluator&, CallArgs&) { return Value::floating(gen->random()); });
  def("uniform", [gen](Evaluator& ev, CallArgs& a) {
    expect_args(a, "uniform", 2, 2);
    double lo = arg_float(ev, a.pos[0], "uniform", a.loc), hi = arg_float(ev, a.pos[1], "uniform", a.loc);
    return Value::floating(lo + (hi - lo) * gen->random());
  });
  def("getrandbits", [gen](Evaluator& ev, CallArgs& a) {
    expect_args(a, "getrandbits", 1, 1);
    int64_t k = arg_int(ev, a.pos[0], "getrandbits", a.loc);
    if (k < 0) raise("ValueError", "number of bits must be non-negative", a.loc);
    if (k > 63) raise("OverflowError", "getrandbits() beyond 63 bits needs big ints (Kiln ints are 64-bit)", a.loc);
    return Value::integer(k == 0 ? 0 : (int64_t)gen->bits((int)k));
  });
  auto randrange = [gen](Evaluator& ev, int64_t start, int64_t stop, int64_t step, SourceLoc loc) {
    if (step == 1) {
      if (stop <= start) raise("ValueError", "empty range in randrange(" + std::to_string(start) + ", " + std::to_string(stop) + ")", loc);
      return Value::integer(start + (int64_t)gen->below((uint64_t)(stop - start)));
    }
    if (step == 0) raise("ValueError", "zero step for randrange()", loc);
    int64_t n = step > 0 ? (stop - start + step - 1) / step : (stop - start + step + 1) / step;
    if (n <= 0) raise("ValueError", "empty range for randrange()", loc);
    return Value::integer(start + step * (int64_t)gen->below((uint64_t)n));
  };
  def("randrange", [randrange](Evaluator& ev, CallArgs& a) {
    expect_args(a, "randrange", 1, 3);
    int64_t v[3] = {0, 0, 1};
    for (size_t k = 0; k < a.pos.size(); k++) v[k] = arg_int(ev, a.pos[k], "randrange", a.loc);
    if (a.pos.size() == 1) return randrange(ev, 0, v[0], 1, a.loc);
    return randrange(ev, v[0], v[1], a.pos.size() == 3 ? v[2] : 1, a.loc);
  });
  def("randint", [randrange](Evaluator& ev, CallArgs& a) {
    expect_args(a, "randint", 2, 2);
    return randrange(ev, arg_int(ev, a.pos[0], "randint", a.loc), arg_int(ev, a.pos[1], "randint", a.loc) + 1, 1, a.loc);
  });
  def("choice", [gen](Evaluator& ev, CallArgs& a) {
    expect_args(a, "choice", 1, 1);
    int64_t n = ev.len(a.pos[0], a.loc);
    if (n == 0) raise("IndexError", "Cannot choose from an empty sequence", a.loc);
    return ev.get_item(a.pos[0], Value::integer((int64_t)gen->below((uint64_t)n)), a.loc);
  });
  def("shuffle", [gen](Evaluator& ev, CallArgs& a) {
    expect_args(a, "shuffle", 1, 1);
    if (a.pos[0].kind != Kind::List) raise("TypeError", "shuffle() needs a list", a.loc);
    auto& items = a.pos[0].as<ListObj>()->items;
    for (size_t i = items.size(); i-- > 1;) std::swap(items[i], items[(size_t)gen->below(i + 1)]);
    return Value();
  });
  def("gauss", [gen](Evaluator& ev, CallArgs& a) {
    expect_args(a, "gauss", 0, 2);
    double mu = a.pos.size() > 0 ? arg_float(ev, a.pos[0], "gauss", a.loc) : 0.0;
    double sigma = a.pos.size() > 1 ? arg_float(ev, a.pos[1], "gauss", a.loc) : 1.0;
    double z;
    if (gen->has_gauss) {
      z = gen->gauss_next;
      gen->has_gauss = false;
    } else {
      double x2pi = gen->random() * 2 * M_PI;
      double g2rad = std::sqrt(-2.0 * std::log(1.0 - gen->random()));
      z = std::cos(x2pi) * g2rad;
      gen->gauss_next = std::sin(x2pi) * g2rad;
      gen->has_gauss = true;
    }
    return Value::floating(mu + z * sigma);
  });
  return Value::of(m);
}

void install_module_random(Evaluator& ev) { ev.module_factories["random"] = make_random; }

}  // namespace kiln::host
