// `kiln dis --ptx=DIR`: each task's PTX in a file of its own, compiled alone
// so that ptxas can check every task separately (tests/cuda/ptxas_all.py);
// a struct-for's list generation kernels (listgen.h) as KERNEL.TASK.listgen.ptx.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>

#include "gpu/cuda/cuda.h"
#include "gpu/cuda/ptx.h"
#include "vm/runtime/program.h"
#include "vm/support/diag.h"

namespace kiln::cuda {

void dump_ptx(const ir::Kernel& k, Program* prog, const std::string& dir) {
  std::string stem;
  for (char c : k.name) stem += (std::isalnum((unsigned char)c) || c == '_' || c == '.') ? c : '_';
  for (size_t n = 0; n < k.root.stmts.size(); n++) {
    const ir::Stmt& s = *k.root.stmts[n];
    if (s.kind != ir::StmtKind::offloaded || s.task == ir::Task::clear_list || s.task == ir::Task::listgen) continue;
    PtxKernel p = compile_ptx(k, default_sm(), (int)n, prog);
    const PtxTask& t = p.tasks.at(n);
    std::string path = dir + "/" + stem + "." + std::to_string(n) + (t.entry.empty() ? ".host" : ".ptx");
    std::ofstream f(path, std::ios::binary);
    f << (t.entry.empty() ? t.why + "\n" : p.ptx);
    if (!f) raise("OSError", "kiln dis --ptx: cannot write '" + path + "'");
    // A struct-for's cells come from the device's list generation: its kernels too.
    if (s.task == ir::Task::struct_for && prog && !t.entry.empty()) {
      std::string lpath = dir + "/" + stem + "." + std::to_string(n) + ".listgen.ptx";
      std::ofstream lf(lpath, std::ios::binary);
      lf << compile_listgen_ptx(*prog->snode(s.snode), std::max(s.rare().num_loop_indices, 1), default_sm());
      if (!lf) raise("OSError", "kiln dis --ptx: cannot write '" + lpath + "'");
    }
  }
}

}  // namespace kiln::cuda
