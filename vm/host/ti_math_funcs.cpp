// ti.math's GLSL-style functions as host builtins. Inside kernels the
// frontend knows them by name ("ti.math.clamp", see lower_matrix_ops.cpp);
// called from host code they compute with the host's own operators, so they
// work on numbers and on host vectors (which broadcast scalars) alike.
#include <cmath>

#include "vm/host/evaluator.h"
#include "vm/host/ti_objects.h"

namespace kiln::host {

namespace {

using O = ast::BinOpKind;

Value method(Evaluator& ev, const Value& obj, const char* name, std::vector<Value> args, SourceLoc loc) {
  return ev.call(ev.get_attr(obj, name, loc), std::move(args), loc);
}

Value num(double d) { return Value::floating(d); }

// max(a, b) / min(a, b) element-wise: a < b picks per element on vectors.
Value pick(Evaluator& ev, const Value& a, const Value& b, bool want_max, SourceLoc loc) {
  if (a.is_number() && b.is_number()) return (want_max ? ev.less(a, b, loc) : ev.less(b, a, loc)) ? b : a;
  Value ti = ev.import_module("taichi", loc);
  return ev.call(ev.get_attr(ti, want_max ? "max" : "min", loc), {a, b}, loc);
}

}  // namespace

void install_ti_math_funcs(Evaluator& ev, ModuleObj& math) {
  auto def = [&](const std::string& name, size_t nargs, NativeFn fn) {
    math.attrs[name] = make_builtin("ti.math." + name, [name, nargs, fn](Evaluator& e, CallArgs& a) {
      expect_args(a, ("ti.math." + name).c_str(), nargs, nargs);
      no_kwargs(a, ("ti.math." + name).c_str());
      return fn(e, a);
    });
  };
  def("clamp", 3, [](Evaluator& e, CallArgs& a) {
    return pick(e, pick(e, a.pos[0], a.pos[1], true, a.loc), a.pos[2], false, a.loc);
  });
  def("mix", 3, [](Evaluator& e, CallArgs& a) {
    Value one_minus = e.binop(O::Sub, num(1.0), a.pos[2], a.loc);
    return e.binop(O::Add, e.binop(O::Mult, a.pos[0], one_minus, a.loc), e.binop(O::Mult, a.pos[1], a.pos[2], a.loc), a.loc);
  });
  def("fract", 1, [](Evaluator& e, CallArgs& a) {
    double x = arg_float(e, a.pos[0], "ti.math.fract", a.loc);
    return num(x - std::floor(x));
  });
  def("sign", 1, [](Evaluator& e, CallArgs& a) {
    double x = arg_float(e, a.pos[0], "ti.math.sign", a.loc);
    return num(x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0);
  });
  def("step", 2, [](Evaluator& e, CallArgs& a) {
    double edge = arg_float(e, a.pos[0], "ti.math.step", a.loc), x = arg_float(e, a.pos[1], "ti.math.step", a.loc);
    return num(x < edge ? 0.0 : 1.0);
  });
  def("smoothstep", 3, [](Evaluator& e, CallArgs& a) {
    double e0 = arg_float(e, a.pos[0], "ti.math.smoothstep", a.loc), e1 = arg_float(e, a.pos[1], "ti.math.smoothstep", a.loc);
    double x = arg_float(e, a.pos[2], "ti.math.smoothstep", a.loc);
    double t = std::min(std::max((x - e0) / (e1 - e0), 0.0), 1.0);
    return num(t * t * (3 - 2 * t));
  });
  // Host ints are Python ints: count in their 64-bit two's-complement pattern,
  // as an i64 would (kernels count in their operand's own width).
  def("popcnt", 1, [](Evaluator& e, CallArgs& a) {
    return Value::integer(__builtin_popcountll((uint64_t)arg_int(e, a.pos[0], "ti.math.popcnt", a.loc)));
  });
  def("clz", 1, [](Evaluator& e, CallArgs& a) {
    uint64_t x = (uint64_t)arg_int(e, a.pos[0], "ti.math.clz", a.loc);
    return Value::integer(x ? __builtin_clzll(x) : 64);
  });
  def("length", 1, [](Evaluator& e, CallArgs& a) { return method(e, a.pos[0], "norm", {}, a.loc); });
  def("normalize", 1, [](Evaluator& e, CallArgs& a) { return method(e, a.pos[0], "normalized", {}, a.loc); });
  def("dot", 2, [](Evaluator& e, CallArgs& a) { return method(e, a.pos[0], "dot", {a.pos[1]}, a.loc); });
  def("cross", 2, [](Evaluator& e, CallArgs& a) { return method(e, a.pos[0], "cross", {a.pos[1]}, a.loc); });
  def("distance", 2, [](Evaluator& e, CallArgs& a) {
    return method(e, e.binop(O::Sub, a.pos[0], a.pos[1], a.loc), "norm", {}, a.loc);
  });
  def("reflect", 2, [](Evaluator& e, CallArgs& a) {  // I - 2 dot(N, I) N
    Value d = method(e, a.pos[1], "dot", {a.pos[0]}, a.loc);
    return e.binop(O::Sub, a.pos[0], e.binop(O::Mult, e.binop(O::Mult, num(2.0), d, a.loc), a.pos[1], a.loc), a.loc);
  });
}

}  // namespace kiln::host
