// ti.ndarray / ti.Vector.ndarray / ti.Matrix.ndarray, the ti.types.ndarray()
// annotation, and passing arrays to kernels by reference (seed 003).
//
// A Kiln ndarray is a numpy array underneath (NpArrayObj: shape + the
// element's own dims, C order), so to_numpy / from_numpy are copies of one
// buffer and a kernel receives the same bytes: its data pointer and its
// shape travel in the kernel's argument slots, and writes in the kernel are
// in the array afterwards. Host numpy arrays are passed the same way. One
// kernel is compiled per (dtype, ndim, element shape), never per shape.
#include <cstring>

#include "vm/frontend/ndarray_arg.h"
#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"
#include "vm/host/ti_state.h"
#include "vm/runtime/sizes.h"

namespace kiln::host {

namespace {

struct NdarrayObj : HostObj {
  std::shared_ptr<NpArrayObj> arr;  // shape + element dims
  int ndim = 0;                     // indices (element dims excluded)
  int n = 0, m = 0;                 // element: scalar (n == 0), vector (m == 0), matrix
  Prim dtype = Prim::f32;

  std::vector<int64_t> shape() const { return std::vector<int64_t>(arr->shape.begin(), arr->shape.begin() + ndim); }
  std::string type_name() const override { return n == 0 ? "ScalarNdarray" : m == 0 ? "VectorNdarray" : "MatrixNdarray"; }
  std::string repr(Evaluator&) const override {
    return "<" + type_name() + " shape=" + np_shape_str(shape()) + " dtype=" + std::string(prim_name(dtype)) + ">";
  }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
  bool get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) override;
  bool set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) override;
};

// ti.types.ndarray(dtype=None, ndim=None): dtype a primitive or a vector/matrix type.
struct NdarrayTypeObj : HostObj {
  bool has_dtype = false;
  Prim prim = Prim::f32;
  int n = 0, m = 0;
  int ndim = -1;
  std::string type_name() const override { return "NdarrayType"; }
  std::string repr(Evaluator&) const override {
    std::string s = "ti.types.ndarray(";
    if (has_dtype) s += "dtype=" + std::string(prim_name(prim)) + (n ? "[" + std::to_string(n) + (m ? "x" + std::to_string(m) : "") + "]" : "");
    if (ndim >= 0) s += std::string(has_dtype ? ", " : "") + "ndim=" + std::to_string(ndim);
    return s + ")";
  }
};

std::vector<int64_t> index_of(Evaluator& ev, const NdarrayObj& a, const Value& key, SourceLoc loc) {
  std::vector<Value> parts;
  if (key.kind == Kind::Tuple || key.kind == Kind::List) parts = ev.to_vector(key, loc);
  else parts.push_back(key);
  if ((int)parts.size() != a.ndim)
    raise("IndexError", "ndarray of shape " + np_shape_str(a.shape()) + " is indexed with " + std::to_string(parts.size()) +
                            " index" + (parts.size() == 1 ? "" : "es") + "; give one per dimension", loc);
  std::vector<int64_t> idx;
  auto sh = a.shape();
  for (size_t k = 0; k < parts.size(); k++) {
    if (!parts[k].is_int_like()) raise("TypeError", "ndarray indices must be integers, not '" + ev.type_name(parts[k]) + "'", loc);
    int64_t i = parts[k].as_int();
    if (i < 0 || i >= sh[k])
      raise("IndexError", "index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(k) +
                              " of ndarray with shape " + np_shape_str(sh), loc);
    idx.push_back(i);
  }
  return idx;
}

// Byte offset of the element at idx (its first component).
int64_t elem_offset(const NdarrayObj& a, const std::vector<int64_t>& idx) {
  int64_t off = 0;
  for (size_t k = 0; k < idx.size(); k++) off += idx[k] * a.arr->strides[k];
  return off;
}

int64_t comps_of(const NdarrayObj& a) { return a.n == 0 ? 1 : (int64_t)a.n * std::max(1, a.m); }

bool NdarrayObj::get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) {
  auto idx = index_of(ev, *this, key, loc);
  uint8_t* p = arr->data() + elem_offset(*this, idx);
  int64_t is = arr->itemsize();
  if (n == 0) {
    out = NpArrayObj::load(dtype, p);
    return true;
  }
  std::vector<Value> vals;
  for (int64_t c = 0; c < comps_of(*this); c++) vals.push_back(NpArrayObj::load(dtype, p + c * is));
  out = make_matrix(ev, n, std::max(1, m), m ? 2 : 1, dtype, std::move(vals), loc);
  return true;
}

bool NdarrayObj::set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) {
  auto idx = index_of(ev, *this, key, loc);
  uint8_t* p = arr->data() + elem_offset(*this, idx);
  int64_t is = arr->itemsize();
  if (n == 0) {
    NpArrayObj::store(ev, dtype, p, v, loc);
    return true;
  }
  auto src = np_from_value(ev, v, true, dtype, loc);
  std::vector<int64_t> want = m ? std::vector<int64_t>{n, m} : std::vector<int64_t>{n};
  if (src->shape != want)
    raise("ValueError", "an element of this ndarray is a " + np_shape_str(want) + " " + (m ? "matrix" : "vector") +
                            ", got a value of shape " + np_shape_str(src->shape), loc);
  for (int64_t c = 0; c < comps_of(*this); c++) std::memcpy(p + c * is, src->data() + src->flat_offset(c), (size_t)is);
  return true;
}

bool NdarrayObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  auto me = self.ptr<NdarrayObj>();
  if (name == "shape") {
    std::vector<Value> s;
    for (auto d : shape()) s.push_back(Value::integer(d));
    out = make_tuple(std::move(s));
    return true;
  }
  if (name == "dtype") { out = Value::of(std::make_shared<DTypeObj>(dtype)); return true; }
  if (name == "n" && n) { out = Value::integer(n); return true; }
  if (name == "m" && n) { out = Value::integer(std::max(1, m)); return true; }
  if (name == "to_numpy") {
    out = make_builtin("to_numpy", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "to_numpy", 0, 0);
      return Value::of(np_copy(ev, *me->arr, me->dtype, a.loc));
    });
    return true;
  }
  if (name == "from_numpy") {
    out = make_builtin("from_numpy", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "from_numpy", 1, 1);
      auto src = np_from_value(ev, a.pos[0], false, Prim::none, a.loc);
      if (src->shape != me->arr->shape)
        raise("ValueError", "from_numpy: the ndarray has shape " + np_shape_str(me->arr->shape) +
                                " (element dims included), got an array of shape " + np_shape_str(src->shape), a.loc);
      np_assign(ev, *me->arr, *src, a.loc);
      return Value();
    });
    return true;
  }
  if (name == "fill") {
    out = make_builtin("fill", [me](Evaluator& ev, CallArgs& a) {
      expect_args(a, "fill", 1, 1);
      auto src = np_new(me->dtype, {});
      NpArrayObj::store(ev, me->dtype, src->data(), a.pos[0], a.loc);
      np_assign(ev, *me->arr, *src, a.loc);
      return Value();
    });
    return true;
  }
  return false;
}

Value new_ndarray(Evaluator& ev, Prim dt, const Value& shape, int n, int m, SourceLoc loc) {
  // n, m: already checked by check_components (1..kMaxComponents) or 0
  auto a = std::make_shared<NdarrayObj>();
  a->dtype = dt;
  a->n = n;
  a->m = m;
  std::vector<int64_t> s = arg_shape(ev, shape, "ndarray", loc);
  check_ndarray(s, std::max(1, n) * std::max(1, m), std::max(1, prim_bits(dt) / 8), loc);
  a->ndim = (int)s.size();
  if (n) s.push_back(n);
  if (m) s.push_back(m);
  a->arr = np_new(dt, s);
  return Value::of(a);
}

// ti.ndarray(dtype, shape), ti.Vector.ndarray(n, dtype, shape), ti.Matrix.ndarray(n, m, dtype, shape)
Value make_ndarray(Evaluator& ev, CallArgs& a, int elem_dims) {
  static const char* names[][4] = {{"dtype", "shape"}, {"n", "dtype", "shape"}, {"n", "m", "dtype", "shape"}};
  size_t want = (size_t)elem_dims + 2;
  if (a.pos.size() > want) raise("TypeError", "ndarray() takes " + std::to_string(want) + " arguments", a.loc);
  std::vector<Value> args = a.pos;
  std::vector<bool> given(want, false);
  for (size_t k = 0; k < args.size(); k++) given[k] = true;
  args.resize(want);
  for (size_t k = 0; k < want; k++) {
    Value v;
    if (a.take_kw(names[elem_dims][k], v)) {
      args[k] = v;
      given[k] = true;
    }
  }
  if (!a.kw.empty()) raise("TypeError", "ndarray() got an unexpected keyword argument '" + a.kw[0].first + "'", a.loc);
  for (size_t k = 0; k < want; k++)
    if (!given[k]) raise("TypeError", std::string("ndarray() missing required argument '") + names[elem_dims][k] + "'", a.loc);
  int64_t n = elem_dims >= 1 ? arg_int(ev, args[0], "ndarray", a.loc) : 0;
  int64_t m = elem_dims == 2 ? arg_int(ev, args[1], "ndarray", a.loc) : 0;
  if (elem_dims == 1) check_vector_components(n, a.loc);
  if (elem_dims == 2) check_matrix_components(n, m, a.loc);
  Prim dt = dtype_prim(ev, args[(size_t)elem_dims], a.loc);
  return new_ndarray(ev, dt, args[(size_t)elem_dims + 1], (int)n, (int)m, a.loc);
}

Value types_ndarray(Evaluator& ev, CallArgs& a) {
  auto t = std::make_shared<NdarrayTypeObj>();
  Value dt, nd;
  a.take_kw("dtype", dt);
  a.take_kw("ndim", nd);
  Value ignored;
  a.take_kw("needs_grad", ignored);
  a.take_kw("boundary", ignored);
  if (!a.kw.empty()) raise("TypeError", "ndarray() got an unexpected keyword argument '" + a.kw[0].first + "'", a.loc);
  expect_args(a, "ndarray", 0, 2);
  if (a.pos.size() > 0) dt = a.pos[0];
  if (a.pos.size() > 1) nd = a.pos[1];
  if (!dt.is_none()) {
    t->has_dtype = true;
    if (auto* mt = host_as<MatrixTypeObj>(dt)) {
      t->prim = mt->dtype;
      t->n = mt->n;
      t->m = mt->ndim == 2 ? mt->m : 0;
    } else {
      t->prim = dtype_prim(ev, dt, a.loc);
    }
  }
  if (!nd.is_none()) t->ndim = (int)arg_int(ev, nd, "ndarray", a.loc);
  return Value::of(t);
}

}  // namespace

bool is_ndarray_type(const Value& ann) {
  if (host_as<NdarrayTypeObj>(ann)) return true;
  return ann.kind == Kind::Builtin && ann.as<BuiltinObj>()->name == "ti.types.ndarray";
}

bool ndarray_arg(Evaluator& ev, const Value& ann, const Value& v, const std::string& pname, SourceLoc loc,
                 frontend::ArgSpec& spec, std::string& key, std::vector<uint64_t>& slots) {
  auto* t = host_as<NdarrayTypeObj>(ann);
  std::shared_ptr<NpArrayObj> arr;
  int ndim = 0, n = 0, m = 0;
  Prim dt;
  if (auto* nd = host_as<NdarrayObj>(v)) {
    arr = nd->arr;
    ndim = nd->ndim;
    n = nd->n;
    m = nd->m;
    dt = nd->dtype;
  } else if (auto* a = np_as(v)) {
    arr = std::static_pointer_cast<NpArrayObj>(v.obj);
    dt = a->dtype;
    ndim = a->ndim();
    // a vector/matrix annotation reads the trailing axes of a numpy array as the element
    if (t && t->has_dtype && t->n) {
      int ed = t->m ? 2 : 1;
      if (ndim < ed + 1 || a->shape[(size_t)(ndim - ed)] != t->n || (t->m && a->shape[(size_t)ndim - 1] != t->m))
        raise("ValueError", "ndarray argument '" + pname + "' expects elements of shape " +
                                np_shape_str(t->m ? std::vector<int64_t>{t->n, t->m} : std::vector<int64_t>{t->n}) +
                                " in its last axes, got an array of shape " + np_shape_str(a->shape), loc);
      ndim -= ed;
      n = t->n;
      m = t->m;
    }
    if (dt == Prim::none) raise("TypeError", "ndarray argument '" + pname + "': numpy bool arrays cannot be passed to kernels (use np.uint8 or np.int32)", loc);
    if (a->scalar || ndim == 0) raise("TypeError", "ndarray argument '" + pname + "' needs an array with at least one dimension", loc);
  } else {
    raise("TypeError", "ndarray argument '" + pname + "' takes a ti.ndarray or a numpy array, not '" + ev.type_name(v) + "'", loc);
  }
  if (!arr->contiguous())
    raise("ValueError", "Non contiguous numpy arrays are not supported, please call np.ascontiguousarray(arr) before passing it into taichi kernel. (argument '" +
                            pname + "' has shape " + np_shape_str(arr->shape) + " and strides " + np_shape_str(arr->strides) + ")", loc);
  frontend::NdarrayWant want;
  if (t && t->has_dtype) {
    want.prim = t->prim;
    want.n = t->n;
    want.m = t->m;
  }
  if (t) want.ndim = t->ndim;
  frontend::bind_ndarray(pname, want, dt, n, m, ndim, arr->shape.data(), np_dtype_name(dt), spec, key, loc);
  slots.push_back((uint64_t)(uintptr_t)arr->data());
  for (int d = 0; d < ndim; d++) slots.push_back((uint64_t)arr->shape[(size_t)d]);
  return true;
}

Value ndarray_new(Evaluator& ev, Prim dt, const Value& shape, int n, int m, SourceLoc loc) {
  return new_ndarray(ev, dt, shape, n, m, loc);
}

std::shared_ptr<NpArrayObj> ndarray_storage(const Value& v, int* ndim, int* elem_n) {
  auto* nd = v.kind == Kind::Host ? dynamic_cast<NdarrayObj*>(static_cast<HostObj*>(v.obj.get())) : nullptr;
  if (!nd) return nullptr;
  *ndim = nd->ndim;
  *elem_n = nd->n ? nd->n * std::max(1, nd->m) : 0;
  return nd->arr;
}

Value matrix_class_ndarray(Evaluator& ev, CallArgs& a, bool vector) { return make_ndarray(ev, a, vector ? 1 : 2); }

void install_ti_ndarray(Evaluator& ev, ModuleObj& ti, ModuleObj& types) {
  ti.attrs["ndarray"] = make_builtin("ti.ndarray", [](Evaluator& ev, CallArgs& a) { return make_ndarray(ev, a, 0); });
  types.attrs["ndarray"] = make_builtin("ti.types.ndarray", types_ndarray);
}

}  // namespace kiln::host
