// may_fail_entries (gpu/cuda/ptx.cpp): an entry can fail when its code, or
// a function it calls however deep, still calls kiln_gpu_fail after the
// optimizer; the CUDA engine defers (does not wait for) the launches of
// kernels whose tasks cannot fail.
#include <doctest/doctest.h>

#include "gpu/cuda/ptx.h"

using kiln::cuda::may_fail_entries;

namespace {

const char* kFail = ".func kiln_gpu_fail(\n\t.param .b64 kiln_gpu_fail_param_0\n)\n{\n\tatom.min.s64 \t%rd1, [%rd2], %rd3;\n\tret;\n}\n";

}  // namespace

TEST_CASE("an entry that calls kiln_gpu_fail may fail; one that does not cannot") {
  std::string ptx = std::string(".func kiln_gpu_fail(\n\t.param .b64 kiln_gpu_fail_param_0\n);\n") +
                    ".visible .entry kiln_0_checked(\n\t.param .u64 kiln_0_checked_param_0\n)\n{\n"
                    "\t{ // callseq 0, 0\n\tcall.uni \n\tkiln_gpu_fail, \n\t(\n\tparam0\n\t);\n\t} // callseq 0\n}\n"
                    ".visible .entry kiln_1_plain(\n\t.param .u64 kiln_1_plain_param_0\n)\n{\n\tst.f32 \t[%rd1], %f1;\n\tret;\n}\n" +
                    kFail;
  std::set<std::string> f = may_fail_entries(ptx);
  CHECK(f.count("kiln_0_checked") == 1);
  CHECK(f.count("kiln_1_plain") == 0);
  CHECK(f.size() == 1);
}

TEST_CASE("a failure reached through device functions counts; a longer name does not") {
  std::string ptx = std::string(kFail) +
                    ".func  (.param .b32 func_retval0) kiln_0_t_body_$_rf0(\n)\n{\n\tcall.uni (retval0), \n\tkiln_gpu_fail, \n\t(\n\tparam0\n\t);\n}\n"
                    ".func  (.param .b32 func_retval0) kiln_0_t_body_$_rf1(\n)\n{\n\tcall.uni (retval0), \n\tkiln_0_t_body_$_rf0, \n\t(\n\tparam0\n\t);\n}\n"
                    ".func  (.param .b32 func_retval0) kiln_0_t_body_$_rf2(\n)\n{\n\tret;\n}\n"
                    ".visible .entry kiln_0_deep(\n)\n{\n\tcall.uni (retval0), \n\tkiln_0_t_body_$_rf1, \n\t(\n\tparam0\n\t);\n}\n"
                    ".visible .entry kiln_1_pure(\n)\n{\n\tcall.uni (retval0), \n\tkiln_0_t_body_$_rf2, \n\t(\n\tparam0\n\t);\n"
                    "\tmov.u64 \t%rd1, kiln_gpu_fail_count;\n}\n";
  std::set<std::string> f = may_fail_entries(ptx);
  CHECK(f.count("kiln_0_deep") == 1);
  CHECK(f.count("kiln_1_pure") == 0);
  CHECK(may_fail_entries("").empty());
}
