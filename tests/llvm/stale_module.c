/* Stand-ins for a wrong libkiln_llvm.so (tests/llvm/module.sh). Built as is:
   a module from another Kiln, with the entry symbol but a table whose ABI
   number is not this Kiln's, which the core must refuse before calling any
   entry (only the leading fields of KilnLlvmModuleTable, jit/llvm/module_abi.h,
   are spelled here: the core reads abi first and stops there). With
   KILN_TEST_NO_ENTRY: a shared library that is not Kiln's module at all. */
#include <stdint.h>

struct StaleTable {
  uint32_t abi;
  uint64_t layout;
};

static const struct StaleTable kTable = {0xffffffffu, 0};

#ifdef KILN_TEST_NO_ENTRY
const struct StaleTable* some_other_library(void) { return &kTable; }
#else
const struct StaleTable* kiln_llvm_module_table(void) { return &kTable; }
#endif
