// Host access to quantized fields (x[i], fill, to_numpy/from_numpy) for
// every host: the element's word is found like any field element's, then
// decoded or re-encoded with vm/types/quant.h's codec.
#pragma once
#include "vm/runtime/program.h"
#include "vm/types/value.h"

namespace kiln::ti {

// `idx` are the user's indices (offsets included), as Program::element_address.
ConstVal quant_get(Program& prog, const FieldInfo& f, const int64_t* idx, int n, SourceLoc loc);
void quant_set(Program& prog, const FieldInfo& f, const int64_t* idx, int n, const ConstVal& v, SourceLoc loc);

}  // namespace kiln::ti
