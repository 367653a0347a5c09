// recursion_level_bytes (gpu/cuda/ptx.cpp): one level of ti.real_func
// recursion is the largest function's frame with its largest task's, each
// with kCallSaveBytes for ptxas's saved registers; kernel entries and other
// device functions do not count.
#include <doctest/doctest.h>

#include "gpu/cuda/ptx.h"

using kiln::cuda::kCallSaveBytes;
using kiln::cuda::recursion_level_bytes;

TEST_CASE("a function's frame and its task's make a level") {
  std::string ptx =
      ".visible .global .align 8 .u64 kiln_call_depth_limit = 2000;\n"
      ".func  (.param .b32 func_retval0) kiln_0_f_body_$_rf0(\n"
      "\t.param .b64 kiln_0_f_body_$_rf0_param_0\n"
      ")\n{\n\t.local .align 8 .b8 \t__local_depot0[240];\n}\n"
      ".func  (.param .b32 func_retval0) kiln_0_f_body_$_rf0_$_t1(\n)\n{\n"
      "\t.local .align 8 .b8 \t__local_depot1[64];\n}\n"
      ".func  (.param .b32 func_retval0) kiln_0_f_body_$_rf1(\n)\n{\n"
      "\t.local .align 8 .b8 \t__local_depot2[112];\n}\n"
      ".func kiln_gpu_fail(\n)\n{\n\t.local .align 8 .b8 \t__local_depot3[4096];\n}\n"
      ".visible .entry kiln_0_f(\n)\n{\n\t.local .align 8 .b8 \t__local_depot4[9999];\n}\n";
  CHECK(recursion_level_bytes(ptx) == 240 + kCallSaveBytes + 64 + kCallSaveBytes);
}

TEST_CASE("functions without frames still take the saved registers") {
  std::string ptx = ".func  (.param .b32 func_retval0) kiln_0_g_body_$_rf0(\n)\n{\n\tret;\n}\n";
  CHECK(recursion_level_bytes(ptx) == kCallSaveBytes);
  CHECK(recursion_level_bytes("") == kCallSaveBytes);
}
