// The shape of bytecode listings: a header per task, one line per
// instruction (pc, op, operands), and the source location with its line text
// where the source line changes.
#include <doctest/doctest.h>

#include <sstream>

#include "vm/bytecode/function.h"
#include "vm/ir/builder.h"

using namespace kiln;
using ir::BinaryOp;
using ir::Stmt;

namespace {

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("listing: one line per instruction with source lines on change") {
  SourceSet set;
  const SourceFile* f = set.add("prog.py",
                                "@ti.kernel\n"
                                "def k(n: ti.i32):\n"
                                "    for i in range(8):\n"
                                "        print(i * n)\n");
  ir::Kernel k;
  k.name = "k";
  k.args = {{"n", Type::scalar(Prim::i32)}};
  ir::Builder b(k.root);
  Stmt* t = b.offloaded(ir::Task::range_for);
  t->begin = 0;
  t->end = 8;
  t->loc = SourceLoc{f, 3, 5};
  b.in(*t->body);
  Stmt* i = b.loop_index(t);
  i->loc = SourceLoc{f, 3, 9};
  Stmt* n = b.arg(0, Type::scalar(Prim::i32));
  n->loc = SourceLoc{f, 4, 9};
  Stmt* m = b.binary(BinaryOp::mul, i, n);
  m->loc = SourceLoc{f, 4, 15};
  Stmt* big = b.const_int(Prim::i64, 1ll << 40);
  big->loc = m->loc;
  Stmt* p = b.print({ir::PrintPart{true, 0, ""}, ir::PrintPart{false, -1, "\n"}}, {m});
  p->loc = m->loc;

  bc::Kernel code = bc::lower_kernel(k);
  REQUIRE(code.tasks.size() == 1);
  const bc::Function& fn = code.tasks[0].fn;
  std::string listing = bc::disassemble(code);
  auto ls = lines_of(listing);
  REQUIRE(ls.size() == fn.code.size() + 1);
  CHECK(ls[0].rfind("-- task 0: range_for [0, 8)", 0) == 0);
  for (size_t pc = 0; pc < fn.code.size(); pc++) {
    char want[32];
    snprintf(want, sizeof want, "%04zu  ", pc);
    CHECK(ls[pc + 1].rfind(want, 0) == 0);
    CHECK(ls[pc + 1].find(bc::op_name(fn.code[pc].op)) == 6);
  }
  // The first instruction of each source line carries `file:line  text`, the
  // rest of that line's instructions carry nothing.
  int with_src = 0;
  for (auto& l : ls)
    if (l.find(" ; prog.py:") != std::string::npos) with_src++;
  CHECK(with_src >= 2);
  CHECK(listing.find("; prog.py:3  for i in range(8):") != std::string::npos);
  CHECK(listing.find("; prog.py:4  print(i * n)") != std::string::npos);
  // operands by mode
  CHECK(listing.find("fori_i32   r0, -> ") != std::string::npos);
  CHECK(listing.find("arg        r3, arg0") != std::string::npos);
  CHECK(listing.find("mul_i32    r4, r0, r3") != std::string::npos);
  // n (r3) died at the multiply: the constant reuses its register
  CHECK(listing.find("kload      r3, K0=0x10000000000") != std::string::npos);
  CHECK(listing.find("pr_val     r4, i32, -") != std::string::npos);
  CHECK(listing.find("pr_str     \"\\n\"") != std::string::npos);
  CHECK(listing.find("forl_i32   r0, -> 0001") != std::string::npos);
  CHECK(ls.back().find("end") == 6);
  // every pc has a line-table entry
  CHECK(fn.lines.size() == fn.code.size());
  CHECK(fn.loops.size() == 1);
  CHECK(fn.loops[0].counter == 2);
}

TEST_CASE("op table: names and operand modes come from the one X-macro list") {
  CHECK(std::string(bc::op_name(bc::Op::add_i32)) == "add_i32");
  CHECK(std::string(bc::op_name(bc::Op::ld_bf16)) == "ld_bf16");
  CHECK((int)bc::Op::add_f64 - (int)bc::Op::add_i32 == (int)bc::CT::f64);
  CHECK((int)bc::Op::ld_f64 - (int)bc::Op::ld_i8 == (int)Prim::f64);
  CHECK((int)bc::Op::atom_xor_u64 - (int)bc::Op::atom_xor_i8 == (int)Prim::u64);
  CHECK(bc::kOpInfo[(int)bc::Op::jmp].b == bc::Mode::jmp);
  CHECK(bc::compute_type(Prim::u16) == bc::CT::u32);
  CHECK(bc::compute_type(Prim::bf16) == bc::CT::f32);
}
