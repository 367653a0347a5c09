"""ti.layout: seed 002's tensor layouts as a field's memory order.

row_major(*shape), column_major(*shape) and strided(shape, ranks) compose with
`*` (outer * inner: the outer layout picks the block, the inner one the
element inside it); `ti.field(dtype, layout=L)` is laid out by L, and L[i, j]
is an element's linear position. The algebra is Kiln's ti layer's
(vm/ti/layout.h), the same under every host."""
from ._core import Layout, layout_column_major as column_major, layout_row_major as row_major  # noqa: F401
from ._core import layout_strided as strided  # noqa: F401
