// Host ti.Vector / ti.Matrix values: storage, numpy's dtype rules, element
// access, swizzles and printing. Arithmetic and linear algebra are in
// ti_matrix_ops.cpp.
//
// Taichi stores a host matrix as a numpy array (Matrix.entries) and prints
// str(self.to_numpy()), so every rule here is numpy's: Python ints make
// int64, Python floats float64, dt=ti.f32 float32; a vector read from a
// field is np.array(to_list()) of Python values (int64 / float64).
#include <cmath>

#include "vm/host/evaluator.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_state.h"

namespace kiln::host {

Value np_cast(Evaluator& ev, const Value& v, Prim dtype, SourceLoc loc) {
  if (!v.is_number()) {
    if (host_as<MatrixObj>(v) || v.kind == Kind::List || v.kind == Kind::Tuple)
      raise("ValueError", "setting an array element with a sequence.", loc);
    Value f;
    if ((v.kind == Kind::Instance || v.kind == Kind::Host) && ev.try_get_attr(v, "__float__", loc, f))
      return np_cast(ev, ev.call(f, {}, loc), dtype, loc);
    raise("TypeError", "expected a number for a vector element, got '" + ev.type_name(v) + "'", loc);
  }
  if (dtype == Prim::none) return Value::boolean(v.kind == Kind::Float ? v.f != 0 : v.as_int() != 0);
  if (v.kind == Kind::Float) {
    if (prim_is_int(dtype) && !std::isfinite(v.f)) raise("ValueError", "cannot convert float NaN or infinity to integer", loc);
    return from_const(ConstVal::make_float(dtype, v.f));
  }
  return from_const(ConstVal::make_int(dtype, v.as_int()));
}

Value make_matrix(Evaluator& ev, int n, int m, int ndim, Prim dtype, std::vector<Value> vals, SourceLoc loc) {
  auto o = std::make_shared<MatrixObj>();
  o->n = n;
  o->m = ndim == 1 ? 1 : m;
  o->ndim = ndim;
  o->dtype = dtype;
  for (auto& v : vals) v = np_cast(ev, v, dtype, loc);
  o->elems = std::move(vals);
  return Value::of(o);
}

// ---- elements ------------------------------------------------------------------------

static FieldInfo& live_component(const MatrixObj& mo, int64_t k, SourceLoc loc);

Value MatrixObj::get(int64_t k, SourceLoc loc) const {
  if (!field) return elems[(size_t)k];
  FieldInfo& f = live_component(*this, k, loc);
  Program& prog = *field->ti->program;
  return read_element(prog, f, index.data(), (int)index.size(), loc);
}

void MatrixObj::set(Evaluator& ev, int64_t k, const Value& v, SourceLoc loc) {
  if (!field) {
    elems[(size_t)k] = np_cast(ev, v, dtype, loc);
    return;
  }
  if (!v.is_number()) np_cast(ev, v, Prim::f64, loc);  // the same TypeError / ValueError
  FieldInfo& f = live_component(*this, k, loc);
  Program& prog = *field->ti->program;
  write_element(ev, prog, f, index.data(), (int)index.size(), loc, v, loc);
}

std::vector<Value> MatrixObj::values(SourceLoc loc) const {
  if (!field) return elems;
  std::vector<Value> out;
  for (int64_t k = 0; k < size(); k++) out.push_back(get(k, loc));
  return out;
}

static FieldInfo& live_component(const MatrixObj& mo, int64_t k, SourceLoc loc) {
  mo.field->checked(loc);
  return *mo.field->comps[(size_t)k];
}

// The dtype numpy infers for Python values (bool < int64 < float64).
Prim np_infer(const std::vector<Value>& vals) {
  Prim p = Prim::none;
  for (auto& v : vals) {
    if (v.kind == Kind::Float) return Prim::f64;
    if (v.kind == Kind::Int) p = Prim::i64;
  }
  return vals.empty() ? Prim::f64 : p;
}

// The dtype a matrix has as a numpy array (a field-backed one: of its Python values).
Prim matrix_dtype(const MatrixObj& mo, SourceLoc loc) {
  if (!mo.field) return mo.dtype;
  return prim_is_float(mo.field->comps[0]->dtype) ? Prim::f64 : Prim::i64;
}

std::vector<int64_t> matrix_shape(const MatrixObj& mo) {
  if (mo.ndim == 1) return {mo.n};
  return {mo.n, mo.m};
}

std::string MatrixObj::repr(Evaluator& ev) const {
  SourceLoc loc;
  return ndarray_str(ev, matrix_shape(*this), matrix_dtype(*this, loc), [&](int64_t k) { return get(k, loc); });
}

// ---- indexing ------------------------------------------------------------------------

static int64_t norm_axis_index(Evaluator& ev, const Value& v, int64_t size, int axis, SourceLoc loc) {
  if (!v.is_int_like())
    raise("IndexError", "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices", loc);
  int64_t i = v.as_int();
  if (i < -size || i >= size)
    raise("IndexError", "index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) + " with size " + std::to_string(size), loc);
  return i < 0 ? i + size : i;
}

// The flat element index of `key` (Taichi asserts one index per dimension).
static int64_t flat_index(Evaluator& ev, const MatrixObj& mo, const Value& key, SourceLoc loc) {
  std::vector<Value> parts;
  if (key.kind == Kind::Tuple || key.kind == Kind::List) parts = ev.to_vector(key, loc);
  else parts.push_back(key);
  if ((int)parts.size() != mo.ndim)
    raise("AssertionError", "Expected " + std::to_string(mo.ndim) + " indices, got " + std::to_string(parts.size()), loc);
  int64_t i = norm_axis_index(ev, parts[0], mo.n, 0, loc);
  if (mo.ndim == 1) return i;
  return i * mo.m + norm_axis_index(ev, parts[1], mo.m, 1, loc);
}

bool MatrixObj::get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) {
  if (key.kind == Kind::Slice && ndim == 1) {  // Kiln: a vector slice is a vector
    Value items = ev.get_item(make_list(values(loc)), key, loc);
    auto vals = ev.to_vector(items, loc);
    int n2 = (int)vals.size();
    out = make_matrix(ev, n2, 1, 1, matrix_dtype(*this, loc), std::move(vals), loc);
    return true;
  }
  out = get(flat_index(ev, *this, key, loc), loc);
  return true;
}

bool MatrixObj::set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) {
  set(ev, flat_index(ev, *this, key, loc), v, loc);
  return true;
}

bool MatrixObj::as_iterable(Evaluator& ev, SourceLoc loc, Value& out) {
  auto vals = values(loc);
  if (ndim == 1) {
    out = make_list(std::move(vals));
    return true;
  }
  std::vector<Value> rows;  // a matrix iterates over its rows, as lists
  for (int i = 0; i < n; i++) rows.push_back(make_list(std::vector<Value>(vals.begin() + i * m, vals.begin() + (i + 1) * m)));
  out = make_list(std::move(rows));
  return true;
}

// ---- swizzles (GLSL: xyzw, rgba, stpq) ------------------------------------------------

// The component indices of swizzle `name`, or false when it is not one.
static bool swizzle(const std::string& name, int n, std::vector<int>& idx, SourceLoc loc) {
  static const char* groups[] = {"xyzw", "rgba", "stpq"};
  if (name.empty() || name.size() > 4) return false;
  for (const char* g : groups) {
    std::string grp = g;
    idx.clear();
    bool ok = true;
    for (char c : name) {
      size_t p = grp.find(c);
      if (p == std::string::npos) { ok = false; break; }
      idx.push_back((int)p);
    }
    if (!ok) continue;
    for (int i : idx)
      if (i >= n) {
        // Taichi's message: vec2 only has attributes=('x', 'y'), got=('z',)
        std::string have = "(", got = "(";
        for (int k = 0; k < n; k++) have += std::string(k ? ", '" : "'") + grp[(size_t)k] + "'";
        for (size_t k = 0; k < name.size(); k++) got += std::string(k ? ", '" : "'") + name[k] + "'";
        have += n == 1 ? ",)" : ")";
        got += name.size() == 1 ? ",)" : ")";
        raise("TaichiSyntaxError", "vec" + std::to_string(n) + " only has attributes=" + have + ", got=" + got, loc);
      }
    return true;
  }
  return false;
}

bool MatrixObj::set_attr(Evaluator& ev, const std::string& name, const Value& v, SourceLoc loc) {
  std::vector<int> idx;
  if (!swizzle(name, n, idx, loc)) return false;
  if (idx.size() == 1) {
    set_item(ev, Value::integer(idx[0]), v, loc);
    return true;
  }
  std::vector<Value> src = ev.to_vector(v, loc);
  if (src.size() != idx.size())
    raise("TaichiRuntimeError", "value len does not match the swizzle pattern=" + name, loc);
  for (size_t k = 0; k < idx.size(); k++) set_item(ev, Value::integer(idx[k]), src[k], loc);
  return true;
}

bool matrix_method(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out);

bool MatrixObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  if (name == "n") { out = Value::integer(n); return true; }
  if (name == "m") { out = Value::integer(m); return true; }
  if (name == "ndim") { out = Value::integer(ndim); return true; }
  std::vector<int> idx;
  if (swizzle(name, n, idx, loc)) {
    if (idx.size() == 1) return get_item(ev, Value::integer(idx[0]), loc, out);
    std::vector<Value> vals;
    for (int i : idx) vals.push_back(get(flat_index(ev, *this, Value::integer(i), loc), loc));
    int len = (int)vals.size();  // not in the call: argument order is unspecified
    out = make_matrix(ev, len, 1, 1, matrix_dtype(*this, loc), std::move(vals), loc);
    return true;
  }
  return matrix_method(ev, self, name, loc, out);
}

// ---- construction: ti.Matrix(arr, dt) / ti.Vector(arr, dt) ---------------------------

Value construct_matrix(Evaluator& ev, CallArgs& a, bool vector) {
  const char* fname = vector ? "Vector" : "Matrix";
  Value dt;
  if (!a.take_kw("dt", dt)) a.take_kw("dtype", dt);
  Value ignored;
  a.take_kw("ndim", ignored);
  a.take_kw("keep_raw", ignored);
  no_kwargs(a, fname);
  expect_args(a, fname, 1, 2);
  if (a.pos.size() == 2) dt = a.pos[1];
  const Value& arr = a.pos[0];
  if (arr.kind != Kind::List && arr.kind != Kind::Tuple)
    raise("TypeError", "An Matrix/Vector can only be initialized with an array-like object", a.loc);
  std::vector<Value> items = ev.to_vector(arr, a.loc);
  std::vector<Value> vals;
  int n = (int)items.size(), m = 1, ndim = 1;
  if (!items.empty() && host_as<MatrixObj>(items[0])) raise("Exception", "cols/rows required when using list of vectors", a.loc);
  if (!items.empty() && (items[0].kind == Kind::List || items[0].kind == Kind::Tuple)) {
    ndim = 2;
    m = (int)ev.len(items[0], a.loc);
    for (auto& row : items) {
      if (row.kind != Kind::List && row.kind != Kind::Tuple) raise("ValueError", "setting an array element with a sequence.", a.loc);
      auto r = ev.to_vector(row, a.loc);
      if ((int)r.size() != m)
        raise("ValueError", "setting an array element with a sequence. The requested array has an inhomogeneous shape after 1 dimensions.", a.loc);
      vals.insert(vals.end(), r.begin(), r.end());
    }
  } else {
    vals = items;
  }
  for (auto& v : vals)
    if (!v.is_number()) np_cast(ev, v, Prim::f64, a.loc);  // the TypeError / ValueError numpy would give
  Prim p = dt.is_none() ? np_infer(vals) : dtype_prim(ev, dt, a.loc);
  return make_matrix(ev, n, m, ndim, p, std::move(vals), a.loc);
}

}  // namespace kiln::host
