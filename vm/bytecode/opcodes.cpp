// The op table's names and operand modes, expanded from KILN_BC_OPS.
#include "vm/bytecode/opcodes.h"

namespace kiln::bc {

const OpInfo kOpInfo[kNumOps] = {
#define KILN_BC_INFO(name, a, b, c) {#name, Mode::a, Mode::b, Mode::c},
    KILN_BC_OPS(KILN_BC_INFO)
#undef KILN_BC_INFO
};

}  // namespace kiln::bc
