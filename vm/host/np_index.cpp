// Indexing numpy arrays: integers, slices, None (np.newaxis), `...` and
// tuples of them give views that share the buffer (numpy's basic indexing);
// a full integer index gives the element. Assignment writes through the same
// view, broadcasting the right-hand side.
#include <cstring>

#include "vm/host/attrs.h"
#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"

namespace kiln::host {

namespace {

[[noreturn]] void bad_index(SourceLoc loc) {
  raise("IndexError",
        "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices",
        loc);
}

bool is_ellipsis(const Value& v) { return v.kind == Kind::Builtin && v.as<BuiltinObj>()->name == "Ellipsis"; }

// The view `key` selects; `element` is true when every axis got an integer.
std::shared_ptr<NpArrayObj> select(Evaluator& ev, const NpArrayObj& a, const Value& key, SourceLoc loc, bool& element) {
  std::vector<Value> parts;
  if (key.kind == Kind::Tuple) parts = key.as<TupleObj>()->items;
  else parts.push_back(key);
  int consumed = 0, ellipses = 0;
  for (auto& p : parts) {
    if (is_ellipsis(p)) ellipses++;
    else if (!p.is_none()) consumed++;
  }
  if (ellipses > 1) raise("IndexError", "an index can only have a single ellipsis ('...')", loc);
  if (consumed > a.ndim())
    raise("IndexError", "too many indices for array: array is " + std::to_string(a.ndim()) + "-dimensional, but " +
                            std::to_string(consumed) + " were indexed", loc);
  std::vector<int64_t> shape, strides;
  int64_t off = a.offset;
  int axis = 0;
  bool all_int = true;
  for (auto& p : parts) {
    if (is_ellipsis(p)) {
      for (int k = 0; k < a.ndim() - consumed; k++, axis++) {
        shape.push_back(a.shape[(size_t)axis]);
        strides.push_back(a.strides[(size_t)axis]);
      }
      all_int = false;
    } else if (p.is_none()) {
      shape.push_back(1);
      strides.push_back(0);
      all_int = false;
    } else if (p.kind == Kind::Slice) {
      int64_t start, stop, step, n = a.shape[(size_t)axis];
      slice_indices(ev, *p.as<SliceObj>(), n, start, stop, step, loc);
      shape.push_back(slice_length(start, stop, step));
      strides.push_back(a.strides[(size_t)axis] * step);
      if (shape.back() > 0) off += start * a.strides[(size_t)axis];
      axis++;
      all_int = false;
    } else {
      Value iv = p;
      if (auto* s = np_as(p); s && s->ndim() == 0 && s->dtype != Prim::none && !prim_is_float(s->dtype)) iv = s->get_flat(0);
      if (!iv.is_int_like() || iv.kind == Kind::Bool) bad_index(loc);
      int64_t i = iv.as_int(), n = a.shape[(size_t)axis];
      if (i < -n || i >= n)
        raise("IndexError", "index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                                " with size " + std::to_string(n), loc);
      off += (i < 0 ? i + n : i) * a.strides[(size_t)axis];
      axis++;
    }
  }
  for (; axis < a.ndim(); axis++) {
    shape.push_back(a.shape[(size_t)axis]);
    strides.push_back(a.strides[(size_t)axis]);
    all_int = false;
  }
  element = all_int && consumed == a.ndim();
  return np_view(a, std::move(shape), std::move(strides), off);
}

// Advanced indexing by one array: a boolean mask over the leading axes, or
// integers along axis 0. The selected sub-arrays as views, in order (numpy
// then copies them into a new array).
bool fancy(Evaluator& ev, const NpArrayObj& a, const Value& key, SourceLoc loc, std::vector<std::shared_ptr<NpArrayObj>>& parts,
           std::vector<int64_t>& rest) {
  std::shared_ptr<NpArrayObj> k;
  if (auto* arr = np_as(key); arr && arr->ndim() > 0) k = std::static_pointer_cast<NpArrayObj>(key.obj);
  else if (key.kind == Kind::List) k = np_from_value(ev, key, false, Prim::none, loc);
  else return false;
  if (k->size() == 0 && k->dtype != Prim::none) k = np_new(Prim::i64, k->shape);  // [] selects nothing
  if (k->dtype != Prim::none && prim_is_float(k->dtype)) bad_index(loc);
  size_t lead = k->dtype == Prim::none ? (size_t)k->ndim() : 1;
  if (k->size() == 0 && k->dtype != Prim::none) lead = 1;
  if (lead > a.shape.size())
    raise("IndexError", "too many indices for array: array is " + std::to_string(a.ndim()) + "-dimensional, but " +
                            std::to_string(lead) + " were indexed", loc);
  rest.assign(a.shape.begin() + (long)lead, a.shape.end());
  std::vector<int64_t> rest_strides(a.strides.begin() + (long)lead, a.strides.end());
  if (k->dtype == Prim::none) {
    for (size_t d = 0; d < lead; d++)
      if (k->shape[d] != a.shape[d])
        raise("IndexError", "boolean index did not match indexed array along dimension " + std::to_string(d) + "; dimension is " +
                                std::to_string(a.shape[d]) + " but corresponding boolean dimension is " + std::to_string(k->shape[d]), loc);
    for (int64_t f = 0; f < k->size(); f++) {
      if (!k->get_flat(f).b) continue;
      int64_t off = a.offset, r = f;
      for (size_t d = lead; d-- > 0;) {
        off += (r % a.shape[d]) * a.strides[d];
        r /= a.shape[d];
      }
      parts.push_back(np_view(a, rest, rest_strides, off));
    }
    return true;
  }
  if (k->ndim() != 1) raise("IndexError", "Kiln's numpy indexes with 1-D integer arrays only, got shape " + np_shape_str(k->shape), loc);
  for (int64_t f = 0; f < k->size(); f++) {
    int64_t i = k->get_flat(f).as_int(), n = a.shape[0];
    if (i < -n || i >= n)
      raise("IndexError", "index " + std::to_string(i) + " is out of bounds for axis 0 with size " + std::to_string(n), loc);
    parts.push_back(np_view(a, rest, rest_strides, a.offset + (i < 0 ? i + n : i) * a.strides[0]));
  }
  return true;
}

}  // namespace

Value np_get_item(Evaluator& ev, const std::shared_ptr<NpArrayObj>& a, const Value& key, SourceLoc loc) {
  std::vector<std::shared_ptr<NpArrayObj>> parts;
  std::vector<int64_t> rest;
  if (fancy(ev, *a, key, loc, parts, rest)) {
    std::vector<int64_t> shape = rest;
    shape.insert(shape.begin(), (int64_t)parts.size());
    auto r = np_new(a->dtype, shape);
    for (size_t k = 0; k < parts.size(); k++) {
      auto slab = np_view(*r, rest, std::vector<int64_t>(r->strides.begin() + 1, r->strides.end()),
                          (int64_t)k * r->strides[0]);
      np_assign(ev, *slab, *parts[k], loc);
    }
    return Value::of(r);
  }
  bool element = false;
  auto v = select(ev, *a, key, loc, element);
  if (element) return np_scalar_value(a->dtype, v->get_flat(0));
  return Value::of(v);
}

void np_assign(Evaluator& ev, NpArrayObj& dst, const NpArrayObj& src, SourceLoc loc) {
  // src broadcast to dst's shape (right-aligned; size-1 axes repeat)
  size_t nd = dst.shape.size(), ns = src.shape.size();
  bool ok = ns <= nd;
  std::vector<int64_t> sst(nd, 0);
  for (size_t k = 0; ok && k < ns; k++) {
    int64_t s = src.shape[ns - 1 - k], d = dst.shape[nd - 1 - k];
    if (s == d) sst[nd - 1 - k] = src.strides[ns - 1 - k];
    else if (s != 1) ok = false;
  }
  // numpy drops leading size-1 axes of the source first
  if (!ok) {
    size_t lead = 0;
    while (lead < ns && src.shape[lead] == 1) lead++;
    if (ns - lead <= nd) {
      auto trimmed = np_view(src, std::vector<int64_t>(src.shape.begin() + (long)lead, src.shape.end()),
                             std::vector<int64_t>(src.strides.begin() + (long)lead, src.strides.end()), src.offset);
      if (lead > 0) return np_assign(ev, dst, *trimmed, loc);
    }
    raise("ValueError", "could not broadcast input array from shape " + np_shape_str(src.shape) + " into shape " +
                            np_shape_str(dst.shape), loc);
  }
  int64_t n = dst.size();
  bool same = dst.dtype == src.dtype;
  int64_t is = dst.itemsize();
  for (int64_t k = 0; k < n; k++) {
    int64_t r = k, so = 0, doff = 0;
    for (size_t d = nd; d-- > 0;) {
      int64_t i = r % dst.shape[d];
      r /= dst.shape[d];
      so += i * sst[d];
      doff += i * dst.strides[d];
    }
    if (same) std::memcpy(dst.data() + doff, src.data() + so, (size_t)is);
    else NpArrayObj::store(ev, dst.dtype, dst.data() + doff, NpArrayObj::load(src.dtype, src.data() + so), loc);
  }
}

void np_set_item(Evaluator& ev, NpArrayObj& a, const Value& key, const Value& v, SourceLoc loc) {
  std::vector<std::shared_ptr<NpArrayObj>> parts;
  std::vector<int64_t> rest;
  if (fancy(ev, a, key, loc, parts, rest)) {
    // the value broadcast to (selected, *rest) first, then written slab by slab
    std::vector<int64_t> shape = rest;
    shape.insert(shape.begin(), (int64_t)parts.size());
    auto src = np_new(a.dtype, shape);
    np_assign(ev, *src, *np_from_value(ev, v, false, Prim::none, loc), loc);
    for (size_t k = 0; k < parts.size(); k++) {
      auto slab = np_view(*src, rest, std::vector<int64_t>(src->strides.begin() + 1, src->strides.end()),
                          (int64_t)k * src->strides[0]);
      np_assign(ev, *parts[k], *slab, loc);
    }
    return;
  }
  bool element = false;
  auto view = select(ev, a, key, loc, element);
  if (element) {
    NpArrayObj::store(ev, a.dtype, view->data(), v, loc);
    return;
  }
  if (v.is_number()) {
    auto src = np_new(a.dtype, {});
    NpArrayObj::store(ev, a.dtype, src->data(), v, loc);
    np_assign(ev, *view, *src, loc);
    return;
  }
  auto src = np_from_value(ev, v, false, Prim::none, loc);
  // a source sharing the destination's buffer is copied first (a[1:] = a[:-1])
  if (src->buf == view->buf) src = np_copy(ev, *src, src->dtype, loc);
  np_assign(ev, *view, *src, loc);
}

}  // namespace kiln::host
