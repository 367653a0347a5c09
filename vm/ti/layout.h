// ti.layout: seed 002's tensor layouts, below both hosts. row_major(*shape),
// column_major(*shape) and strided(shape, ranks) compose with `*` (outer *
// inner: the outer layout picks the block, the inner one the element inside
// it). A layout lowers to a chain of dense SNode levels, one (axis, extent)
// per level, slowest first, so `ti.field(dt, layout=L)` is an ordinary
// nested-dense field (Program::create_layout_field). L[i, j] is the linear
// position of an element, as the seed's tables show.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "vm/support/diag.h"

namespace kiln::ti {

struct Layout {
  std::vector<int64_t> shape;
  std::vector<std::pair<int, int64_t>> levels;  // (axis, extent), slowest first
};

// Sizes are checked (1..12 of them, each positive); `what` names the
// function in messages ("row_major"). Throw ValueError / TypeError.
Layout row_major(const std::vector<int64_t>& shape, SourceLoc loc = {});
Layout column_major(const std::vector<int64_t>& shape, SourceLoc loc = {});
// ranks[d] is dimension d's place from slowest (0) to fastest.
Layout strided(const std::vector<int64_t>& shape, const std::vector<int64_t>& ranks, SourceLoc loc = {});
// outer * inner: the shapes multiply per dimension. ValueError if the ranks differ.
Layout compose(const Layout& outer, const Layout& inner, SourceLoc loc = {});
// The linear position of element `c`. IndexError when out of the layout.
int64_t position(const Layout& l, const std::vector<int64_t>& c, SourceLoc loc = {});
// "Layout(shape=[2, 2])"
std::string layout_repr(const Layout& l);
// The levels of a field created with layout=l and the given shape (null: none
// given). ValueError when the shapes differ.
const std::vector<std::pair<int, int64_t>>& field_levels(const Layout& l, const std::vector<int64_t>* shape,
                                                         SourceLoc loc = {});

}  // namespace kiln::ti
