// ti.layout's algebra (see layout.h), shared by the CPython binding and the
// built-in module evaluator.
#include "vm/ti/layout.h"

#include "vm/runtime/sizes.h"
#include "vm/runtime/snode.h"

namespace kiln::ti {

namespace {

void check_sizes(const std::vector<int64_t>& shape, const char* what, SourceLoc loc) {
  for (int64_t n : shape)
    if (n <= 0) raise("ValueError", std::string(what) + "() sizes must be positive, got " + std::to_string(n), loc);
  if (shape.empty() || shape.size() > (size_t)kMaxIndices)
    raise("TypeError", std::string(what) + "() takes 1 to " + std::to_string(kMaxIndices) + " sizes", loc);
}

// A layout over `shape` whose dimensions go slowest to fastest in `order`.
Layout ordered(const std::vector<int64_t>& shape, const std::vector<int>& order) {
  Layout l;
  l.shape = shape;
  for (int d : order) l.levels.push_back({d, shape[(size_t)d]});
  return l;
}

}  // namespace

Layout row_major(const std::vector<int64_t>& shape, SourceLoc loc) {
  check_sizes(shape, "row_major", loc);
  std::vector<int> order;
  for (size_t d = 0; d < shape.size(); d++) order.push_back((int)d);
  return ordered(shape, order);
}

Layout column_major(const std::vector<int64_t>& shape, SourceLoc loc) {
  check_sizes(shape, "column_major", loc);
  std::vector<int> order;
  for (size_t d = shape.size(); d-- > 0;) order.push_back((int)d);
  return ordered(shape, order);
}

Layout strided(const std::vector<int64_t>& shape, const std::vector<int64_t>& ranks, SourceLoc loc) {
  check_sizes(shape, "strided", loc);
  if (ranks.size() != shape.size())
    raise("ValueError", "strided() needs one rank per dimension: " + std::to_string(shape.size()) + " dimensions, " +
                            std::to_string(ranks.size()) + " ranks", loc);
  std::vector<int> order(shape.size(), -1);
  for (size_t d = 0; d < ranks.size(); d++) {
    int64_t r = ranks[d];
    if (r < 0 || r >= (int64_t)shape.size() || order[(size_t)r] != -1)
      raise("ValueError", "strided() ranks must be a permutation of 0.." + std::to_string(shape.size() - 1), loc);
    order[(size_t)r] = (int)d;
  }
  return ordered(shape, order);
}

Layout compose(const Layout& outer, const Layout& inner, SourceLoc loc) {
  if (inner.shape.size() != outer.shape.size())
    raise("ValueError", "cannot compose a " + std::to_string(outer.shape.size()) + "-D layout with a " +
                            std::to_string(inner.shape.size()) + "-D one", loc);
  Layout h;
  for (size_t d = 0; d < outer.shape.size(); d++) {
    int64_t n = 0;
    if (__builtin_mul_overflow(outer.shape[d], inner.shape[d], &n)) n = INT64_MAX;  // too large for any field
    h.shape.push_back(n);
  }
  h.levels = outer.levels;
  h.levels.insert(h.levels.end(), inner.levels.begin(), inner.levels.end());
  return h;
}

// Horner over the levels, each level seeing its axis' index divided by the
// extents of that axis below it.
int64_t position(const Layout& l, const std::vector<int64_t>& c, SourceLoc loc) {
  if (c.size() != l.shape.size())
    raise("IndexError", "the layout has " + std::to_string(l.shape.size()) + " dimensions, got " +
                            std::to_string(c.size()) + " indices", loc);
  for (size_t d = 0; d < c.size(); d++)
    if (c[d] < 0 || c[d] >= l.shape[d])
      raise("IndexError", "index " + std::to_string(c[d]) + " is out of bounds for dimension " + std::to_string(d) +
                              " of a layout with shape " + format_shape(l.shape), loc);
  int64_t pos = 0;
  for (size_t i = 0; i < l.levels.size(); i++) {
    auto [axis, n] = l.levels[i];
    int64_t below = 1;
    for (size_t m = i + 1; m < l.levels.size(); m++)
      if (l.levels[m].first == axis) below *= l.levels[m].second;
    pos = pos * n + (c[(size_t)axis] / below) % n;
  }
  return pos;
}

std::string layout_repr(const Layout& l) {
  std::string s = "Layout(shape=[";
  for (size_t i = 0; i < l.shape.size(); i++) s += (i ? ", " : "") + std::to_string(l.shape[i]);
  return s + "])";
}

const std::vector<std::pair<int, int64_t>>& field_levels(const Layout& l, const std::vector<int64_t>* shape,
                                                         SourceLoc loc) {
  if (shape && *shape != l.shape)
    raise("ValueError", "the field's shape " + format_shape(*shape) + " differs from its layout's shape " +
                            format_shape(l.shape), loc);
  return l.levels;
}

}  // namespace kiln::ti
