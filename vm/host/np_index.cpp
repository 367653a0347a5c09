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
  if (np_as(key) || key.kind == Kind::List)
    raise("IndexError", "Kiln's numpy supports basic indexing only (integers, slices, None, ...), not integer or boolean arrays", loc);
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

}  // namespace

Value np_get_item(Evaluator& ev, const std::shared_ptr<NpArrayObj>& a, const Value& key, SourceLoc loc) {
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
