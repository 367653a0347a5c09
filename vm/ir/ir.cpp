// IR names, block editing and renumbering (the small mechanics of ir.h).
#include "vm/ir/ir.h"

#include <mimalloc.h>

#include <cstdlib>

#include "vm/ir/simt.h"

namespace kiln::ir {

// A walk reads every Stmt of a kernel: what only a few carry is in StmtRare
// (issue 16). 192 bytes is also mimalloc's size class for 161-192 bytes.
static_assert(sizeof(Stmt) <= 192, "ir::Stmt grew: move what few statements carry into StmtRare");

// The IR comes from mimalloc in both hosts (ir_memory.h). `kiln run` has it
// as the process's allocator; a Python extension must leave malloc and
// operator new to glibc and libstdc++ (CMakeLists.txt), and there a kernel of
// 10^4 statements compiled in ~90 ms where `kiln run` took ~50 (issue 16).
// And mimalloc asks the OS for 2 MiB pages where the kernel gives them
// (transparent huge pages in madvise mode, this VM's): every pass walks the
// kernel's megabytes of Stmts, and in 4 KiB pages, under a VM's nested
// paging, its TLB misses and first-touch faults were a third of a large
// kernel's first compile: 10^4 statements ~50 -> ~36 ms (the runtime's trees
// and pools, mimalloc's too, are read the same way).
// MIMALLOC_LARGE_OS_PAGES=0 keeps 4 KiB pages.
static const bool large_os_pages = [] {
  if (!std::getenv("MIMALLOC_LARGE_OS_PAGES")) mi_option_enable(mi_option_large_os_pages);
  return true;
}();

void* ir_alloc(size_t bytes) { return mi_new(bytes); }
void* ir_alloc_n(size_t count, size_t size) { return mi_new_n(count, size); }
void ir_free(void* p) noexcept { mi_free(p); }

// Names come from the X-macro lists, so adding a kind or op in ir.h can never
// leave a stale table here.
const char* stmt_kind_name(StmtKind k) {
  switch (k) {
#define KILN_IR_NAME(k, s) case StmtKind::k: return s;
    KILN_IR_STMTS(KILN_IR_NAME)
#undef KILN_IR_NAME
  }
  return "?";
}

const char* unary_op_name(UnaryOp op) {
  switch (op) {
#define KILN_IR_NAME(k) case UnaryOp::k: return #k;
    KILN_IR_UNARY(KILN_IR_NAME)
#undef KILN_IR_NAME
  }
  return "?";
}

const char* binary_op_name(BinaryOp op) {
  switch (op) {
#define KILN_IR_NAME(k) case BinaryOp::k: return #k;
    KILN_IR_BINARY(KILN_IR_NAME)
#undef KILN_IR_NAME
  }
  return "?";
}

const char* atomic_op_name(AtomicOp op) {
  switch (op) {
#define KILN_IR_NAME(k) case AtomicOp::k: return #k;
    KILN_IR_ATOMIC(KILN_IR_NAME)
#undef KILN_IR_NAME
  }
  return "?";
}

const char* simt_op_name(SimtOp op) {
  switch (op) {
#define KILN_IR_NAME(k) case SimtOp::k: return #k;
    KILN_IR_SIMT(KILN_IR_NAME)
#undef KILN_IR_NAME
  }
  const char* cuda = simt_cuda_op_name(op);  // vm/ir/simt.h's
  return cuda ? cuda : "?";
}

const char* snode_op_name(SNodeOpKind k) {
  switch (k) {
    case SNodeOpKind::activate: return "activate";
    case SNodeOpKind::deactivate: return "deactivate";
    case SNodeOpKind::is_active: return "is_active";
    case SNodeOpKind::append: return "append";
    case SNodeOpKind::length: return "length";
  }
  return "?";
}

const char* task_name(Task t) {
  switch (t) {
    case Task::serial: return "serial";
    case Task::range_for: return "range_for";
    case Task::struct_for: return "struct_for";
    case Task::clear_list: return "clear_list";
    case Task::listgen: return "listgen";
    case Task::gc: return "gc";
  }
  return "?";
}

Stmt* Block::add(std::unique_ptr<Stmt> s) {
  s->parent = this;
  stmts.push_back(std::move(s));
  return stmts.back().get();
}

Stmt* Block::insert(size_t pos, std::unique_ptr<Stmt> s) {
  s->parent = this;
  Stmt* raw = s.get();
  stmts.insert(stmts.begin() + (std::ptrdiff_t)pos, std::move(s));
  return raw;
}

// The caller owns the statement afterwards; its parent is cleared so that a
// forgotten re-insert shows up in the verifier instead of silently pointing
// at the old block.
std::unique_ptr<Stmt> Block::take(size_t pos) {
  std::unique_ptr<Stmt> s = std::move(stmts[pos]);
  stmts.erase(stmts.begin() + (std::ptrdiff_t)pos);
  s->parent = nullptr;
  return s;
}

// Pre-order, a statement before the statements of its blocks: the order in
// which print_kernel shows them, so $ids increase down the printed text.
int Kernel::renumber() {
  int next = 0;
  walk(root, [&](Stmt* s) { s->id = next++; });
  return next;
}

// Only operands are rewritten; `loop` links name control statements, which
// never have values and so never take part in value replacement.
std::unique_ptr<Stmt> make_stmt(StmtKind k, Type t, SourceLoc loc, Operands ops) {
  auto s = std::make_unique<Stmt>(k);
  s->type = t;
  s->loc = loc;
  s->ops = std::move(ops);
  return s;
}

std::unique_ptr<Stmt> clone_stmt(const Stmt& s) {
  auto n = make_stmt(s.kind, s.type, s.loc, s.ops);
  n->uop = s.uop;
  n->bop = s.bop;
  n->aop = s.aop;
  n->value = s.value;
  n->index = s.index;
  n->loop = s.loop;
  n->access = s.access;
  n->task = s.task;
  n->begin = s.begin;
  n->end = s.end;
  n->serialize = s.serialize;
  n->snode = s.snode;
  n->sop = s.sop;
  if (s.rare_) {  // its members but the TLS blocks
    StmtRare& r = n->rare_mut();
    r.print_parts = s.rare_->print_parts;
    r.text = s.rare_->text;
    r.num_loop_indices = s.rare_->num_loop_indices;
    r.block_dim = s.rare_->block_dim;
    r.begin_const = s.rare_->begin_const;
    r.end_const = s.rare_->end_const;
    r.path_ids = s.rare_->path_ids;
    r.path_names = s.rare_->path_names;
  }
  n->name = s.name;
  n->frame = s.frame;
  n->var_kind = s.var_kind;
  return n;
}

void replace_uses(Block& root, Stmt* from, Stmt* to) {
  walk(root, [&](Stmt* s) {
    for (Stmt*& op : s->ops)
      if (op == from) op = to;
  });
}

void rename_operands(Stmt& s, const std::unordered_map<const Stmt*, Stmt*>& to) {
  if (to.empty()) return;
  for (Stmt*& op : s.ops)
    if (auto r = to.find(op); r != to.end()) op = r->second;
}

StmtList take_all(Block& b) {
  StmtList out = std::move(b.stmts);
  b.stmts.clear();
  b.stmts.reserve(out.size());
  return out;
}

size_t count_stmts(const Block& b) {
  size_t n = b.stmts.size();
  for (auto& s : b.stmts)
    for (const Block* inner : {s->tls_prologue(), s->body.get(), s->else_body.get(), s->tls_epilogue()})
      if (inner) n += count_stmts(*inner);
  return n;
}

}  // namespace kiln::ir
