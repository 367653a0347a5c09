// `kiln dis --ptx=DIR`: each task's PTX in a file of its own, compiled alone
// so that ptxas can check every task separately (tests/cuda/ptxas_all.py).
#include <cctype>
#include <cstdio>
#include <fstream>

#include "gpu/cuda/cuda.h"
#include "gpu/cuda/ptx.h"
#include "vm/support/diag.h"

namespace kiln {

namespace {
std::string& dump_dir() {
  static std::string d;
  return d;
}
}  // namespace

void set_ptx_dump_dir(const std::string& dir) { dump_dir() = dir; }
bool ptx_dump_enabled() { return !dump_dir().empty(); }

void dump_ptx(const ir::Kernel& k, Program* prog) {
  if (dump_dir().empty()) return;
  std::string stem;
  for (char c : k.name) stem += (std::isalnum((unsigned char)c) || c == '_' || c == '.') ? c : '_';
  for (size_t n = 0; n < k.root.stmts.size(); n++) {
    const ir::Stmt& s = *k.root.stmts[n];
    if (s.kind != ir::StmtKind::offloaded || s.task == ir::Task::clear_list || s.task == ir::Task::listgen) continue;
    cuda::PtxKernel p = cuda::compile_ptx(k, cuda::default_sm(), (int)n, prog);
    const cuda::PtxTask& t = p.tasks.at(n);
    std::string path = dump_dir() + "/" + stem + "." + std::to_string(n) + (t.entry.empty() ? ".host" : ".ptx");
    std::ofstream f(path, std::ios::binary);
    f << (t.entry.empty() ? t.why + "\n" : p.ptx);
    if (!f) raise("OSError", "kiln dis --ptx: cannot write '" + path + "'");
  }
}

}  // namespace kiln
