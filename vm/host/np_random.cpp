// np.random: numpy's legacy global RandomState, so that a seeded program
// draws exactly the numbers real numpy draws. MT19937 seeded by
// init_genrand (numpy's seed(int)); doubles from two 32-bit words (53 bits);
// normals by the polar method with the second value cached; randint by
// masked rejection on 32- or 64-bit words, as RandomState does.
#include <chrono>
#include <cmath>

#include "vm/host/evaluator.h"
#include "vm/host/mt19937.h"
#include "vm/host/np_array.h"

namespace kiln::host {

namespace {

struct NpRandom {
  MT19937 mt;
  double gauss() {
    if (mt.has_gauss) {
      mt.has_gauss = false;
      return mt.gauss_next;
    }
    double x1, x2, r2;
    do {
      x1 = 2.0 * mt.random() - 1.0;
      x2 = 2.0 * mt.random() - 1.0;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    double f = std::sqrt(-2.0 * std::log(r2) / r2);
    mt.gauss_next = f * x1;
    mt.has_gauss = true;
    return f * x2;
  }
  uint64_t next64() {
    uint64_t hi = mt.next();
    return hi << 32 | mt.next();
  }
  // a value in [0, rng] (numpy's random_bounded_uint64 with masking)
  uint64_t bounded(uint64_t rng) {
    if (rng == 0) return 0;
    uint64_t mask = rng;
    for (int s = 1; s < 64; s <<= 1) mask |= mask >> s;
    if (rng <= 0xFFFFFFFFull) {
      if (rng == 0xFFFFFFFFull) return mt.next();
      uint64_t v;
      while ((v = (mt.next() & (uint32_t)mask)) > rng) {}
      return v;
    }
    if (rng == ~0ull) return next64();
    uint64_t v;
    while ((v = (next64() & mask)) > rng) {}
    return v;
  }
};

// A `size` argument: None (one scalar), an int, or a tuple of ints.
bool size_arg(Evaluator& ev, const Value& v, std::vector<int64_t>& shape, SourceLoc loc) {
  if (v.is_none()) return false;
  if (v.kind == Kind::Tuple || v.kind == Kind::List) {
    for (auto& x : ev.to_vector(v, loc)) shape.push_back(arg_int(ev, x, "size", loc));
  } else {
    shape.push_back(arg_int(ev, v, "size", loc));
  }
  for (auto d : shape)
    if (d < 0) raise("ValueError", "negative dimensions are not allowed", loc);
  return true;
}

// One float64 draw per element, or a Python float without a size.
Value draw(bool has_shape, const std::vector<int64_t>& shape, const std::function<double()>& f) {
  if (!has_shape) return Value::floating(f());
  auto r = np_new(Prim::f64, shape, false);
  double* p = reinterpret_cast<double*>(r->data());
  for (int64_t k = 0; k < r->size(); k++) p[k] = f();
  return Value::of(r);
}

Value take(CallArgs& a, const char* kw, size_t pos, Value def) {
  Value v;
  if (a.take_kw(kw, v)) return v;
  return a.pos.size() > pos ? a.pos[pos] : def;
}

void check_kwargs(const CallArgs& a, const char* fname) {
  if (!a.kw.empty()) raise("TypeError", std::string(fname) + "() got an unexpected keyword argument '" + a.kw[0].first + "'", a.loc);
}

}  // namespace

Value make_np_random(Evaluator& ev) {
  auto m = std::make_shared<ModuleObj>();
  m->name = "numpy.random";
  auto g = std::make_shared<NpRandom>();
  g->mt.init_genrand((uint32_t)std::chrono::steady_clock::now().time_since_epoch().count());
  auto def = [&](const char* name, NativeFn fn) { m->attrs[name] = make_builtin(std::string("numpy.random.") + name, std::move(fn)); };
  def("seed", [g](Evaluator& ev, CallArgs& a) {
    expect_args(a, "seed", 0, 1);
    if (a.pos.empty() || a.pos[0].is_none()) {
      g->mt.init_genrand((uint32_t)std::chrono::steady_clock::now().time_since_epoch().count());
    } else {
      int64_t s = arg_int(ev, a.pos[0], "seed", a.loc);
      if (s < 0 || s > 0xFFFFFFFFll) raise("ValueError", "Seed must be between 0 and 2**32 - 1", a.loc);
      g->mt.init_genrand((uint32_t)s);
    }
    g->mt.has_gauss = false;
    return Value();
  });
  // rand(d0, d1, ...) and randn(d0, d1, ...) take the shape as separate ints
  auto dims = [](Evaluator& ev, CallArgs& a, const char* fname, std::vector<int64_t>& shape) {
    check_kwargs(a, fname);
    for (auto& d : a.pos) shape.push_back(arg_int(ev, d, fname, a.loc));
    for (auto d : shape)
      if (d < 0) raise("ValueError", "negative dimensions are not allowed", a.loc);
    return !a.pos.empty();
  };
  def("rand", [g, dims](Evaluator& ev, CallArgs& a) {
    std::vector<int64_t> shape;
    bool has = dims(ev, a, "rand", shape);
    return draw(has, shape, [g] { return g->mt.random(); });
  });
  def("randn", [g, dims](Evaluator& ev, CallArgs& a) {
    std::vector<int64_t> shape;
    bool has = dims(ev, a, "randn", shape);
    return draw(has, shape, [g] { return g->gauss(); });
  });
  for (const char* name : {"random", "random_sample", "sample"}) {
    def(name, [g](Evaluator& ev, CallArgs& a) {
      Value size = take(a, "size", 0, Value());
      check_kwargs(a, "random");
      std::vector<int64_t> shape;
      bool has = size_arg(ev, size, shape, a.loc);
      return draw(has, shape, [g] { return g->mt.random(); });
    });
  }
  def("standard_normal", [g](Evaluator& ev, CallArgs& a) {
    Value size = take(a, "size", 0, Value());
    check_kwargs(a, "standard_normal");
    std::vector<int64_t> shape;
    bool has = size_arg(ev, size, shape, a.loc);
    return draw(has, shape, [g] { return g->gauss(); });
  });
  def("uniform", [g](Evaluator& ev, CallArgs& a) {
    double lo = arg_float(ev, take(a, "low", 0, Value::floating(0)), "uniform", a.loc);
    double hi = arg_float(ev, take(a, "high", 1, Value::floating(1)), "uniform", a.loc);
    Value size = take(a, "size", 2, Value());
    check_kwargs(a, "uniform");
    std::vector<int64_t> shape;
    bool has = size_arg(ev, size, shape, a.loc);
    return draw(has, shape, [g, lo, hi] { return lo + (hi - lo) * g->mt.random(); });
  });
  def("normal", [g](Evaluator& ev, CallArgs& a) {
    double loc = arg_float(ev, take(a, "loc", 0, Value::floating(0)), "normal", a.loc);
    double scale = arg_float(ev, take(a, "scale", 1, Value::floating(1)), "normal", a.loc);
    Value size = take(a, "size", 2, Value());
    check_kwargs(a, "normal");
    if (scale < 0) raise("ValueError", "scale < 0", a.loc);
    std::vector<int64_t> shape;
    bool has = size_arg(ev, size, shape, a.loc);
    return draw(has, shape, [g, loc, scale] { return loc + scale * g->gauss(); });
  });
  def("randint", [g](Evaluator& ev, CallArgs& a) {
    Value lo_v = take(a, "low", 0, Value()), hi_v = take(a, "high", 1, Value()), size = take(a, "size", 2, Value());
    Value dtype;
    a.take_kw("dtype", dtype);
    check_kwargs(a, "randint");
    Prim dt = dtype.is_none() ? Prim::i64 : np_dtype_arg(ev, dtype, a.loc);
    if (!prim_is_int(dt)) raise("TypeError", "Unsupported dtype " + np_dtype_name(dt) + " for randint", a.loc);
    if (prim_bits(dt) < 32)  // numpy draws those from buffered 8/16-bit words: not reproduced here
      raise("TypeError", "Kiln's np.random.randint draws 32- and 64-bit integers only (use dtype=np.int32 and astype)", a.loc);
    int64_t lo = 0, hi;
    if (hi_v.is_none()) hi = arg_int(ev, lo_v, "randint", a.loc);
    else {
      lo = arg_int(ev, lo_v, "randint", a.loc);
      hi = arg_int(ev, hi_v, "randint", a.loc);
    }
    if (lo >= hi) raise("ValueError", "low >= high", a.loc);
    uint64_t rng = (uint64_t)hi - 1 - (uint64_t)lo;
    std::vector<int64_t> shape;
    if (!size_arg(ev, size, shape, a.loc)) return Value::integer((int64_t)((uint64_t)lo + g->bounded(rng)));
    auto r = np_new(dt, shape);
    int64_t is = r->itemsize();
    for (int64_t k = 0; k < r->size(); k++)
      NpArrayObj::store(ev, dt, r->data() + k * is, Value::integer((int64_t)((uint64_t)lo + g->bounded(rng))), a.loc);
    return Value::of(r);
  });
  return Value::of(m);
}

}  // namespace kiln::host
