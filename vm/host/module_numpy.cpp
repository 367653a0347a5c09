// The host `numpy` module (`import numpy as np`): array creation, dtypes,
// ufuncs, reductions and .npy files over NpArrayObj (np_array.h). It covers
// the way Taichi programs use numpy; what it leaves out raises
// AttributeError("module 'numpy' has no attribute ...") like any missing name.
#include <cmath>
#include <cstring>

#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"

namespace kiln::host {

namespace {

using ArrPtr = std::shared_ptr<NpArrayObj>;

std::vector<int64_t> shape_arg(Evaluator& ev, const Value& v, const char* fname, SourceLoc loc) {
  std::vector<int64_t> s;
  if (v.kind == Kind::Tuple || v.kind == Kind::List) {
    for (auto& x : ev.to_vector(v, loc)) s.push_back(arg_int(ev, x, fname, loc));
  } else {
    s.push_back(arg_int(ev, v, fname, loc));
  }
  for (auto d : s)
    if (d < 0) raise("ValueError", "negative dimensions are not allowed", loc);
  return s;
}

// Takes the `dtype` keyword (or the positional argument at `pos`); `has` says whether one was given.
Prim take_dtype(Evaluator& ev, CallArgs& a, size_t pos, Prim def, bool* has = nullptr) {
  Value d;
  bool given = a.take_kw("dtype", d);
  if (!given && a.pos.size() > pos) {
    d = a.pos[pos];
    given = true;
  }
  if (given && d.is_none()) given = false;
  if (has) *has = given;
  return given ? np_dtype_arg(ev, d, a.loc) : def;
}

void no_more_kwargs(const CallArgs& a, const char* fname) {
  if (!a.kw.empty())
    raise("TypeError", std::string(fname) + "() got an unexpected keyword argument '" + a.kw[0].first + "'", a.loc);
}

Value filled(Evaluator& ev, Prim dt, std::vector<int64_t> shape, const Value& v, SourceLoc loc) {
  auto r = np_new(dt, std::move(shape));
  if (v.is_number() && v.as_double() == 0 && !(v.kind == Kind::Float && std::signbit(v.f))) return Value::of(r);
  auto src = np_new(dt, {});
  NpArrayObj::store(ev, dt, src->data(), v, loc);
  np_assign(ev, *r, *src, loc);
  return Value::of(r);
}

ArrPtr arr_arg(Evaluator& ev, const Value& v, SourceLoc loc) { return np_from_value(ev, v, false, Prim::none, loc); }

// np.sum(a, axis=None) and friends, as functions.
NativeFn reduction_fn(const std::string& what) {
  return [what](Evaluator& ev, CallArgs& a) {
    Value axis;
    bool has_axis = a.take_kw("axis", axis);
    no_more_kwargs(a, what.c_str());
    expect_args(a, what.c_str(), 1, 2);
    if (a.pos.size() == 2) {
      axis = a.pos[1];
      has_axis = true;
    }
    if (has_axis && axis.is_none()) has_axis = false;
    auto arr = arr_arg(ev, a.pos[0], a.loc);
    return np_reduce(ev, what, *arr, has_axis, has_axis ? arg_int(ev, axis, what.c_str(), a.loc) : 0, a.loc);
  };
}

// np.concatenate: every array copied into its slab of the result along `axis`.
Value concatenate(Evaluator& ev, const std::vector<ArrPtr>& arrs, int64_t axis, SourceLoc loc) {
  if (arrs.empty()) raise("ValueError", "need at least one array to concatenate", loc);
  int nd = arrs[0]->ndim();
  if (nd == 0) raise("ValueError", "zero-dimensional arrays cannot be concatenated", loc);
  if (axis < -nd || axis >= nd)
    raise("AxisError", "axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(nd), loc);
  if (axis < 0) axis += nd;
  std::vector<int64_t> shape = arrs[0]->shape;
  Prim dt = arrs[0]->dtype;
  shape[(size_t)axis] = 0;
  for (size_t k = 0; k < arrs.size(); k++) {
    const NpArrayObj& a = *arrs[k];
    if (a.ndim() != nd)
      raise("ValueError", "all the input arrays must have same number of dimensions, but the array at index 0 has " +
                              std::to_string(nd) + " dimension(s) and the array at index " + std::to_string(k) + " has " +
                              std::to_string(a.ndim()) + " dimension(s)", loc);
    for (int d = 0; d < nd; d++)
      if (d != axis && a.shape[(size_t)d] != arrs[0]->shape[(size_t)d])
        raise("ValueError", "all the input array dimensions except for the concatenation axis must match exactly, but along dimension " +
                                std::to_string(d) + ", the array at index 0 has size " + std::to_string(arrs[0]->shape[(size_t)d]) +
                                " and the array at index " + std::to_string(k) + " has size " + std::to_string(a.shape[(size_t)d]), loc);
    shape[(size_t)axis] += a.shape[(size_t)axis];
    if (k) dt = np_promote(dt, a.dtype);
  }
  auto r = np_new(dt, shape);
  int64_t off = 0;
  for (auto& a : arrs) {
    auto view = np_view(*r, a->shape, r->strides, r->offset + off * r->strides[(size_t)axis]);
    np_assign(ev, *view, *a, loc);
    off += a->shape[(size_t)axis];
  }
  return Value::of(r);
}

// A view of `a` with a new size-1 axis at `axis`.
ArrPtr with_axis(const ArrPtr& a, int64_t axis) {
  auto shape = a->shape;
  auto strides = a->strides;
  shape.insert(shape.begin() + axis, 1);
  strides.insert(strides.begin() + axis, 0);
  return np_view(*a, shape, strides, a->offset);
}

std::vector<ArrPtr> array_list(Evaluator& ev, const Value& seq, SourceLoc loc) {
  std::vector<ArrPtr> out;
  for (auto& v : ev.to_vector(seq, loc)) out.push_back(arr_arg(ev, v, loc));
  return out;
}

// The (sequence of arrays, axis=0) arguments of concatenate and stack.
std::vector<ArrPtr> seq_and_axis(Evaluator& ev, CallArgs& a, const char* fname, Value& axis) {
  axis = Value::integer(0);
  a.take_kw("axis", axis);
  no_more_kwargs(a, fname);
  expect_args(a, fname, 1, 2);
  if (a.pos.size() == 2) axis = a.pos[1];
  return array_list(ev, a.pos[0], a.loc);
}

Value make_numpy(Evaluator& ev) {
  auto m = std::make_shared<ModuleObj>();
  m->name = "numpy";
  auto def = [&](const char* name, NativeFn fn) { m->attrs[name] = make_builtin(std::string("numpy.") + name, std::move(fn)); };

  static const std::pair<const char*, Prim> dtypes[] = {
      {"bool_", Prim::none}, {"int8", Prim::i8},       {"int16", Prim::i16},     {"int32", Prim::i32},
      {"int64", Prim::i64},  {"uint8", Prim::u8},      {"uint16", Prim::u16},    {"uint32", Prim::u32},
      {"uint64", Prim::u64}, {"float16", Prim::f16},   {"float32", Prim::f32},   {"float64", Prim::f64},
      {"half", Prim::f16},   {"single", Prim::f32},    {"double", Prim::f64},    {"intc", Prim::i32},
      {"int_", Prim::i64},   {"float_", Prim::f64},    {"ubyte", Prim::u8},      {"byte", Prim::i8}};
  for (auto& [n, p] : dtypes) m->attrs[n] = np_dtype_value(p, true);
  m->attrs["pi"] = Value::floating(M_PI);
  m->attrs["e"] = Value::floating(M_E);
  m->attrs["inf"] = Value::floating(INFINITY);
  m->attrs["nan"] = Value::floating(NAN);
  m->attrs["newaxis"] = Value();
  m->attrs["random"] = make_np_random(ev);

  def("dtype", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "dtype", 1, 1);
    return np_dtype_value(np_dtype_arg(ev, a.pos[0], a.loc), false);
  });
  auto array_fn = [](bool copy) {
    return [copy](Evaluator& ev, CallArgs& a) {
      bool has = false;
      Prim dt = take_dtype(ev, a, 1, Prim::none, &has);
      no_more_kwargs(a, "array");
      expect_args(a, "array", 1, 2);
      auto r = np_from_value(ev, a.pos[0], has, dt, a.loc);
      if (copy && np_as(a.pos[0]) && r.get() == np_as(a.pos[0])) r = np_copy(ev, *r, r->dtype, a.loc);
      r->scalar = false;
      return Value::of(r);
    };
  };
  def("array", array_fn(true));
  def("asarray", array_fn(false));
  auto fill_fn = [](const char* name, int value) {
    return [name, value](Evaluator& ev, CallArgs& a) {
      Value shape;
      if (a.take_kw("shape", shape)) a.pos.insert(a.pos.begin(), shape);
      Prim dt = take_dtype(ev, a, 1, Prim::f64);
      no_more_kwargs(a, name);
      expect_args(a, name, 1, 2);
      return filled(ev, dt, shape_arg(ev, a.pos[0], name, a.loc), Value::integer(value), a.loc);
    };
  };
  def("zeros", fill_fn("zeros", 0));
  def("empty", fill_fn("empty", 0));
  def("ones", fill_fn("ones", 1));
  def("full", [](Evaluator& ev, CallArgs& a) {
    bool has = false;
    Value shape, fill;
    if (a.take_kw("shape", shape)) a.pos.insert(a.pos.begin(), shape);
    if (a.take_kw("fill_value", fill)) a.pos.insert(a.pos.begin() + (a.pos.empty() ? 0 : 1), fill);
    Prim dt = take_dtype(ev, a, 2, Prim::f64, &has);
    no_more_kwargs(a, "full");
    expect_args(a, "full", 2, 3);
    if (!has) dt = arr_arg(ev, a.pos[1], a.loc)->dtype;
    return filled(ev, dt, shape_arg(ev, a.pos[0], "full", a.loc), a.pos[1], a.loc);
  });
  auto like_fn = [](const char* name, int value) {
    return [name, value](Evaluator& ev, CallArgs& a) {
      auto src = arr_arg(ev, a.pos.empty() ? Value() : a.pos[0], a.loc);
      Prim dt = take_dtype(ev, a, 1, src->dtype);
      no_more_kwargs(a, name);
      expect_args(a, name, 1, 2);
      return filled(ev, dt, src->shape, Value::integer(value), a.loc);
    };
  };
  def("zeros_like", like_fn("zeros_like", 0));
  def("empty_like", like_fn("empty_like", 0));
  def("ones_like", like_fn("ones_like", 1));
  def("full_like", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "full_like", 2, 3);
    auto src = arr_arg(ev, a.pos[0], a.loc);
    Prim dt = take_dtype(ev, a, 2, src->dtype);
    no_more_kwargs(a, "full_like");
    return filled(ev, dt, src->shape, a.pos[1], a.loc);
  });
  def("arange", [](Evaluator& ev, CallArgs& a) {
    bool has = false;
    Prim dt = take_dtype(ev, a, 99, Prim::none, &has);
    no_more_kwargs(a, "arange");
    expect_args(a, "arange", 1, 3);
    Value start = Value::integer(0), stop, step = Value::integer(1);
    if (a.pos.size() == 1) stop = a.pos[0];
    else {
      start = a.pos[0];
      stop = a.pos[1];
      if (a.pos.size() == 3) step = a.pos[2];
    }
    for (auto* v : {&start, &stop, &step})
      if (!v->is_number()) raise("TypeError", "unsupported operand type(s) for -: '" + ev.type_name(*v) + "' and 'int'", a.loc);
    bool flt = start.kind == Kind::Float || stop.kind == Kind::Float || step.kind == Kind::Float;
    if (!has) dt = flt ? Prim::f64 : Prim::i64;
    double d = step.as_double();
    if (d == 0) raise("ZeroDivisionError", "division by zero", a.loc);
    double len = std::ceil((stop.as_double() - start.as_double()) / d);
    int64_t n = len > 0 ? (int64_t)len : 0;
    auto r = np_new(dt, {n});
    int64_t is = r->itemsize();
    for (int64_t k = 0; k < n; k++) {
      Value v = flt ? Value::floating(start.as_double() + (double)k * d) : Value::integer(start.as_int() + k * step.as_int());
      NpArrayObj::store(ev, dt, r->data() + k * is, v, a.loc);
    }
    return Value::of(r);
  });
  def("linspace", [](Evaluator& ev, CallArgs& a) {
    bool has = false;
    Prim dt = take_dtype(ev, a, 99, Prim::f64, &has);
    Value num = Value::integer(50), endpoint = Value::boolean(true);
    a.take_kw("num", num);
    a.take_kw("endpoint", endpoint);
    no_more_kwargs(a, "linspace");
    expect_args(a, "linspace", 2, 3);
    if (a.pos.size() == 3) num = a.pos[2];
    int64_t n = arg_int(ev, num, "linspace", a.loc);
    if (n < 0) raise("ValueError", "Number of samples, " + std::to_string(n) + ", must be non-negative.", a.loc);
    double lo = arg_float(ev, a.pos[0], "linspace", a.loc), hi = arg_float(ev, a.pos[1], "linspace", a.loc);
    bool ep = ev.truthy(endpoint, a.loc);
    int64_t div = ep ? n - 1 : n;
    double step = div > 0 ? (hi - lo) / (double)div : NAN;
    auto r = np_new(dt, {n});
    int64_t is = r->itemsize();
    for (int64_t k = 0; k < n; k++) {
      double v = div > 0 ? (double)k * step + lo : (double)k * (hi - lo) + lo;
      if (ep && n > 1 && k == n - 1) v = hi;
      NpArrayObj::store(ev, dt, r->data() + k * is, Value::floating(v), a.loc);
    }
    return Value::of(r);
  });
  for (const char* name : {"sqrt", "abs", "absolute", "exp", "log", "sin", "cos", "tan", "arctan", "tanh", "floor",
                           "ceil", "square", "negative"}) {
    std::string n = name;
    def(name, [n](Evaluator& ev, CallArgs& a) {
      expect_args(a, n.c_str(), 1, 1);
      return np_ufunc1(ev, n, a.pos[0], a.loc);
    });
  }
  for (const char* name : {"sum", "min", "max", "amin", "amax", "mean", "prod", "any", "all", "argmin", "argmax"}) {
    std::string what = name;
    if (what == "amin") what = "min";
    if (what == "amax") what = "max";
    def(name, reduction_fn(what));
  }
  auto binary = [](ast::BinOpKind op, const char* name) {
    return [op, name](Evaluator& ev, CallArgs& a) {
      expect_args(a, name, 2, 2);
      return ev.binop(op, Value::of(arr_arg(ev, a.pos[0], a.loc)), a.pos[1], a.loc);
    };
  };
  def("add", binary(ast::BinOpKind::Add, "add"));
  def("subtract", binary(ast::BinOpKind::Sub, "subtract"));
  def("multiply", binary(ast::BinOpKind::Mult, "multiply"));
  def("divide", binary(ast::BinOpKind::Div, "divide"));
  def("dot", binary(ast::BinOpKind::MatMult, "dot"));
  def("matmul", binary(ast::BinOpKind::MatMult, "matmul"));
  auto minmax = [](bool mx) {
    return [mx](Evaluator& ev, CallArgs& a) {
      expect_args(a, mx ? "maximum" : "minimum", 2, 2);
      Value lt, x = Value::of(arr_arg(ev, a.pos[0], a.loc)), y = Value::of(arr_arg(ev, a.pos[1], a.loc));
      np_compare(ev, mx ? ast::CmpOpKind::GtE : ast::CmpOpKind::LtE, x, y, a.loc, lt);
      return ev.call(ev.get_attr(ev.import_module("numpy", a.loc), "where", a.loc), {lt, x, y}, a.loc);
    };
  };
  def("maximum", minmax(true));
  def("minimum", minmax(false));
  def("where", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "where", 3, 3);
    auto c = arr_arg(ev, a.pos[0], a.loc), x = arr_arg(ev, a.pos[1], a.loc), y = arr_arg(ev, a.pos[2], a.loc);
    auto shape = np_broadcast_shape(np_broadcast_shape(c->shape, x->shape, a.loc), y->shape, a.loc);
    Prim dt = np_promote(x->dtype, y->dtype);
    auto r = np_new(dt, shape);
    auto cb = np_new(Prim::none, shape), xb = np_new(dt, shape), yb = np_new(dt, shape);
    np_assign(ev, *cb, *c, a.loc);
    np_assign(ev, *xb, *x, a.loc);
    np_assign(ev, *yb, *y, a.loc);
    int64_t n = r->size(), is = r->itemsize();
    for (int64_t k = 0; k < n; k++) std::memcpy(r->data() + k * is, (cb->data()[k] ? xb : yb)->data() + k * is, (size_t)is);
    return Value::of(r);
  });
  def("allclose", [](Evaluator& ev, CallArgs& a) {
    Value rtol = Value::floating(1e-5), atol = Value::floating(1e-8);
    a.take_kw("rtol", rtol);
    a.take_kw("atol", atol);
    no_more_kwargs(a, "allclose");
    expect_args(a, "allclose", 2, 4);
    if (a.pos.size() > 2) rtol = a.pos[2];
    if (a.pos.size() > 3) atol = a.pos[3];
    auto x = arr_arg(ev, a.pos[0], a.loc), y = arr_arg(ev, a.pos[1], a.loc);
    double rt = arg_float(ev, rtol, "allclose", a.loc), at = arg_float(ev, atol, "allclose", a.loc);
    Value diff;
    auto xf = np_copy(ev, *x, Prim::f64, a.loc), yf = np_copy(ev, *y, Prim::f64, a.loc);
    np_binop(ev, ast::BinOpKind::Sub, Value::of(xf), Value::of(yf), a.loc, diff);
    auto d = np_from_value(ev, diff, false, Prim::none, a.loc);
    auto yb = np_new(Prim::f64, d->shape);
    np_assign(ev, *yb, *yf, a.loc);
    for (int64_t k = 0; k < d->size(); k++) {
      double dv = std::fabs(d->get_flat(k).f), yv = std::fabs(yb->get_flat(k).f);
      if (std::isnan(dv) || !(dv <= at + rt * yv)) {
        // equal infinities count as close
        if (std::isinf(yv) && std::isnan(dv)) {
          auto xb = np_new(Prim::f64, d->shape);
          np_assign(ev, *xb, *xf, a.loc);
          if (xb->get_flat(k).f == yb->get_flat(k).f) continue;
        }
        return Value::boolean(false);
      }
    }
    return Value::boolean(true);
  });
  def("array_equal", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "array_equal", 2, 2);
    auto x = arr_arg(ev, a.pos[0], a.loc), y = arr_arg(ev, a.pos[1], a.loc);
    if (x->shape != y->shape) return Value::boolean(false);
    Value eq;
    np_compare(ev, ast::CmpOpKind::Eq, Value::of(x), Value::of(y), a.loc, eq);
    auto e = np_from_value(ev, eq, false, Prim::none, a.loc);
    for (int64_t k = 0; k < e->size(); k++)
      if (!e->get_flat(k).b) return Value::boolean(false);
    return Value::boolean(true);
  });
  def("concatenate", [](Evaluator& ev, CallArgs& a) {
    Value axis;
    auto arrs = seq_and_axis(ev, a, "concatenate", axis);
    if (axis.is_none()) {  // flattened first
      for (auto& x : arrs) x = np_from_value(ev, ev.call(ev.get_attr(Value::of(x), "ravel", a.loc), {}, a.loc), false, Prim::none, a.loc);
      axis = Value::integer(0);
    }
    return concatenate(ev, arrs, arg_int(ev, axis, "concatenate", a.loc), a.loc);
  });
  def("stack", [](Evaluator& ev, CallArgs& a) {
    Value axis;
    auto arrs = seq_and_axis(ev, a, "stack", axis);
    if (arrs.empty()) raise("ValueError", "need at least one array to stack", a.loc);
    for (auto& x : arrs)
      if (x->shape != arrs[0]->shape) raise("ValueError", "all input arrays must have the same shape", a.loc);
    int64_t nd = arrs[0]->ndim() + 1, ax = arg_int(ev, axis, "stack", a.loc);
    if (ax < -nd || ax >= nd)
      raise("AxisError", "axis " + std::to_string(ax) + " is out of bounds for array of dimension " + std::to_string(nd), a.loc);
    if (ax < 0) ax += nd;
    for (auto& x : arrs) x = with_axis(x, ax);
    return concatenate(ev, arrs, ax, a.loc);
  });
  def("vstack", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "vstack", 1, 1);
    auto arrs = array_list(ev, a.pos[0], a.loc);
    for (auto& x : arrs)
      if (x->ndim() < 2) x = with_axis(x->ndim() == 0 ? with_axis(x, 0) : x, 0);
    return concatenate(ev, arrs, 0, a.loc);
  });
  def("hstack", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "hstack", 1, 1);
    auto arrs = array_list(ev, a.pos[0], a.loc);
    for (auto& x : arrs)
      if (x->ndim() == 0) x = with_axis(x, 0);
    return concatenate(ev, arrs, arrs.empty() || arrs[0]->ndim() == 1 ? 0 : 1, a.loc);
  });
  def("transpose", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "transpose", 1, 1);
    return ev.get_attr(Value::of(arr_arg(ev, a.pos[0], a.loc)), "T", a.loc);
  });
  def("reshape", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "reshape", 2, 2);
    return ev.call(ev.get_attr(Value::of(arr_arg(ev, a.pos[0], a.loc)), "reshape", a.loc), {a.pos[1]}, a.loc);
  });
  def("copy", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "copy", 1, 1);
    auto x = arr_arg(ev, a.pos[0], a.loc);
    return Value::of(np_copy(ev, *x, x->dtype, a.loc));
  });
  def("ascontiguousarray", [](Evaluator& ev, CallArgs& a) {
    bool has = false;
    Prim dt = take_dtype(ev, a, 1, Prim::none, &has);
    no_more_kwargs(a, "ascontiguousarray");
    expect_args(a, "ascontiguousarray", 1, 2);
    auto x = np_from_value(ev, a.pos[0], has, dt, a.loc);
    if (!x->contiguous()) x = np_copy(ev, *x, x->dtype, a.loc);
    return Value::of(x);
  });
  def("save", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "save", 2, 2);
    if (a.pos[0].kind != Kind::Str) raise("TypeError", "np.save expects a file name (str), got '" + ev.type_name(a.pos[0]) + "'", a.loc);
    std::string path = str_of(a.pos[0]);
    if (path.size() < 4 || path.compare(path.size() - 4, 4, ".npy") != 0) path += ".npy";
    np_save(ev, path, *arr_arg(ev, a.pos[1], a.loc), a.loc);
    return Value();
  });
  def("load", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "load", 1, 1);
    if (a.pos[0].kind != Kind::Str) raise("TypeError", "np.load expects a file name (str), got '" + ev.type_name(a.pos[0]) + "'", a.loc);
    return np_load(ev, str_of(a.pos[0]), a.loc);
  });
  return Value::of(m);
}

}  // namespace

void install_module_numpy(Evaluator& ev) { ev.module_factories["numpy"] = make_numpy; }

}  // namespace kiln::host
