// Vector and matrix types (ti.types.vector/matrix, ti.math.vec3, ...) and
// the ti.Vector / ti.Matrix class objects with their static constructors
// (identity, zero, one, unit, diag, rows, cols) and .field.
#include <cmath>

#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_state.h"

#include "vm/runtime/sizes.h"

namespace kiln::host {

Value construct_matrix(Evaluator& ev, CallArgs& a, bool vector);
Prim np_infer(const std::vector<Value>& vals);
struct ComponentType;
Value create_matrix_field(Evaluator& ev, int64_t n, int64_t m, int ndim, Prim dtype, CallArgs& a,
                          const QuantType* quant = nullptr, const std::vector<ComponentType>* per = nullptr);
Value create_mixed_matrix_field(Evaluator& ev, int64_t n, int64_t m, int ndim, const Value& types, CallArgs& a);

std::string MatrixTypeObj::repr(Evaluator&) const {
  // Taichi's MatrixType.to_string()
  if (ndim == 1) return "VectorType[" + std::to_string(n) + ", " + std::string(prim_name(dtype)) + "]";
  return "MatrixType[" + std::to_string(n) + "," + std::to_string(m) + ", " + std::string(prim_name(dtype)) + "]";
}

// VectorType/MatrixType.__call__: a scalar broadcasts; otherwise the
// arguments (or the one list given) are flattened GLSL-style, so
// vec4(v.xyz, 1.0) concatenates a vector and a scalar.
Value MatrixTypeObj::call(Evaluator& ev, const Value&, CallArgs& a) {
  no_kwargs(a, type_name().c_str());
  if (a.pos.empty()) raise("TaichiSyntaxError", "Custom type instances need to be created with an initial value.", a.loc);
  int total = n * (ndim == 1 ? 1 : m);
  std::vector<Value> entries;
  if (a.pos.size() == 1 && a.pos[0].is_number()) {
    entries.assign((size_t)total, a.pos[0]);
  } else {
    std::vector<Value> args = a.pos;
    if (args.size() == 1) args = ev.to_vector(args[0], a.loc);
    std::function<void(const Value&)> add = [&](const Value& x) {
      if (auto* mo = host_as<MatrixObj>(x)) {
        for (auto& v : mo->values(a.loc)) entries.push_back(v);
      } else if (x.kind == Kind::List || x.kind == Kind::Tuple) {
        for (auto& v : ev.to_vector(x, a.loc)) add(v);
      } else {
        entries.push_back(x);
      }
    };
    for (auto& x : args) add(x);
  }
  if ((int)entries.size() < total) raise("IndexError", "list index out of range", a.loc);
  entries.resize((size_t)total);
  // Python scope: int(e) for integer types, float(e) otherwise, then the dtype.
  for (auto& e : entries) {
    if (!e.is_number()) np_cast(ev, e, Prim::f64, a.loc);
    if (prim_is_int(dtype)) e = e.kind == Kind::Float ? Value::integer(float_to_int(e.f, a.loc)) : Value::integer(e.as_int());
    else e = Value::floating(e.as_double());
  }
  return make_matrix(ev, n, m, ndim, dtype, std::move(entries), a.loc);
}

bool MatrixTypeObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  if (name == "n") { out = Value::integer(n); return true; }
  if (name == "m") { out = Value::integer(m); return true; }
  if (name == "ndim") { out = Value::integer(ndim); return true; }
  if (name == "dtype") { out = Value::of(std::make_shared<DTypeObj>(dtype)); return true; }
  if (name == "field") {
    auto me = self.ptr<MatrixTypeObj>();
    out = make_builtin("field", [me](Evaluator& ev, CallArgs& a) {
      if (!a.pos.empty()) raise("TypeError", "field() takes keyword arguments only (shape=..., name=...)", a.loc);
      return create_matrix_field(ev, me->n, me->m, me->ndim, me->dtype, a);
    });
    return true;
  }
  return false;
}

namespace {

Value matrix_type(Evaluator& ev, int64_t n, int64_t m, int ndim, Prim p, SourceLoc loc = {}) {
  if (ndim == 1) check_vector_components(n, loc);
  else check_matrix_components(n, m, loc);
  auto t = std::make_shared<MatrixTypeObj>();
  t->n = (int)n;
  t->m = ndim == 1 ? 1 : (int)m;
  t->ndim = ndim;
  t->dtype = p;
  return Value::of(t);
}

// ti.Vector / ti.Matrix: callable constructors with static helpers.
struct MatrixClassObj : HostObj {
  bool vector = false;
  std::string type_name() const override { return "type"; }
  std::string repr(Evaluator&) const override {
    return vector ? "<class 'taichi.lang.matrix.Vector'>" : "<class 'taichi.lang.matrix.Matrix'>";
  }
  bool callable() const override { return true; }
  Value call(Evaluator& ev, const Value&, CallArgs& a) override { return construct_matrix(ev, a, vector); }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
};

Value filled(Evaluator& ev, Prim p, int n, int m, int ndim, const std::function<Value(int, int)>& at, SourceLoc loc) {
  std::vector<Value> vals;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < (ndim == 1 ? 1 : m); j++) vals.push_back(at(i, j));
  return make_matrix(ev, n, m, ndim, p, std::move(vals), loc);
}

// Matrix.rows: every row a vector or a list, all of one shape.
Value rows_of(Evaluator& ev, const Value& rows, SourceLoc loc) {
  if (rows.kind != Kind::List && rows.kind != Kind::Tuple) raise("TaichiCompilationError", "Cols/rows must be a list of lists, or a list of vectors", loc);
  std::vector<Value> vals;
  int n = 0, m = -1;
  Prim p = Prim::none;
  bool have_p = false;
  for (auto& r : ev.to_vector(rows, loc)) {
    std::vector<Value> row;
    if (auto* mo = host_as<MatrixObj>(r)) {
      if (mo->ndim != 1) raise("TaichiCompilationError", "Cols/rows must be a list of lists, or a list of vectors", loc);
      row = mo->values(loc);
      Prim t = mo->field ? np_infer(row) : mo->dtype;
      p = have_p ? np_promote(p, t) : t;
      have_p = true;
    } else if (r.kind == Kind::List) {
      row = ev.to_vector(r, loc);
      Prim t = np_infer(row);
      p = have_p ? np_promote(p, t) : t;
      have_p = true;
    } else {
      raise("TaichiCompilationError", "Cols/rows must be a list of lists, or a list of vectors", loc);
    }
    if (m >= 0 && (int)row.size() != m) raise("TaichiCompilationError", "required shapes to be the same", loc);
    m = (int)row.size();
    vals.insert(vals.end(), row.begin(), row.end());
    n++;
  }
  return make_matrix(ev, n, m < 0 ? 0 : m, 2, have_p ? p : Prim::f64, std::move(vals), loc);
}

bool MatrixClassObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  bool vec = vector;
  auto def = [&](NativeFn fn) {
    // named as the frontend knows them inside kernels ("ti.Matrix.identity")
    out = make_builtin(std::string(vec ? "ti.Vector." : "ti.Matrix.") + name, std::move(fn));
    return true;
  };
  if (name == "ndarray") return def([vec](Evaluator& ev, CallArgs& a) { return matrix_class_ndarray(ev, a, vec); });
  if (name == "field") {
    return def([vec](Evaluator& ev, CallArgs& a) {
      Value v;
      std::vector<Value> head;  // n, [m,] dtype: positional or keyword
      size_t want = vec ? 2 : 3;
      for (size_t k = 0; k < a.pos.size() && k < want; k++) head.push_back(a.pos[k]);
      std::vector<Value> rest(a.pos.begin() + (long)std::min(a.pos.size(), want), a.pos.end());
      const char* names[] = {"n", "m", "dtype"};
      for (size_t k = head.size(); k < want; k++) {
        const char* nm = vec && k == 1 ? "dtype" : names[k];
        if (!a.take_kw(nm, v)) raise("TypeError", std::string("field() missing required argument: '") + nm + "'", a.loc);
        head.push_back(v);
      }
      if (!rest.empty()) a.kw.insert(a.kw.begin(), {"shape", rest[0]});
      a.pos.clear();
      int64_t n = arg_int(ev, head[0], "field", a.loc);
      int64_t m = vec ? 1 : arg_int(ev, head[1], "field", a.loc);
      if (head.back().kind == Kind::List || head.back().kind == Kind::Tuple)
        return create_mixed_matrix_field(ev, n, m, vec ? 1 : 2, head.back(), a);
      const QuantType* q = quant_type_of(head.back());
      Prim p = q ? q->compute : dtype_prim(ev, head.back(), a.loc);
      return create_matrix_field(ev, n, m, vec ? 1 : 2, p, a, q);
    });
  }
  if (name == "identity") {
    return def([](Evaluator& ev, CallArgs& a) {
      expect_args(a, "identity", 2, 2);
      Prim p = dtype_prim(ev, a.pos[0], a.loc);
      int n = (int)arg_int(ev, a.pos[1], "identity", a.loc);
      return filled(ev, p, n, n, 2, [](int i, int j) { return Value::integer(i == j); }, a.loc);
    });
  }
  if (name == "zero" || name == "one") {
    int64_t val = name == "one";
    return def([val](Evaluator& ev, CallArgs& a) {
      expect_args(a, "zero", 2, 3);
      Prim p = dtype_prim(ev, a.pos[0], a.loc);
      int n = (int)arg_int(ev, a.pos[1], "zero", a.loc);
      bool mat = a.pos.size() == 3 && !a.pos[2].is_none();
      int m = mat ? (int)arg_int(ev, a.pos[2], "zero", a.loc) : 1;
      return filled(ev, p, n, m, mat ? 2 : 1, [val](int, int) { return Value::integer(val); }, a.loc);
    });
  }
  if (name == "unit") {
    return def([](Evaluator& ev, CallArgs& a) {
      Value dt;
      a.take_kw("dt", dt);
      expect_args(a, "unit", 2, 3);
      if (a.pos.size() == 3) dt = a.pos[2];
      int n = (int)arg_int(ev, a.pos[0], "unit", a.loc);
      int64_t i = arg_int(ev, a.pos[1], "unit", a.loc);
      if (i < 0 || i >= n) raise("AssertionError", "", a.loc);
      Prim p = dt.is_none() ? ti_program(ev).config.types.default_ip : dtype_prim(ev, dt, a.loc);
      return filled(ev, p, n, 1, 1, [i](int k, int) { return Value::integer(k == i); }, a.loc);
    });
  }
  if (name == "diag") {
    return def([](Evaluator& ev, CallArgs& a) {
      expect_args(a, "diag", 2, 2);
      int n = (int)arg_int(ev, a.pos[0], "diag", a.loc);
      Value val = a.pos[1];
      std::vector<Value> probe = {val, Value::integer(0)};
      return filled(ev, np_infer(probe), n, n, 2, [val](int i, int j) { return i == j ? val : Value::integer(0); }, a.loc);
    });
  }
  if (name == "rows" || name == "cols") {
    bool cols = name == "cols";
    return def([cols](Evaluator& ev, CallArgs& a) {
      expect_args(a, cols ? "cols" : "rows", 1, 1);
      Value r = rows_of(ev, a.pos[0], a.loc);
      if (!cols) return r;
      return ev.call(ev.get_attr(r, "transpose", a.loc), {}, a.loc);
    });
  }
  return false;
}

Value types_vector(Evaluator& ev, CallArgs& a) {
  Value dt;
  a.take_kw("dtype", dt);
  Value nv;
  if (a.take_kw("n", nv)) a.pos.insert(a.pos.begin(), nv);
  no_kwargs(a, "vector");
  expect_args(a, "vector", 1, 2);
  if (a.pos.size() == 2) dt = a.pos[1];
  Prim p = dt.is_none() ? ti_program(ev).config.types.default_fp : dtype_prim(ev, dt, a.loc);
  return matrix_type(ev, arg_int(ev, a.pos[0], "vector", a.loc), 1, 1, p, a.loc);
}

Value types_matrix(Evaluator& ev, CallArgs& a) {
  Value dt;
  a.take_kw("dtype", dt);
  no_kwargs(a, "matrix");
  expect_args(a, "matrix", 2, 3);
  if (a.pos.size() == 3) dt = a.pos[2];
  Prim p = dt.is_none() ? ti_program(ev).config.types.default_fp : dtype_prim(ev, dt, a.loc);
  return matrix_type(ev, arg_int(ev, a.pos[0], "matrix", a.loc), arg_int(ev, a.pos[1], "matrix", a.loc), 2, p, a.loc);
}

}  // namespace

std::string matrix_class_builtin(const Value& v) {
  auto* c = host_as<MatrixClassObj>(v);
  return c ? (c->vector ? "ti.Vector" : "ti.Matrix") : "";
}

Value types_struct(Evaluator& ev, CallArgs& a);
void install_ti_math_funcs(Evaluator& ev, ModuleObj& math);
Value struct_class(Evaluator& ev);
Value dataclass_decorator(Evaluator& ev, CallArgs& a);

// ti.sqrt(v) and friends on a host matrix apply numpy's ufunc elementwise
// (Taichi's ops._unary_operation): ints compute in float64, floats keep their dtype.
static void wrap_elementwise(ModuleObj& ti) {
  for (const char* n : {"sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan", "tanh", "exp", "log", "floor", "ceil", "round"}) {
    auto it = ti.attrs.find(n);
    if (it == ti.attrs.end() || it->second.kind != Kind::Builtin) continue;
    Value scalar = it->second;
    std::string name = n;
    bool rounding = name == "floor" || name == "ceil" || name == "round";
    // the same builtin name: kernels still see the intrinsic "ti.sqrt"
    it->second = make_builtin(scalar.as<BuiltinObj>()->name, [scalar, rounding](Evaluator& ev, CallArgs& a) -> Value {
      auto* mo = a.pos.size() == 1 && a.kw.empty() ? host_as<MatrixObj>(a.pos[0]) : nullptr;
      if (!mo) return ev.call(scalar, a);
      Prim dt = mo->field ? np_infer(mo->values(a.loc)) : mo->dtype;
      Prim rt = prim_is_float(dt) ? dt : Prim::f64;
      std::vector<Value> vals;
      for (auto& x : mo->values(a.loc)) {
        Value r = ev.call(scalar, {Value::floating(x.as_double())}, a.loc);
        vals.push_back(rounding && !prim_is_float(dt) ? x : r);
      }
      return make_matrix(ev, mo->n, mo->m, mo->ndim, rounding && !prim_is_float(dt) ? dt : rt, std::move(vals), a.loc);
    });
  }
}

void install_ti_compound(Evaluator& ev, ModuleObj& ti) {
  wrap_elementwise(ti);
  auto vcls = std::make_shared<MatrixClassObj>();
  vcls->vector = true;
  ti.attrs["Vector"] = Value::of(vcls);
  ti.attrs["Matrix"] = Value::of(std::make_shared<MatrixClassObj>());
  ti.attrs["Struct"] = struct_class(ev);
  ti.attrs["dataclass"] = make_builtin("ti.dataclass", dataclass_decorator);

  // ti.Layout.AOS / SOA for compound fields' layout= (compared by value)
  auto layout = std::make_shared<ModuleObj>();
  layout->name = "Layout";
  layout->attrs["AOS"] = Value::str("Layout.AOS");
  layout->attrs["SOA"] = Value::str("Layout.SOA");
  ti.attrs["Layout"] = Value::of(layout);

  auto types = std::make_shared<ModuleObj>();
  types->name = "taichi.types";
  types->attrs["vector"] = make_builtin("ti.types.vector", types_vector);
  types->attrs["matrix"] = make_builtin("ti.types.matrix", types_matrix);
  types->attrs["struct"] = make_builtin("ti.types.struct", types_struct);
  for (int k = 0; k < kNumPrims; k++) {
    std::string n(prim_name((Prim)k));
    types->attrs[n] = ti.attrs[n];
  }
  if (ti.attrs.count("template")) types->attrs["template"] = ti.attrs["template"];
  install_ti_ndarray(ev, ti, *types);
  install_ti_quant(ev, ti, *types);
  install_ti_linalg(ev, ti, *types);
  ti.attrs["types"] = Value::of(types);

  // ti.math's vector types are made when taichi is imported, before any
  // ti.init: Taichi's default f32 / i32 / u32, whatever default_fp says later.
  auto math = std::make_shared<ModuleObj>();
  math->name = "taichi.math";
  for (int n = 2; n <= 4; n++) {
    std::string d = std::to_string(n);
    math->attrs["vec" + d] = matrix_type(ev, n, 1, 1, Prim::f32);
    math->attrs["ivec" + d] = matrix_type(ev, n, 1, 1, Prim::i32);
    math->attrs["uvec" + d] = matrix_type(ev, n, 1, 1, Prim::u32);
    math->attrs["mat" + d] = matrix_type(ev, n, n, 2, Prim::f32);
  }
  math->attrs["pi"] = Value::floating(3.141592653589793);
  math->attrs["e"] = Value::floating(2.718281828459045);
  math->attrs["inf"] = Value::floating(INFINITY);
  math->attrs["nan"] = Value::floating(NAN);
  install_ti_math_funcs(ev, *math);
  // ti.math.sqrt and the other scalar intrinsics are the ti.* ones.
  for (const char* n : {"sqrt", "sin", "cos", "tan", "asin", "acos", "atan2", "tanh", "exp", "log", "floor", "ceil",
                        "round", "pow", "max", "min", "abs"})
    if (ti.attrs.count(n)) math->attrs[n] = ti.attrs[n];
  ti.attrs["math"] = Value::of(math);
}

}  // namespace kiln::host
