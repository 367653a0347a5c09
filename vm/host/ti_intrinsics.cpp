// The ti intrinsics as host builtins. Inside kernels the frontend knows them
// by name ("ti.sqrt"); called from host code they compute on Python values,
// in f64 for floats and i64 for ints.
#include <cmath>

#include "vm/host/evaluator.h"
#include "vm/host/ti_objects.h"
#include "vm/host/ti_state.h"
#include "vm/runtime/rng.h"
#include "vm/runtime/statistics.h"

namespace kiln::host {

namespace {

double fnum(Evaluator& ev, const Value& v, const std::string& fname, SourceLoc loc) {
  if (v.is_number()) return v.as_double();
  raise("TypeError", "ti." + fname + "() expects a number, got '" + ev.type_name(v) + "'", loc);
}

// ti.ndrange(...) on the host: the index tuples in row-major order.
Value ndrange_values(Evaluator& ev, CallArgs& a) {
  std::vector<std::pair<int64_t, int64_t>> dims;
  for (auto& v : a.pos) {
    if (v.is_int_like()) {
      dims.emplace_back(0, v.as_int());
    } else {
      auto be = ev.to_vector(v, a.loc);
      if (be.size() != 2) raise("TypeError", "ti.ndrange() takes ints or (begin, end) pairs", a.loc);
      dims.emplace_back(arg_int(ev, be[0], "ndrange", a.loc), arg_int(ev, be[1], "ndrange", a.loc));
    }
  }
  std::vector<Value> out;
  std::vector<int64_t> idx;
  for (auto& d : dims) {
    if (d.second <= d.first) return make_list({});
    idx.push_back(d.first);
  }
  while (true) {
    std::vector<Value> t;
    for (auto x : idx) t.push_back(Value::integer(x));
    out.push_back(make_tuple(std::move(t)));
    int k = (int)idx.size() - 1;
    while (k >= 0 && ++idx[k] == dims[k].second) {
      idx[k] = dims[k].first;
      k--;
    }
    if (k < 0) break;
  }
  return make_list(std::move(out));
}

Value prim_result(const Value& like, double r) {
  return Value::floating(r);
}

}  // namespace

void install_ti_intrinsics(Evaluator& ev, ModuleObj& m) {
  auto def = [&](const std::string& name, NativeFn fn) { m.attrs[name] = make_builtin("ti." + name, std::move(fn)); };
  using F1 = double (*)(double);
  const std::pair<const char*, F1> unary[] = {
      {"sqrt", [](double x) { return std::sqrt(x); }},  {"rsqrt", [](double x) { return 1.0 / std::sqrt(x); }},
      {"sin", [](double x) { return std::sin(x); }},    {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},    {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},  {"atan", [](double x) { return std::atan(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},  {"exp", [](double x) { return std::exp(x); }},
      {"log", [](double x) { return std::log(x); }},
  };
  for (auto& [name, f] : unary) {
    std::string n = name;
    F1 fn = f;
    def(n, [n, fn](Evaluator& ev, CallArgs& a) {
      expect_args(a, ("ti." + n).c_str(), 1, 1);
      return prim_result(a.pos[0], fn(fnum(ev, a.pos[0], n, a.loc)));
    });
  }
  const std::pair<const char*, F1> rounding[] = {
      {"floor", [](double x) { return std::floor(x); }},
      {"ceil", [](double x) { return std::ceil(x); }},
      {"round", [](double x) { return std::nearbyint(x); }},
  };
  for (auto& [name, f] : rounding) {
    std::string n = name;
    F1 fn = f;
    def(n, [n, fn](Evaluator& ev, CallArgs& a) {
      expect_args(a, ("ti." + n).c_str(), 1, 2);
      if (a.pos[0].is_int_like()) return Value::integer(a.pos[0].as_int());
      double r = fn(fnum(ev, a.pos[0], n, a.loc));
      if (a.pos.size() == 2) return from_const(ConstVal::make_float(dtype_prim(ev, a.pos[1], a.loc), r));
      return Value::floating(r);
    });
  }
  def("abs", [](Evaluator& ev, CallArgs& a) { return ev.call(ev.builtins["abs"], a); });
  def("max", [](Evaluator& ev, CallArgs& a) { return ev.call(ev.builtins["max"], a); });
  def("min", [](Evaluator& ev, CallArgs& a) { return ev.call(ev.builtins["min"], a); });
  def("pow", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.pow", 2, 2);
    return ev.binop(ast::BinOpKind::Pow, a.pos[0], a.pos[1], a.loc);
  });
  def("atan2", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.atan2", 2, 2);
    return Value::floating(std::atan2(fnum(ev, a.pos[0], "atan2", a.loc), fnum(ev, a.pos[1], "atan2", a.loc)));
  });
  def("cast", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.cast", 2, 2);
    return from_const(to_const(ev, a.pos[0], dtype_prim(ev, a.pos[1], a.loc), a.loc));
  });
  def("raw_div", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.raw_div", 2, 2);
    if (a.pos[0].is_int_like() && a.pos[1].is_int_like()) {
      int64_t x = a.pos[0].as_int(), y = a.pos[1].as_int();
      if (y == 0) raise("ZeroDivisionError", "integer division by zero", a.loc);
      if (x == INT64_MIN && y == -1) overflow(a.loc);
      return Value::integer(x / y);  // C: truncates toward zero
    }
    return ev.binop(ast::BinOpKind::Div, a.pos[0], a.pos[1], a.loc);
  });
  def("raw_mod", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.raw_mod", 2, 2);
    if (a.pos[0].is_int_like() && a.pos[1].is_int_like()) {
      int64_t x = a.pos[0].as_int(), y = a.pos[1].as_int();
      if (y == 0) raise("ZeroDivisionError", "integer modulo by zero", a.loc);
      return Value::integer(y == -1 ? 0 : x % y);  // C: sign of the dividend
    }
    return Value::floating(std::fmod(fnum(ev, a.pos[0], "raw_mod", a.loc), fnum(ev, a.pos[1], "raw_mod", a.loc)));
  });
  def("bit_shr", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.bit_shr", 2, 2);
    uint64_t x = (uint64_t)arg_int(ev, a.pos[0], "bit_shr", a.loc);
    int64_t n = arg_int(ev, a.pos[1], "bit_shr", a.loc);
    return Value::integer(n >= 64 || n < 0 ? 0 : (int64_t)(x >> n));  // logical
  });
  def("select", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.select", 3, 3);
    return ev.truthy(a.pos[0], a.loc) ? a.pos[1] : a.pos[2];
  });
  def("static", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.static", 1, 2);
    return a.pos[0];
  });
  def("ndrange", ndrange_values);
  def("grouped", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.grouped", 1, 1);
    return a.pos[0];
  });
  def("loop_config", [](Evaluator&, CallArgs&) { return Value(); });
  def("static_print", [](Evaluator& ev, CallArgs& a) { return ev.call(ev.builtins["print"], a); });
  def("static_assert", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.static_assert", 1, 2);
    if (!ev.truthy(a.pos[0], a.loc)) raise("AssertionError", a.pos.size() == 2 ? ev.str(a.pos[1]) : "", a.loc);
    return Value();
  });
  def("bit_cast", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.bit_cast", 2, 2);
    raise("NotImplementedError", "ti.bit_cast is only available inside kernels", a.loc);
    return Value();
  });
  // Host-scope ti.random: one stream of its own, seeded by ti.init(random_seed=).
  def("random", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.random", 0, 1);
    Program& prog = ti_program(ev);
    Prim p = prog.config.types.default_fp;
    Value dt = a.pos.empty() ? Value() : a.pos[0];
    a.take_kw("dtype", dt);
    if (!dt.is_none()) p = dtype_prim(ev, dt, a.loc);
    bool half = p == Prim::f16;  // an f32 draw rounded to f16, as in kernels
    if (half) p = Prim::f32;
    if (prim_bits(p) < 32)  // the dtypes a kernel's ti.random draws, with its message
      raise("TypeError", "ti.random() draws f16, f32, f64, i32, u32, i64 or u64, not " + std::string(prim_name(p)), a.loc);
    if (p == Prim::u64)  // this evaluator's ints are i64 (CPython's are not: kiln run draws them)
      raise("TypeError", "ti.random(ti.u64) in host code needs CPython's ints: use kiln run (not --host=builtin) or draw i64",
            a.loc);
    uint64_t bits = rng_mix(rng_mix(prog.config.random_seed ^ 0x686f7374ull) + ++prog.host_draws * kRngGamma);
    uint64_t r = rng_to_reg(bits, p);
    if (half) return Value::floating(round_to_f16(std::bit_cast<float>((uint32_t)r)));
    if (p == Prim::f32) return Value::floating(std::bit_cast<float>((uint32_t)r));
    if (p == Prim::f64) return Value::floating(std::bit_cast<double>(r));
    return Value::integer((int64_t)r);
  });
  for (const char* op : {"activate", "deactivate", "is_active", "append", "length", "rescale_index", "get_addr", "zero",
                         "one", "block_local", "cache_read_only", "no_activate", "loop_unique", "assume_in_range"}) {
    std::string n = op;
    def(n, [n](Evaluator&, CallArgs& a) -> Value {
      raise("RuntimeError", "ti." + n + "() is only available inside kernels", a.loc);
    });
  }
  def("print_statistics", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.print_statistics", 0, 0);
    ev.out(counters_text(ti_program(ev), false));  // the program's counters, not the engines'
    return Value();
  });
  // Kiln: the counters as a dict, timers included (listgen_time_ms), for
  // programs that measure themselves (bench/sparse_grid.py).
  def("statistics", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.statistics", 0, 0);
    Program& prog = ti_program(ev);
    prog.collect_stats();
    Value d = make_dict();
    for (auto& [k, v] : prog.stats) d.as<DictObj>()->set(Value::str(k), Value::floating(v));
    return d;
  });
  def("deactivate_all_snodes", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "ti.deactivate_all_snodes", 0, 0);
    ti_program(ev).deactivate_all_snodes();
    return Value();
  });
  // ti.simt.block / subgroup / warp: kernels compile them (lower_simt.cpp)
  auto simt = std::make_shared<ModuleObj>();
  simt->name = "taichi.simt";
  auto simt_module = [&](const std::string& sub, std::vector<std::string> names) {
    auto mod = std::make_shared<ModuleObj>();
    mod->name = "taichi.simt." + sub;
    for (const std::string& n : names) {
      std::string full = "ti.simt." + sub + "." + n;
      mod->attrs[n] = make_builtin(full, [full](Evaluator&, CallArgs& a) -> Value {
        raise("RuntimeError", full + "() is only available inside kernels", a.loc);
      });
    }
    simt->attrs[sub] = Value::of(mod);
  };
  simt_module("block", {"SharedArray", "sync", "mem_sync", "thread_idx", "global_thread_idx", "sync_all_nonzero",
                        "sync_any_nonzero", "sync_count_nonzero"});
  std::vector<std::string> subgroup{"barrier", "memory_barrier", "elect", "all_true", "any_true", "all_equal",
                                    "broadcast_first", "broadcast", "group_size", "invocation_id", "shuffle",
                                    "shuffle_xor", "shuffle_up", "shuffle_down"};
  for (const char* kind : {"reduce", "inclusive", "exclusive"})
    for (const char* op : {"add", "mul", "min", "max", "and", "or", "xor"}) subgroup.push_back(std::string(kind) + "_" + op);
  simt_module("subgroup", subgroup);
  simt_module("warp", {"all_nonzero", "any_nonzero", "unique", "ballot", "shfl_sync_i32", "shfl_sync_f32", "shfl_down_i32",
                       "shfl_down_f32", "shfl_up_i32", "shfl_up_f32", "shfl_xor_i32", "match_any", "match_all",
                       "active_mask", "sync"});
  m.attrs["simt"] = Value::of(simt);
  // taichi.lang.simt is where Taichi's package keeps it (`from
  // taichi.lang.simt import subgroup`, as Taichi's tests write it).
  auto lang = std::make_shared<ModuleObj>();
  lang->name = "taichi.lang";
  lang->attrs["simt"] = Value::of(simt);
  m.attrs["lang"] = Value::of(lang);
  for (const char* op : {"atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor", "atomic_mul"}) {
    std::string n = op;
    def(n, [n](Evaluator&, CallArgs& a) -> Value {
      raise("RuntimeError", "ti." + n + "() is only available inside kernels (it updates global data in place)", a.loc);
    });
  }
}

}  // namespace kiln::host
