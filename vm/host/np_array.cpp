// numpy arrays on the host: storage, element access, construction from
// Python values with numpy's dtype inference, and numpy's dtype objects.
#include "vm/host/np_array.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "vm/host/evaluator.h"
#include "vm/runtime/large_buffers.h"
#include "vm/support/stream_copy.h"

namespace kiln::host {

NpBuffer::NpBuffer(int64_t bytes, bool zero) : size(bytes) {
  size_t n = (size_t)((bytes + 63) / 64 * 64);
  if (n == 0) n = 64;
  bool zeroed = false;
  // An array the size of a large field: on 2 MiB pages, and the storage of an
  // array released before reused (`a = x.to_numpy()` in a loop; bench/numpy_copy).
  if (n >= kLargeBuffer && (data = static_cast<uint8_t*>(map_large(n, &zeroed, true)))) large = true;
  else data = static_cast<uint8_t*>(std::aligned_alloc(64, n));
  if (!data) throw std::bad_alloc();
  if (zero && !zeroed) std::memset(data, 0, n);
}
NpBuffer::~NpBuffer() {
  if (!owned) return;
  if (large) unmap_large(data, true);
  else std::free(data);
}

int64_t np_itemsize(Prim dt) { return dt == Prim::none ? 1 : prim_bits(dt) / 8; }

std::string np_dtype_name(Prim dt) {
  switch (dt) {
    case Prim::none: return "bool";
    case Prim::i8: return "int8";
    case Prim::i16: return "int16";
    case Prim::i32: return "int32";
    case Prim::i64: return "int64";
    case Prim::u8: return "uint8";
    case Prim::u16: return "uint16";
    case Prim::u32: return "uint32";
    case Prim::u64: return "uint64";
    case Prim::f16: return "float16";
    case Prim::f32: return "float32";
    case Prim::f64: return "float64";
    default: return std::string(prim_name(dt));
  }
}

std::string np_shape_str(const std::vector<int64_t>& s) {
  std::string r = "(";
  for (size_t k = 0; k < s.size(); k++) r += (k ? ", " : "") + std::to_string(s[k]);
  return r + (s.size() == 1 ? ",)" : ")");
}

std::vector<int64_t> c_strides(const std::vector<int64_t>& shape, Prim dt) {
  std::vector<int64_t> st(shape.size());
  int64_t s = np_itemsize(dt);
  for (size_t k = shape.size(); k-- > 0;) {
    st[k] = s;
    s *= shape[k];
  }
  return st;
}

int64_t NpArrayObj::size() const {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}
int64_t NpArrayObj::itemsize() const { return np_itemsize(dtype); }

bool NpArrayObj::contiguous() const {
  int64_t s = itemsize();
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] != 1 && strides[k] != s) return false;
    s *= shape[k];
  }
  return true;
}

int64_t NpArrayObj::flat_offset(int64_t k) const {
  int64_t off = 0;
  for (size_t d = shape.size(); d-- > 0;) {
    off += (k % shape[d]) * strides[d];
    k /= shape[d];
  }
  return off;
}

Value NpArrayObj::load(Prim dt, const uint8_t* p) {
  if (dt == Prim::none) return Value::boolean(*p != 0);
  uint64_t bits = 0;
  std::memcpy(&bits, p, (size_t)prim_bits(dt) / 8);
  return from_const(const_from_bits(dt, bits));
}

void NpArrayObj::store(Evaluator& ev, Prim dt, uint8_t* p, const Value& v, SourceLoc loc) {
  Value c = v;
  if (!v.is_number()) {
    if (auto* a = np_as(v); a && a->ndim() == 0) c = a->get_flat(0);
    else c = np_cast(ev, v, dt, loc);  // numpy's TypeError / ValueError for non-numbers
  }
  if (dt == Prim::none) {
    *p = c.kind == Kind::Float ? c.f != 0 : c.as_int() != 0;
    return;
  }
  if (c.kind == Kind::Float && prim_is_int(dt) && !std::isfinite(c.f))
    raise("ValueError", "cannot convert float NaN or infinity to integer", loc);
  ConstVal cv = c.kind == Kind::Float ? ConstVal::make_float(dt, c.f) : ConstVal::make_int(dt, c.as_int());
  uint64_t bits = const_to_bits(cv);
  std::memcpy(p, &bits, (size_t)prim_bits(dt) / 8);
}

NpArrayObj* np_as(const Value& v) { return host_as<NpArrayObj>(v); }

std::shared_ptr<NpArrayObj> np_new(Prim dt, std::vector<int64_t> shape, bool zero) {
  auto a = std::make_shared<NpArrayObj>();
  a->dtype = dt;
  a->strides = c_strides(shape, dt);
  int64_t n = np_itemsize(dt);
  for (auto d : shape) n *= d;
  a->shape = std::move(shape);
  a->buf = std::make_shared<NpBuffer>(n, zero);
  return a;
}

std::shared_ptr<NpArrayObj> np_view(const NpArrayObj& a, std::vector<int64_t> shape, std::vector<int64_t> strides,
                                    int64_t offset) {
  auto v = std::make_shared<NpArrayObj>();
  v->buf = a.buf;
  v->dtype = a.dtype;
  v->shape = std::move(shape);
  v->strides = std::move(strides);
  v->offset = offset;
  return v;
}

std::shared_ptr<NpArrayObj> np_copy(Evaluator& ev, const NpArrayObj& a, Prim dt, SourceLoc loc) {
  bool whole = dt == a.dtype && a.contiguous();
  auto r = np_new(dt, a.shape, !whole);
  int64_t n = a.size();
  if (whole) {
    stream_copy(r->data(), a.data(), (size_t)(n * a.itemsize()));
    return r;
  }
  int64_t is = r->itemsize();
  for (int64_t k = 0; k < n; k++) {
    Value v = a.get_flat(k);
    // astype from float to int truncates; NaN/inf become whatever C gives (numpy warns)
    if (v.kind == Kind::Float && prim_is_int(dt) && !std::isfinite(v.f)) v = Value::integer(INT64_MIN);
    NpArrayObj::store(ev, dt, r->data() + k * is, v, loc);
  }
  return r;
}

Value np_scalar_value(Prim dt, const Value& v) {
  if (dt == Prim::i64 || dt == Prim::f64 || dt == Prim::none) return v;
  auto s = np_new(dt, {});
  s->scalar = true;
  uint8_t* p = s->data();
  if (v.kind == Kind::Float) {
    uint64_t bits = const_to_bits(ConstVal::make_float(dt, v.f));
    std::memcpy(p, &bits, (size_t)np_itemsize(dt));
  } else {
    uint64_t bits = const_to_bits(ConstVal::make_int(dt, v.as_int()));
    std::memcpy(p, &bits, (size_t)np_itemsize(dt));
  }
  return Value::of(s);
}

// ---- construction from Python values ----------------------------------------------------

namespace {

// Walks nested lists/tuples: the shape (all sublists must agree) and the leaves.
void collect(Evaluator& ev, const Value& v, size_t depth, std::vector<int64_t>& shape, std::vector<Value>& leaves,
             SourceLoc loc) {
  bool seq = v.kind == Kind::List || v.kind == Kind::Tuple;
  auto* arr = np_as(v);
  auto* mat = host_as<MatrixObj>(v);
  if (!seq && !(arr && arr->ndim() > 0) && !mat) {
    if (depth != shape.size())
      raise("ValueError", "setting an array element with a sequence. The requested array has an inhomogeneous shape after " +
                              std::to_string(depth) + " dimensions. The detected shape was " +
                              np_shape_str(std::vector<int64_t>(shape.begin(), shape.begin() + (long)depth)) +
                              " + inhomogeneous part.", loc);
    leaves.push_back(v);
    return;
  }
  std::vector<Value> items;
  if (seq) items = ev.to_vector(v, loc);
  else if (arr) {
    for (int64_t i = 0; i < arr->shape[0]; i++) items.push_back(np_get_item(ev, std::static_pointer_cast<NpArrayObj>(v.obj), Value::integer(i), loc));
  } else if (mat->ndim == 1) items = mat->values(loc);
  else {
    auto vals = mat->values(loc);
    for (int i = 0; i < mat->n; i++)
      items.push_back(make_list(std::vector<Value>(vals.begin() + i * mat->m, vals.begin() + (i + 1) * mat->m)));
  }
  if (depth == shape.size()) {
    if (!leaves.empty())
      raise("ValueError", "setting an array element with a sequence. The requested array has an inhomogeneous shape after " +
                              std::to_string(depth) + " dimensions. The detected shape was " + np_shape_str(shape) +
                              " + inhomogeneous part.", loc);
    shape.push_back((int64_t)items.size());
  } else if (shape[depth] != (int64_t)items.size()) {
    raise("ValueError", "setting an array element with a sequence. The requested array has an inhomogeneous shape after " +
                            std::to_string(depth + 1) + " dimensions. The detected shape was " +
                            np_shape_str(std::vector<int64_t>(shape.begin(), shape.begin() + (long)depth + 1)) +
                            " + inhomogeneous part.", loc);
  }
  for (auto& x : items) collect(ev, x, depth + 1, shape, leaves, loc);
}

Prim leaf_dtype(const Value& v) {
  if (auto* a = np_as(v)) return a->dtype;
  if (v.kind == Kind::Float) return Prim::f64;
  if (v.kind == Kind::Int) return Prim::i64;
  if (v.kind == Kind::Bool) return Prim::none;
  return Prim::f64;
}

}  // namespace

std::shared_ptr<NpArrayObj> np_from_value(Evaluator& ev, const Value& v, bool has_dt, Prim dt, SourceLoc loc) {
  if (auto* a = np_as(v)) {
    if (!has_dt || dt == a->dtype) return std::static_pointer_cast<NpArrayObj>(v.obj);
    return np_copy(ev, *a, dt, loc);
  }
  std::vector<int64_t> shape;
  std::vector<Value> leaves;
  collect(ev, v, 0, shape, leaves, loc);
  if (!has_dt) {
    dt = Prim::none;
    bool first = true;
    for (auto& x : leaves) {
      if (!x.is_number() && !np_as(x)) {
        if (x.kind == Kind::Str) raise("TypeError", "Kiln's numpy holds numbers only, not strings", loc);
        raise("TypeError", "float() argument must be a string or a real number, not '" + ev.type_name(x) + "'", loc);
      }
      Prim p = leaf_dtype(x);
      dt = first ? p : np_promote(dt, p);
      first = false;
    }
    if (leaves.empty()) dt = Prim::f64;
  }
  auto r = np_new(dt, shape);
  int64_t is = r->itemsize();
  for (size_t k = 0; k < leaves.size(); k++) NpArrayObj::store(ev, dt, r->data() + (int64_t)k * is, leaves[k], loc);
  return r;
}

// ---- dtypes ------------------------------------------------------------------------------

namespace {

// np.float32 (a scalar type: calling it makes a numpy scalar) or arr.dtype.
struct NpDTypeObj : HostObj {
  Prim prim;
  bool is_type;
  NpDTypeObj(Prim p, bool t) : prim(p), is_type(t) {}
  std::string type_name() const override { return is_type ? "type" : "dtype[" + np_dtype_name(prim) + "]"; }
  std::string repr(Evaluator&) const override {
    if (is_type) return "<class 'numpy." + np_dtype_name(prim) + (prim == Prim::none ? "_" : "") + "'>";
    return "dtype('" + np_dtype_name(prim) + "')";
  }
  std::string str(Evaluator& ev) override { return is_type ? repr(ev) : np_dtype_name(prim); }
  bool equals(const HostObj& o) const override {
    if (auto* d = dynamic_cast<const NpDTypeObj*>(&o)) return d->prim == prim;
    if (auto* d = dynamic_cast<const DTypeObj*>(&o)) return d->prim == prim;
    return false;
  }
  uint64_t hash() const override { return 0xd7e0 + (uint64_t)prim; }
  bool callable() const override { return is_type; }
  Value call(Evaluator& ev, const Value&, CallArgs& a) override {
    expect_args(a, np_dtype_name(prim).c_str(), 0, 1);
    if (a.pos.empty()) return np_scalar_value(prim, prim_is_float(prim) ? Value::floating(0) : prim == Prim::none ? Value::boolean(false) : Value::integer(0));
    if (auto* arr = np_as(a.pos[0]); arr && !arr->scalar) return Value::of(np_copy(ev, *arr, prim, a.loc));
    if (a.pos[0].kind == Kind::List || a.pos[0].kind == Kind::Tuple) return Value::of(np_from_value(ev, a.pos[0], true, prim, a.loc));
    auto tmp = np_new(prim, {});
    NpArrayObj::store(ev, prim, tmp->data(), a.pos[0], a.loc);
    return np_scalar_value(prim, tmp->get_flat(0));
  }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override {
    if (name == "name") { out = Value::str(np_dtype_name(prim)); return true; }
    if (name == "itemsize") { out = Value::integer(np_itemsize(prim)); return true; }
    if (name == "type") { out = np_dtype_value(prim, true); return true; }
    if (name == "kind") {
      out = Value::str(prim == Prim::none ? "b" : prim_is_float(prim) ? "f" : prim_is_signed(prim) ? "i" : "u");
      return true;
    }
    return false;
  }
};

}  // namespace

Value np_dtype_value(Prim dt, bool is_type) { return Value::of(std::make_shared<NpDTypeObj>(dt, is_type)); }

Prim np_dtype_arg(Evaluator& ev, const Value& v, SourceLoc loc) {
  if (v.kind == Kind::Host) {
    if (auto* d = dynamic_cast<NpDTypeObj*>(v.as<HostObj>())) return d->prim;
    if (auto* d = dynamic_cast<DTypeObj*>(v.as<HostObj>())) return d->prim;
  }
  if (v.kind == Kind::Class) {
    auto* c = v.as<ClassObj>();
    if (c->name == "int") return Prim::i64;
    if (c->name == "float") return Prim::f64;
    if (c->name == "bool") return Prim::none;
  }
  if (v.kind == Kind::Str) {
    static const std::pair<const char*, Prim> names[] = {
        {"bool", Prim::none}, {"int8", Prim::i8},     {"int16", Prim::i16},   {"int32", Prim::i32},
        {"int64", Prim::i64}, {"uint8", Prim::u8},    {"uint16", Prim::u16},  {"uint32", Prim::u32},
        {"uint64", Prim::u64}, {"float16", Prim::f16}, {"float32", Prim::f32}, {"float64", Prim::f64},
        {"int", Prim::i64},   {"float", Prim::f64},   {"f4", Prim::f32},      {"f8", Prim::f64},
        {"i4", Prim::i32},    {"i8", Prim::i64},      {"u1", Prim::u8},       {"?", Prim::none}};
    for (auto& [n, p] : names)
      if (str_of(v) == n) return p;
    raise("TypeError", "data type '" + str_of(v) + "' not understood", loc);
  }
  raise("TypeError", "Cannot interpret '" + ev.repr(v) + "' as a data type", loc);
}

// ---- the object ------------------------------------------------------------------------

std::string NpArrayObj::type_name() const { return scalar ? np_dtype_name(dtype) : "ndarray"; }

std::string NpArrayObj::repr(Evaluator& ev) const {
  if (scalar) return np_scalar_str(ev, dtype, get_flat(0));
  return np_array_repr(ev, *this);
}

std::string NpArrayObj::str(Evaluator& ev) {
  if (scalar) return np_scalar_str(ev, dtype, get_flat(0));
  return np_array_str(ev, *this);
}

bool NpArrayObj::get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
  return np_method(ev, std::static_pointer_cast<NpArrayObj>(self.obj), name, loc, out);
}

bool NpArrayObj::set_attr(Evaluator& ev, const std::string& name, const Value& v, SourceLoc loc) {
  if (name == "shape" || name == "dtype" || name == "ndim" || name == "size")
    raise("AttributeError", "Kiln's numpy arrays do not support setting '" + name + "'; use reshape() or astype()", loc);
  return false;
}

bool NpArrayObj::get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) {
  if (scalar) raise("IndexError", "invalid index to scalar variable.", loc);
  // `this` is owned by a Value somewhere; rebuild a shared_ptr through a view of ourselves.
  auto self = np_view(*this, shape, strides, offset);
  out = np_get_item(ev, self, key, loc);
  return true;
}

bool NpArrayObj::set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) {
  if (scalar) raise("TypeError", "'" + type_name() + "' object does not support item assignment", loc);
  np_set_item(ev, *this, key, v, loc);
  return true;
}

bool NpArrayObj::as_iterable(Evaluator& ev, SourceLoc loc, Value& out) {
  if (ndim() == 0) raise("TypeError", "iteration over a 0-d array", loc);
  auto self = np_view(*this, shape, strides, offset);
  std::vector<Value> items;
  for (int64_t i = 0; i < shape[0]; i++) items.push_back(np_get_item(ev, self, Value::integer(i), loc));
  out = make_list(std::move(items));
  return true;
}

}  // namespace kiln::host
